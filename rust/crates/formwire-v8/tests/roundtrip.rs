//! Property tests: random value graphs (cycles, shared references, holes, sparse arrays, lone
//! surrogates, -0, NaN, BigInts, every view kind, errors with causes) survive encode -> decode, and
//! the canonical encoding is a fixed point.

mod common;

use common::Gen;
use formwire_v8::{Graph, decode, encode};
use formwire_v8_neutral as neutral;

const CASES: u64 = 3000;

/// Counts what the generator produced, so the property tests provably cover every kind.
fn tally(g: &Graph, seen: &mut std::collections::BTreeSet<&'static str>) {
    use formwire_v8::{Object, Value};
    let mut prims = vec![g.root.clone()];
    for (_, o) in g.heap.iter() {
        seen.insert(o.kind_name());
        match o {
            Object::Array(a) if !a.is_dense() => {
                seen.insert("holey array");
            }
            Object::View(v) if v.length_tracking => {
                seen.insert("length-tracking view");
            }
            Object::Error(e) if e.cause.is_some() => {
                seen.insert("error cause");
            }
            _ => {}
        }
        if let Object::Plain(p) = o {
            prims.extend(g.heap.values(*p).iter().cloned());
        }
        if let Object::Array(a) = o {
            prims.extend(g.heap.items(a.items).iter().map(|(_, v)| v.clone()));
        }
    }
    for v in prims {
        match v {
            Value::Number(n) if n.is_nan() => {
                seen.insert("NaN");
            }
            Value::Number(n) if n == 0.0 && n.is_sign_negative() => {
                seen.insert("-0");
            }
            Value::String(s) if !s.is_well_formed() => {
                seen.insert("lone surrogate");
            }
            Value::BigInt(_) => {
                seen.insert("bigint");
            }
            _ => {}
        }
    }
}

#[test]
fn encode_then_decode_is_identity() {
    let mut seen = std::collections::BTreeSet::new();
    let mut cyclic = 0;
    for seed in 0..CASES {
        let g = Gen::graph(seed);
        tally(&g, &mut seen);
        if serde_json::to_string(&neutral::to_json(&g))
            .unwrap()
            .contains("\"ref\"")
        {
            cyclic += 1;
        }
        let bytes = encode(&g).unwrap_or_else(|e| panic!("seed {seed}: encode failed: {e}\n{g:?}"));
        let back =
            decode(&bytes).unwrap_or_else(|e| panic!("seed {seed}: decode failed: {e}\n{g:?}"));
        assert!(
            back.same_as(&g),
            "seed {seed}: decode(encode(g)) differs\n{g:?}\n{back:?}"
        );
        let again = encode(&back).unwrap();
        assert_eq!(
            again, bytes,
            "seed {seed}: canonical encoding is not a fixed point"
        );
    }
    for kind in [
        "object",
        "array",
        "date",
        "regexp",
        "map",
        "set",
        "boolean-object",
        "number-object",
        "bigint-object",
        "string-object",
        "arraybuffer",
        "view",
        "error",
        "holey array",
        "length-tracking view",
        "error cause",
        "NaN",
        "-0",
        "lone surrogate",
        "bigint",
    ] {
        assert!(
            seen.contains(kind),
            "generator never produced {kind}: {seen:?}"
        );
    }
    assert!(
        cyclic > 100,
        "only {cyclic} graphs with shared references or cycles"
    );
}

#[test]
fn repeated_shapes_round_trip() {
    // Same-shape objects take the decoder's shape cache and frame-less path; nested ones move
    // property values between the arena and the scratch stack. Every layout must come back intact.
    for seed in 0..CASES {
        let g = common::shapey_graph(seed);
        let bytes = encode(&g).unwrap_or_else(|e| panic!("seed {seed}: encode failed: {e}\n{g:?}"));
        let back =
            decode(&bytes).unwrap_or_else(|e| panic!("seed {seed}: decode failed: {e}\n{g:?}"));
        assert!(
            back.same_as(&g),
            "seed {seed}: decode(encode(g)) differs\n{g:?}\n{back:?}"
        );
        assert_eq!(
            encode(&back).unwrap(),
            bytes,
            "seed {seed}: not a fixed point"
        );
    }
}

#[test]
fn neutral_description_round_trips() {
    for seed in 0..CASES {
        let g = Gen::graph(seed);
        let j = neutral::to_json(&g);
        let text = serde_json::to_string(&j).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        let back =
            neutral::from_json(&parsed).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert!(
            back.same_as(&g),
            "seed {seed}: from_json(to_json(g)) differs\n{text}"
        );
        assert_eq!(neutral::to_json(&back), j, "seed {seed}");
    }
}

#[test]
fn same_as_detects_differences() {
    let mut differing = 0;
    for seed in 0..200u64 {
        let a = Gen::graph(seed);
        let b = Gen::graph(seed + 10_000);
        if encode(&a).unwrap() != encode(&b).unwrap() {
            assert!(!a.same_as(&b), "seeds {seed}: different bytes but same_as");
            differing += 1;
        }
    }
    assert!(differing > 150);
    // Identity matters: [x, x] is not [x, y] even when x and y look alike.
    let mut h = formwire_v8::Heap::new();
    let x = h.object([]);
    let shared = h.array([x.clone(), x]);
    let g1 = Graph::new(h, shared);
    let mut h = formwire_v8::Heap::new();
    let x = h.object([]);
    let y = h.object([]);
    let two = h.array([x, y]);
    let g2 = Graph::new(h, two);
    assert!(!g1.same_as(&g2));
    assert_ne!(encode(&g1).unwrap(), encode(&g2).unwrap());
}

#[test]
fn deep_values_through_every_layer() {
    // serde_json::Value drops (and compares) its nesting recursively: a 2000-level description is
    // 8000 JSON levels, too many for a 2 MiB test thread in a debug build. formwire-v8's own layers
    // (decode, encode, to_json, from_json, same_as) use explicit stacks.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(deep_values_body)
        .unwrap()
        .join()
        .unwrap();
}

fn deep_values_body() {
    use formwire_v8::{DecodeOptions, decode_with};
    // 1000 nested arrays: the default max_depth, decoded, described, rebuilt and encoded again.
    let mut h = String::from("ff0f");
    h.push_str(&"4101".repeat(1000));
    h.push_str("5f");
    h.push_str(&"240001".repeat(1000));
    let bytes: Vec<u8> = (0..h.len() / 2)
        .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let g = decode(&bytes).unwrap();
    let j = neutral::to_json(&g);
    let back = neutral::from_json(&j).unwrap();
    assert!(back.same_as(&g));
    assert_eq!(encode(&back).unwrap(), bytes);
    // Deeper than the default limit, with no limit: the describer and builder never recurse either.
    let mut h = String::from("ff0f");
    h.push_str(&"4101".repeat(2000));
    h.push_str("5f");
    h.push_str(&"240001".repeat(2000));
    let bytes: Vec<u8> = (0..h.len() / 2)
        .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    assert_eq!(
        decode(&bytes).unwrap_err().code,
        formwire_v8::ErrorCode::LimitDepth
    );
    let g = decode_with(
        &bytes,
        &DecodeOptions {
            max_depth: u32::MAX,
            ..DecodeOptions::default()
        },
    )
    .unwrap();
    let back = neutral::from_json(&neutral::to_json(&g)).unwrap();
    assert!(back.same_as(&g));
    let unlimited = formwire_v8::EncodeOptions {
        max_depth: u32::MAX,
    };
    assert_eq!(formwire_v8::encode_with(&back, &unlimited).unwrap(), bytes);
}
