//! The Rust conformance testee (`conformance/PROTOCOL.md`): JSON lines on
//! stdin, one response line per request on stdout. No test logic: each op
//! decodes the request, calls formwire's public API, and encodes the result.

use std::io::{self, BufRead, Write};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use formwire::multipart::{self, Encoder, Event};
use formwire::{Error, urlencoded};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

const OPS: &[&str] = &["multipart.parse", "multipart.serialize", "urlencoded.parse", "urlencoded.serialize"];

/// Bodies up to this size are echoed as `body_b64` (for the runner's diffs).
const ECHO_LIMIT: usize = 64 * 1024;

fn main() {
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let response = match serde_json::from_str::<Value>(&line) {
            Ok(req) => {
                let mut resp = handle(&req);
                resp.insert("id".into(), req.get("id").cloned().unwrap_or(Value::Null));
                Value::Object(resp)
            }
            Err(e) => json!({"id": null, "error": testee_error(&format!("bad request line: {e}"))}),
        };
        let _ = writeln!(stdout, "{response}");
        let _ = stdout.flush();
    }
}

fn handle(req: &Value) -> Map<String, Value> {
    let op = req.get("op").and_then(Value::as_str).unwrap_or("");
    // Encoding ops: `Err` is the error object of the response.
    let r: Result<Value, Value> = match op {
        "hello" => Ok(json!({"lang": "rust", "version": env!("CARGO_PKG_VERSION"), "ops": OPS})),
        "multipart.parse" => return results(req, multipart_parse),
        "urlencoded.parse" => return results(req, urlencoded_parse),
        "multipart.serialize" => multipart_serialize(req),
        "urlencoded.serialize" => urlencoded_serialize(req).map_err(|m| testee_error(&m)),
        _ => Err(testee_error(&format!("unknown op {op:?}"))),
    };
    let mut m = Map::new();
    match r {
        Ok(v) => m.insert("ok".into(), v),
        Err(e) => m.insert("error".into(), e),
    };
    m
}

/// An error of the testee itself (not a formwire error code).
fn testee_error(msg: &str) -> Value {
    json!({"code": "TESTEE", "offset": 0, "message": msg})
}

fn error_json(e: &Error) -> Value {
    json!({"code": e.code.as_str(), "offset": e.offset, "message": e.to_string()})
}

/// Runs a parse op once per chunking: `{"results": [...]}`.
fn results(req: &Value, parse: fn(&Value, &[u8], &[usize]) -> Value) -> Map<String, Value> {
    let mut m = Map::new();
    let input = match req.get("input_b64").and_then(Value::as_str).map(|s| B64.decode(s)) {
        Some(Ok(b)) => b,
        _ => {
            m.insert("error".into(), testee_error("missing or bad input_b64"));
            return m;
        }
    };
    let empty = vec![Value::Array(vec![])];
    let chunkings = req.get("chunkings").and_then(Value::as_array).unwrap_or(&empty);
    let out = chunkings
        .iter()
        .map(|c| match cuts(c, input.len()) {
            Ok(cuts) => parse(req, &input, &cuts),
            Err(msg) => json!({"error": testee_error(&msg)}),
        })
        .collect();
    m.insert("results".into(), Value::Array(out));
    m
}

