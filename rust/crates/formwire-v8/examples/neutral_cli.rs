//! A line tool for differential testing against other codecs (e.g. Node's V8 or a JS reference).
//!
//! Reads JSON lines from stdin and answers each with one JSON line:
//! `{"op": "decode", "hex": "ff0f...", "options": {...}}` -> `{"value": <neutral>}` or `{"error": {"code", "offset"}}`
//! (`decode` with memory of its own and `decode_borrowed` of one `Decoder` kept for every line both run; where they
//! disagree the answer is the error `BORROWED_MISMATCH`);
//! `{"op": "encode", "value": <neutral>}` -> `{"hex": "..."}` or `{"error": {"code"}}`.
use formwire_v8::{DecodeOptions, Decoder, decode_with, encode};
use formwire_v8_neutral as neutral;
use serde_json::{Value as Json, json};
use std::io::{BufRead, Write};

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    // Its kept memory comes from every earlier line: differential runs check reuse too.
    let mut decoder = Decoder::new();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let req: Json = match serde_json::from_str(&line) {
            Ok(j) => j,
            Err(e) => {
                let _ = writeln!(out, "{}", json!({"bad_request": e.to_string()}));
                continue;
            }
        };
        let resp = match req["op"].as_str() {
            Some("decode") => {
                let bytes = unhex(req["hex"].as_str().unwrap_or("")).unwrap_or_default();
                let mut opts = DecodeOptions::default();
                if let Some(o) = req.get("options") {
                    match o.get("max_depth") {
                        Some(Json::Null) => opts.max_depth = u32::MAX,
                        Some(v) => opts.max_depth = v.as_u64().unwrap_or(1000) as u32,
                        None => {}
                    }
                    match o.get("max_bytes") {
                        Some(Json::Null) => opts.max_bytes = u64::MAX,
                        Some(v) => opts.max_bytes = v.as_u64().unwrap_or(0),
                        None => {}
                    }
                    opts.node_ipc = o.get("node_ipc").and_then(Json::as_bool).unwrap_or(false);
                }
                // Both decoders: the borrowing one must give the same value or the same error
                // (an answer with code `BORROWED_MISMATCH` fails any comparison).
                let owned = decode_with(&bytes, &opts);
                decoder.set_options(opts);
                let borrowed = decoder.decode_borrowed(&bytes);
                let agree = match (&owned, &borrowed) {
                    (Ok(g), Ok(b)) => b.to_graph().same_as(g),
                    (Err(e), Err(b)) => (e.code, e.offset) == (b.code, b.offset),
                    _ => false,
                };
                let mismatch = match borrowed {
                    Ok(b) => {
                        decoder.recycle(b);
                        None
                    }
                    Err(e) => Some(e),
                };
                match owned {
                    _ if !agree => json!({"error": {"code": "BORROWED_MISMATCH", "offset": 0,
                        "message": format!("decode_borrowed: {mismatch:?}")}}),
                    Ok(g) => json!({"value": neutral::to_json(&g)}),
                    Err(e) => {
                        json!({"error": {"code": e.code.as_str(), "offset": e.offset, "message": e.message()}})
                    }
                }
            }
            Some("encode") => match neutral::from_json(&req["value"]).and_then(|g| encode(&g)) {
                Ok(b) => json!({"hex": hex(&b)}),
                Err(e) => json!({"error": {"code": e.code.as_str(), "message": e.message()}}),
            },
            _ => json!({"bad_request": "unknown op"}),
        };
        let _ = writeln!(out, "{resp}");
        let _ = out.flush();
    }
}
