//! The shared clone vectors (`vectors/clone/`), read straight from the repository and checked the way the
//! conformance runner checks them: decode cases by neutral description or error code and offset, encode
//! cases by exact bytes (and the expected bytes decode back to the input).

use formwire_v8::{
    DecodeOptions, EncodeOptions, Graph, decode, decode_borrowed, decode_borrowed_with,
    decode_with, encode_with,
};
use formwire_v8_neutral as neutral;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../vectors/clone")
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Expands an `input.generate` recipe (vectors/SCHEMA.md § Generated inputs).
fn generate(pieces: &[Json], out: &mut Vec<u8>) {
    for p in pieces {
        if let Some(t) = p.get("text").and_then(Json::as_str) {
            out.extend_from_slice(t.as_bytes());
        } else if let Some(h) = p.get("hex").and_then(Json::as_str) {
            out.extend(unhex(h));
        } else if let Some(inner) = p.get("repeat").and_then(Json::as_array) {
            for _ in 0..p["count"].as_u64().expect("count") {
                generate(inner, out);
            }
        } else if let Some(n) = p.get("random").and_then(Json::as_u64) {
            let mut state = p["seed"].as_u64().expect("seed");
            let mut left = n as usize;
            while left > 0 {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                let take = left.min(8);
                out.extend_from_slice(&z.to_le_bytes()[..take]);
                left -= take;
            }
        } else {
            panic!("unknown generate piece {p}");
        }
    }
}

fn input_bytes(case: &Json, dir: &Path) -> Vec<u8> {
    let input = &case["input"];
    if let Some(h) = input.get("hex").and_then(Json::as_str) {
        return unhex(h);
    }
    if let Some(f) = input.get("file").and_then(Json::as_str) {
        return std::fs::read(dir.join(f)).expect("input file");
    }
    if let Some(g) = input.get("generate").and_then(Json::as_array) {
        let mut out = Vec::new();
        generate(g, &mut out);
        return out;
    }
    panic!("case {} has no byte input", case["id"]);
}

fn decode_options(case: &Json) -> DecodeOptions {
    let mut o = DecodeOptions::default();
    if let Some(opts) = case.get("options") {
        match opts.get("max_depth") {
            Some(Json::Null) => o.max_depth = u32::MAX,
            Some(v) => o.max_depth = v.as_u64().expect("max_depth") as u32,
            None => {}
        }
        match opts.get("max_bytes") {
            Some(Json::Null) => o.max_bytes = u64::MAX,
            Some(v) => o.max_bytes = v.as_u64().expect("max_bytes"),
            None => {}
        }
        match opts.get("max_values") {
            Some(Json::Null) => o.max_values = u64::MAX,
            Some(v) => o.max_values = v.as_u64().expect("max_values"),
            None => {}
        }
        match opts.get("max_bigint_bytes") {
            Some(Json::Null) => o.max_bigint_bytes = u32::MAX,
            Some(v) => o.max_bigint_bytes = v.as_u64().expect("max_bigint_bytes") as u32,
            None => {}
        }
        o.node_ipc = opts
            .get("node_ipc")
            .and_then(Json::as_bool)
            .unwrap_or(false);
    }
    o
}

