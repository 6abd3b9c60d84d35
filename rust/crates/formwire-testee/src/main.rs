//! The Rust conformance testee (`conformance/PROTOCOL.md`): JSON lines on
//! stdin, one response line per request on stdout. No test logic: each op
//! decodes the request, calls formwire's public API, and encodes the result.

use std::io::{self, BufRead, Write};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use formwire::multipart::{self, Encoder, Event};
use formwire::{Error, urlencoded};
use formwire_v8 as v8;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

const OPS: &[&str] = &[
    "multipart.parse",
    "multipart.serialize",
    "urlencoded.parse",
    "urlencoded.serialize",
    "clone.decode",
    "clone.encode",
];

/// Bodies up to this size are echoed as `body_b64` (for the runner's diffs).
const ECHO_LIMIT: usize = 64 * 1024;

fn main() {
    let mut stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match stdin.read_until(b'\n', &mut raw) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("formwire-testee: stdin: {e}");
                std::process::exit(1);
            }
        }
        // PROTOCOL.md: every line is UTF-8 JSON; anything else is answered, not a reason to quit.
        let Ok(line) = std::str::from_utf8(&raw) else {
            let _ = writeln!(
                stdout,
                "{}",
                json!({"id": null, "error": testee_error("request line is not UTF-8")})
            );
            let _ = stdout.flush();
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        let response = match serde_json::from_str::<Value>(line) {
            Ok(req) => {
                let id = req.get("id").cloned().unwrap_or(Value::Null);
                match handle(&req) {
                    Response::Json(mut resp) => {
                        resp.insert("id".into(), id);
                        Value::Object(resp).to_string()
                    }
                    // Parse results can be large: written as JSON text directly.
                    Response::Results(results) => {
                        format!("{{\"id\":{id},\"results\":[{}]}}", results.join(","))
                    }
                }
            }
            Err(e) => json!({"id": null, "error": testee_error(&format!("bad request line: {e}"))})
                .to_string(),
        };
        let _ = writeln!(stdout, "{response}");
        let _ = stdout.flush();
    }
}

enum Response {
    Json(Map<String, Value>),
    /// One JSON text per chunking.
    Results(Vec<String>),
}

fn handle(req: &Value) -> Response {
    let op = req.get("op").and_then(Value::as_str).unwrap_or("");
    // Encoding ops: `Err` is the error object of the response.
    let r: Result<Value, Value> = match op {
        "hello" => Ok(json!({"lang": "rust", "version": env!("CARGO_PKG_VERSION"), "ops": OPS})),
        "multipart.parse" => return results(req, multipart_parse),
        "urlencoded.parse" => return results(req, |r, i, c| urlencoded_parse(r, i, c).to_string()),
        "multipart.serialize" => multipart_serialize(req),
        "urlencoded.serialize" => urlencoded_serialize(req).map_err(|m| testee_error(&m)),
        "clone.decode" => return results(req, clone_decode),
        "clone.encode" => clone_encode(req),
        _ => Err(testee_error(&format!("unknown op {op:?}"))),
    };
    let mut m = Map::new();
    match r {
        Ok(v) => m.insert("ok".into(), v),
        Err(e) => m.insert("error".into(), e),
    };
    Response::Json(m)
}

/// An error of the testee itself (not a formwire error code).
fn testee_error(msg: &str) -> Value {
    json!({"code": "TESTEE", "offset": 0, "message": msg})
}

fn error_json(e: &Error) -> Value {
    json!({"code": e.code.as_str(), "offset": e.offset, "message": e.to_string()})
}

/// Runs a parse op once per chunking: `{"results": [...]}`.
fn results(req: &Value, parse: fn(&Value, &[u8], &[usize]) -> String) -> Response {
    let input = match req
        .get("input_b64")
        .and_then(Value::as_str)
        .map(|s| B64.decode(s))
    {
        Some(Ok(b)) => b,
        _ => {
            let mut m = Map::new();
            m.insert("error".into(), testee_error("missing or bad input_b64"));
            return Response::Json(m);
        }
    };
    let empty = vec![Value::Array(vec![])];
    let chunkings = req
        .get("chunkings")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let out = chunkings
        .iter()
        .map(|c| match cuts(c, input.len()) {
            Ok(cuts) => parse(req, &input, &cuts),
            Err(msg) => json!({"error": testee_error(&msg)}).to_string(),
        })
        .collect();
    Response::Results(out)
}