/// A chunking as cut offsets: `[]` whole, `"bytes"` every byte, or offsets.
fn cuts(c: &Value, len: usize) -> Result<Vec<usize>, String> {
    match c {
        Value::String(s) if s == "bytes" => Ok((1..len).collect()),
        Value::Array(a) => a
            .iter()
            .map(|v| v.as_u64().map(|n| n as usize).ok_or_else(|| format!("bad cut {v}")))
            .collect(),
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

/// One part being collected.
struct Collect {
    json: Map<String, Value>,
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

    fn finish(mut self) -> Value {
        let digest = self.hash.finalize();
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        self.json.insert("size".into(), json!(self.size));
        self.json.insert("sha256".into(), json!(hex));
        if let Some(e) = self.echo {
            self.json.insert("body_b64".into(), json!(B64.encode(e)));
        }
        Value::Object(self.json)
    }
}

fn lossy(b: Option<&[u8]>) -> Value {
    b.map_or(Value::Null, |b| Value::String(String::from_utf8_lossy(b).into_owned()))
}

fn start_part(part: &multipart::Part<'_>) -> Collect {
    let mut j = Map::new();
    j.insert("name".into(), json!(part.name()));
    j.insert("filename".into(), json!(part.filename()));
    j.insert("name_star".into(), lossy(part.name_star()));
    j.insert("filename_star".into(), lossy(part.filename_star()));
    j.insert("content_type".into(), lossy(part.content_type()));
    j.insert("type".into(), if part.is_file() { json!(part.mime_type()) } else { Value::Null });
    let headers: Vec<Value> = part.headers().map(|h| json!([h.name(), h.value_str()])).collect();
    j.insert("headers".into(), Value::Array(headers));
    Collect { json: j, size: 0, hash: Sha256::new(), echo: Some(Vec::new()) }
}

fn multipart_parse(req: &Value, input: &[u8], cuts: &[usize]) -> Value {
    let opts = match multipart_options(req) {
        Ok(o) => o,
        Err(msg) => return json!({"error": testee_error(&msg)}),
    };
    let ct = req.get("content_type").and_then(Value::as_str).unwrap_or("");
    match run_multipart(ct, opts, input, cuts) {
        Ok(parts) => json!({"ok": {"parts": parts}}),
        Err(e) => json!({"error": error_json(&e)}),
    }
}

fn run_multipart(ct: &str, opts: multipart::Options, input: &[u8], cuts: &[usize]) -> Result<Vec<Value>, Error> {
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
    v.get(k).and_then(Value::as_str).ok_or_else(|| format!("missing string {k:?}"))
}

fn multipart_serialize(req: &Value) -> Result<Value, Value> {
    let t = |m: String| testee_error(&m);
    let entries = req.get("entries").and_then(Value::as_array).ok_or_else(|| t("missing entries".into()))?;
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
            enc.file(name, filename, str_field(f, "type").map_err(t)?, body).map(|_| ())
        } else if let Some(b) = e.get("blob") {
            enc.blob(name, str_field(b, "type").map_err(t)?, body).map(|_| ())
        } else {
            enc.text(name, str_field(e, "value").map_err(t)?);
            Ok(())
        };
        r.map_err(|e| error_json(&e))?;
    }
    let content_type = enc.content_type();
    // PROTOCOL.md: the length is known before the body is produced.
    let content_length = enc.content_length().ok_or_else(|| t("content length unknown".into()))?;
    let body = enc.encode_to_vec().map_err(|e| t(e.to_string()))?;
    Ok(json!({"content_type": content_type, "content_length": content_length, "body_b64": B64.encode(body)}))
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
        urlencoded::parse_with(input, &opts)
            .map(|v| v.into_iter().map(|(n, v)| json!([n, v])).collect::<Vec<_>>())
    } else {
        stream_urlencoded(opts, input, cuts)
    };
    match pairs {
        Ok(p) => json!({"ok": {"pairs": p}}),
        Err(e) => json!({"error": error_json(&e)}),
    }
}

fn stream_urlencoded(opts: urlencoded::Options, input: &[u8], cuts: &[usize]) -> Result<Vec<Value>, Error> {
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
    let pairs = req.get("pairs").and_then(Value::as_array).ok_or("missing pairs")?;
    let mut list = Vec::with_capacity(pairs.len());
    for p in pairs {
        let n = p.get(0).and_then(Value::as_str).ok_or("bad pair")?;
        let v = p.get(1).and_then(Value::as_str).ok_or("bad pair")?;
        list.push((n, v));
    }
    Ok(json!({"text": urlencoded::serialize(list)}))
}