/// Neutral descriptions compare as JSON, with numbers by value (SC-N-04: 1 equals 1.0).
fn same_json(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// A decode result against the case's expectation.
fn check_decoded(case: &Json, got: Result<Graph, formwire_v8::Error>) -> Result<(), String> {
    let expect = &case["expect"];
    match (got, expect.get("error")) {
        (Ok(g), None) => {
            let desc = neutral::to_json(&g);
            if same_json(&desc, &expect["value"]) {
                Ok(())
            } else {
                Err(format!(
                    "value differs\n  want {}\n  got  {}",
                    expect["value"], desc
                ))
            }
        }
        (Ok(g), Some(e)) => Err(format!("accepted, want {e}; got {}", neutral::to_json(&g))),
        (Err(err), None) => Err(format!("rejected with {err}")),
        (Err(err), Some(e)) => {
            if e["code"].as_str() == Some(err.code.as_str())
                && e["offset"].as_u64() == Some(err.offset)
            {
                Ok(())
            } else {
                Err(format!(
                    "want {e}, got {} at {}",
                    err.code.as_str(),
                    err.offset
                ))
            }
        }
    }
}

/// Runs one case; `Err` holds what differed.
fn run_case(case: &Json, dir: &Path) -> Result<(), String> {
    match case["kind"].as_str() {
        Some("clone-decode") => {
            let bytes = input_bytes(case, dir);
            let opts = decode_options(case);
            // Both decoders, checked against the same expectation: the owned one, and the one
            // that borrows from the input (as the owned graph it converts to).
            check_decoded(case, decode_with(&bytes, &opts))?;
            check_decoded(
                case,
                decode_borrowed_with(&bytes, &opts).map(|g| g.to_graph()),
            )
            .map_err(|e| format!("decode_borrowed: {e}"))
        }
        Some("clone-encode") => {
            let value = &case["input"]["value"];
            let mut opts = EncodeOptions::default();
            match case.get("options").and_then(|o| o.get("max_depth")) {
                Some(Json::Null) => opts.max_depth = u32::MAX,
                Some(v) => opts.max_depth = v.as_u64().expect("max_depth") as u32,
                None => {}
            }
            let got = neutral::from_json(value).and_then(|g| encode_with(&g, &opts));
            let expect = &case["expect"];
            match (got, expect.get("hex").and_then(Json::as_str)) {
                (Ok(b), Some(h)) => {
                    if hex(&b) != h {
                        return Err(format!("bytes differ\n  want {h}\n  got  {}", hex(&b)));
                    }
                    // The expected bytes decode back to the input, with both decoders.
                    let back = decode(&unhex(h))
                        .map_err(|e| format!("expected bytes do not decode: {e}"))?;
                    let bytes = unhex(h);
                    let borrowed = decode_borrowed(&bytes)
                        .map_err(|e| format!("expected bytes do not decode_borrowed: {e}"))?;
                    for (which, back) in
                        [("decode", back), ("decode_borrowed", borrowed.to_graph())]
                    {
                        if !same_json(&neutral::to_json(&back), value) {
                            return Err(format!(
                                "{which}: decoded back differently: {}",
                                neutral::to_json(&back)
                            ));
                        }
                    }
                    Ok(())
                }
                (Ok(b), None) => Err(format!("encoded {}, want {}", hex(&b), expect)),
                (Err(e), Some(_)) => Err(format!("encode failed: {e}")),
                (Err(e), None) => {
                    if expect["error"]["code"].as_str() == Some(e.code.as_str()) {
                        Ok(())
                    } else {
                        Err(format!("want {}, got {}", expect["error"], e.code.as_str()))
                    }
                }
            }
        }
        other => Err(format!("unknown kind {other:?}")),
    }
}

#[test]
fn shared_clone_vectors() {
    let root = vectors_dir();
    if !root.is_dir() {
        // The vectors live in the repository; a crate copied out of it has none to run.
        eprintln!(
            "vectors/clone not found at {}: nothing to check",
            root.display()
        );
        return;
    }
    let mut passed = Vec::new();
    let mut failed = Vec::new();
    for verdict in ["accept", "reject", "lenient"] {
        let dir = root.join(verdict);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).expect("case file");
            let case: Json = serde_json::from_str(&text).expect("case JSON");
            let id = case["id"].as_str().unwrap_or("?").to_string();
            match run_case(&case, &dir) {
                Ok(()) => passed.push(id),
                Err(why) => failed.push(format!("{id}: {why}")),
            }
        }
    }
    eprintln!(
        "clone vectors: {} passed, {} failed",
        passed.len(),
        failed.len()
    );
    for f in &failed {
        eprintln!("FAIL {f}");
    }
    assert!(!passed.is_empty(), "no clone vector ran");
    assert!(
        failed.is_empty(),
        "{} clone vectors failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