/// A chunking as cut offsets: `[]` whole, `"bytes"` every byte, or offsets.
fn cuts(c: &Value, len: usize) -> Result<Vec<usize>, String> {
    match c {
        Value::String(s) if s == "bytes" => Ok((1..len).collect()),
        Value::Array(a) => {
            let mut out = Vec::with_capacity(a.len());
            for v in a {
                let n = v.as_u64().ok_or_else(|| format!("bad cut {v}"))?;
                let n = usize::try_from(n).map_err(|_| format!("bad cut {v}"))?;
                // PROTOCOL.md: strictly increasing, each in 1..len-1.
                if n == 0 || n >= len || out.last().is_some_and(|&p| n <= p) {
                    return Err(format!(
                        "cut {n} out of order or outside 1..{}",
                        len.saturating_sub(1)
                    ));
                }
                out.push(n);
            }
            Ok(out)
        }
        _ => Err(format!("bad chunking {c}")),
    }
}

/// The input split at `cuts`.
fn chunks<'a>(input: &'a [u8], cuts: &[usize]) -> impl Iterator<Item = &'a [u8]> {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(input.len());
    (0..bounds.len() - 1).map(move |i| &input[bounds[i]..bounds[i + 1]])
}

fn multipart_options(req: &Value) -> Result<multipart::Options, String> {
    let mut o = multipart::Options::default();
    if let Some(opts) = req.get("options").and_then(Value::as_object) {
        for (k, v) in opts {
            let known = match v {
                Value::Bool(b) => o.set_flag(k, *b),
                Value::Null => o.set_limit(k, None),
                Value::Number(n) => o.set_limit(k, Some(n.as_u64().ok_or("limit is not a u64")?)),
                _ => false,
            };
            if !known {
                return Err(format!("unknown multipart option {k}={v}"));
            }
        }
    }
    Ok(o)
}

/// Appends `s` as a JSON string.
fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends `"key":` and the value (a JSON string of `s`, or null).
fn field(out: &mut String, key: &str, s: Option<&str>) {
    out.push('"');
    out.push_str(key);
    out.push_str("\":");
    match s {
        Some(s) => push_json_str(out, s),
        None => out.push_str("null"),
    }
    out.push(',');
}

/// One part being collected (its JSON text so far).
struct Collect {
    json: String,
    size: u64,
    hash: Sha256,
    echo: Option<Vec<u8>>,
}

impl Collect {
    fn data(&mut self, d: &[u8]) {
        self.size += d.len() as u64;
        self.hash.update(d);
        if let Some(e) = &mut self.echo {
            if e.len() + d.len() > ECHO_LIMIT {
                self.echo = None;
            } else {
                e.extend_from_slice(d);
            }
        }
    }

    fn finish(mut self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let digest = self.hash.finalize();
        let j = &mut self.json;
        j.push_str(&format!("\"size\":{},\"sha256\":\"", self.size));
        for b in digest.iter() {
            j.push(HEX[(b >> 4) as usize] as char);
            j.push(HEX[(b & 15) as usize] as char);
        }
        j.push('"');
        if let Some(e) = self.echo {
            j.push_str(",\"body_b64\":\"");
            j.push_str(&B64.encode(e));
            j.push('"');
        }
        j.push('}');
        self.json
    }
}

fn lossy(b: Option<&[u8]>) -> Option<String> {
    b.map(|b| String::from_utf8_lossy(b).into_owned())
}

fn start_part(part: &multipart::Part<'_>) -> Collect {
    let mut j = String::with_capacity(256);
    j.push('{');
    // MP-H-06: a part without a name (allow_missing_disposition) has name null.
    let name = part.has_name().then(|| part.name());
    field(&mut j, "name", name.as_deref());
    field(&mut j, "filename", part.filename().as_deref());
    field(&mut j, "name_star", lossy(part.name_star()).as_deref());
    field(
        &mut j,
        "filename_star",
        lossy(part.filename_star()).as_deref(),
    );
    field(
        &mut j,
        "content_type",
        lossy(part.content_type()).as_deref(),
    );
    let ty = if part.is_file() {
        Some(part.mime_type())
    } else {
        None
    };
    field(&mut j, "type", ty.as_deref());
    j.push_str("\"headers\":[");
    for (i, h) in part.headers().enumerate() {
        if i > 0 {
            j.push(',');
        }
        j.push('[');
        push_json_str(&mut j, h.name());
        j.push(',');
        push_json_str(&mut j, &h.value_str());
        j.push(']');
    }
    j.push_str("],");
    Collect {
        json: j,
        size: 0,
        hash: Sha256::new(),
        echo: Some(Vec::new()),
    }
}

fn multipart_parse(req: &Value, input: &[u8], cuts: &[usize]) -> String {
    let opts = match multipart_options(req) {
        Ok(o) => o,
        Err(msg) => return json!({"error": testee_error(&msg)}).to_string(),
    };
    let ct = req
        .get("content_type")
        .and_then(Value::as_str)
        .unwrap_or("");
    match run_multipart(ct, opts, input, cuts) {
        Ok(parts) => format!("{{\"ok\":{{\"parts\":[{}]}}}}", parts.join(",")),
        Err(e) => json!({"error": error_json(&e)}).to_string(),
    }
}

fn run_multipart(
    ct: &str,
    opts: multipart::Options,
    input: &[u8],
    cuts: &[usize],
) -> Result<Vec<String>, Error> {
    let mut parser = multipart::Parser::from_content_type(ct, opts)?;
    let mut parts = Vec::new();
    let mut current: Option<Collect> = None;
    let mut on_event = |ev: Event<'_, '_>| match ev {
        Event::PartStart(part) => current = Some(start_part(&part)),
        Event::Data(d) | Event::HeldData(d) => {
            if let Some(c) = &mut current {
                c.data(d);
            }
        }
        Event::PartEnd => {
            if let Some(c) = current.take() {
                parts.push(c.finish());
            }
        }
        Event::End => {}
    };
    for chunk in chunks(input, cuts) {
        let mut feed = parser.feed(chunk);
        while let Some(ev) = feed.next() {
            on_event(ev?);
        }
    }
    let mut feed = parser.finish();
    while let Some(ev) = feed.next() {
        on_event(ev?);
    }
    Ok(parts)
}

fn body_bytes(v: Option<&Value>) -> Result<Vec<u8>, String> {
    let v = v.ok_or("entry without body")?;
    if let Some(b) = v.get("base64").and_then(Value::as_str) {
        return B64.decode(b).map_err(|e| format!("bad base64: {e}"));
    }
    if let Some(t) = v.get("text").and_then(Value::as_str) {
        return Ok(t.as_bytes().to_vec());
    }
    Err(format!("unsupported body {v}"))
}

fn str_field<'a>(v: &'a Value, k: &str) -> Result<&'a str, String> {
    v.get(k)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string {k:?}"))
}

fn multipart_serialize(req: &Value) -> Result<Value, Value> {
    let t = |m: String| testee_error(&m);
    let entries = req
        .get("entries")
        .and_then(Value::as_array)
        .ok_or_else(|| t("missing entries".into()))?;
    // Bodies are decoded first so the encoder can borrow them.
    let mut bodies = Vec::with_capacity(entries.len());
    for e in entries {
        let b = if let Some(f) = e.get("file").or_else(|| e.get("blob")) {
            Some(body_bytes(f.get("body")).map_err(t)?)
        } else {
            None
        };
        bodies.push(b);
    }
    let mut enc = match req.get("boundary").and_then(Value::as_str) {
        Some(b) => Encoder::with_boundary(b).map_err(|e| error_json(&e))?,
        None => Encoder::new(),
    };
    for (e, body) in entries.iter().zip(&bodies) {
        let name = str_field(e, "name").map_err(t)?;
        let body = body.as_deref().unwrap_or_default();
        let r = if let Some(f) = e.get("file") {
            let filename = str_field(f, "filename").map_err(t)?;
            enc.file(name, filename, str_field(f, "type").map_err(t)?, body)
                .map(|_| ())
        } else if let Some(b) = e.get("blob") {
            enc.blob(name, str_field(b, "type").map_err(t)?, body)
                .map(|_| ())
        } else {
            enc.text(name, str_field(e, "value").map_err(t)?);
            Ok(())
        };
        r.map_err(|e| error_json(&e))?;
    }
    let content_type = enc.content_type();
    // PROTOCOL.md: the length is known before the body is produced.
    let content_length = enc
        .content_length()
        .ok_or_else(|| t("content length unknown".into()))?;
    let body = enc.encode_to_vec().map_err(|e| t(e.to_string()))?;
    Ok(
        json!({"content_type": content_type, "content_length": content_length, "body_b64": B64.encode(body)}),
    )
}

fn urlencoded_options(req: &Value) -> Result<urlencoded::Options, String> {
    let mut o = urlencoded::Options::default();
    if let Some(opts) = req.get("options").and_then(Value::as_object) {
        for (k, v) in opts {
            let limit = match v {
                Value::Null => None,
                Value::Number(n) => Some(n.as_u64().ok_or("limit is not a u64")?),
                _ => return Err(format!("bad option {k}={v}")),
            };
            if !o.set_limit(k, limit) {
                return Err(format!("unknown urlencoded option {k}"));
            }
        }
    }
    Ok(o)
}

fn urlencoded_parse(req: &Value, input: &[u8], cuts: &[usize]) -> Value {
    let opts = match urlencoded_options(req) {
        Ok(o) => o,
        Err(msg) => return json!({"error": testee_error(&msg)}),
    };
    let pairs = if cuts.is_empty() {
        // Whole input: the buffer API.
        urlencoded::parse_with(input, &opts).map(|v| {
            v.into_iter()
                .map(|(n, v)| json!([n, v]))
                .collect::<Vec<_>>()
        })
    } else {
        stream_urlencoded(opts, input, cuts)
    };
    match pairs {
        Ok(p) => json!({"ok": {"pairs": p}}),
        Err(e) => json!({"error": error_json(&e)}),
    }
}

fn stream_urlencoded(
    opts: urlencoded::Options,
    input: &[u8],
    cuts: &[usize],
) -> Result<Vec<Value>, Error> {
    let mut parser = urlencoded::Parser::new(opts);
    let mut out = Vec::new();
    for chunk in chunks(input, cuts) {
        let mut feed = parser.feed(chunk);
        while let Some(p) = feed.next() {
            let (n, v) = p?;
            out.push(json!([n, v]));
        }
    }
    let mut feed = parser.finish();
    while let Some(p) = feed.next() {
        let (n, v) = p?;
        out.push(json!([n, v]));
    }
    Ok(out)
}

fn urlencoded_serialize(req: &Value) -> Result<Value, String> {
    let pairs = req
        .get("pairs")
        .and_then(Value::as_array)
        .ok_or("missing pairs")?;
    let mut list = Vec::with_capacity(pairs.len());
    for p in pairs {
        let n = p.get(0).and_then(Value::as_str).ok_or("bad pair")?;
        let v = p.get(1).and_then(Value::as_str).ok_or("bad pair")?;
        list.push((n, v));
    }
    Ok(json!({"text": urlencoded::serialize(list)}))
}

/// A limit option of a clone op: absent = the default, `null` = unlimited, else a whole number.
fn clone_limit(options: Option<&Value>, name: &str) -> Result<Option<u64>, Value> {
    match options.and_then(|o| o.get(name)) {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(u64::MAX)),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| testee_error(&format!("bad {name} {v}"))),
    }
}

fn clone_error(e: &v8::Error) -> Value {
    json!({"code": e.code.as_str(), "offset": e.offset, "message": e.to_string()})
}

fn clone_decode_options(o: Option<&Value>) -> Result<v8::DecodeOptions, Value> {
    let mut opts = v8::DecodeOptions::default();
    if let Some(d) = clone_limit(o, "max_depth")? {
        opts.max_depth = u32::try_from(d).unwrap_or(u32::MAX);
    }
    if let Some(b) = clone_limit(o, "max_bytes")? {
        opts.max_bytes = b;
    }
    if let Some(n) = clone_limit(o, "max_values")? {
        opts.max_values = n;
    }
    if let Some(n) = clone_limit(o, "max_bigint_bytes")? {
        opts.max_bigint_bytes = u32::try_from(n).unwrap_or(u32::MAX);
    }
    opts.node_ipc = o
        .and_then(|o| o.get("node_ipc"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok(opts)
}

/// `clone.decode`: the V8 decoder is not a streaming one, so every chunking decodes the whole input.
fn clone_decode(req: &Value, input: &[u8], _cuts: &[usize]) -> String {
    match clone_decode_options(req.get("options")) {
        Err(e) => json!({"error": e}),
        Ok(opts) => match v8::decode_with(input, &opts) {
            Ok(g) => json!({"ok": {"value": formwire_v8_neutral::to_json(&g)}}),
            Err(e) => json!({"error": clone_error(&e)}),
        },
    }
    .to_string()
}

/// `clone.encode`: neutral value description to canonical bytes (hex).
fn clone_encode(req: &Value) -> Result<Value, Value> {
    let mut opts = v8::EncodeOptions::default();
    if let Some(d) = clone_limit(req.get("options"), "max_depth")? {
        opts.max_depth = u32::try_from(d).unwrap_or(u32::MAX);
    }
    let g = formwire_v8_neutral::from_json(req.get("value").unwrap_or(&Value::Null))
        .map_err(|e| clone_error(&e))?;
    let bytes = v8::encode_with(&g, &opts).map_err(|e| clone_error(&e))?;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(json!({"hex": hex}))
}
