//! SC-L-05 `max_values` and SC-L-06 `max_bigint_bytes`: exact boundaries and offsets, and the same
//! result whether the decoder counts values (its fast paths off) or not.

use formwire_v8::{
    BigInt, DecodeOptions, ErrorCode, Graph, Heap, Object, Value, decode, decode_with, encode,
};
use std::collections::HashSet;

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn values(n: u64) -> DecodeOptions {
    DecodeOptions {
        max_values: n,
        ..DecodeOptions::default()
    }
}

fn bigint(n: u32) -> DecodeOptions {
    DecodeOptions {
        max_bigint_bytes: n,
        ..DecodeOptions::default()
    }
}

/// Value positions of a graph, counted independently of the decoder: the root, property values,
/// array items, Map keys and values, Set values, Error causes; a second visit of an object is a
/// back-reference, one value too.
fn positions(g: &Graph) -> u64 {
    let mut seen = HashSet::new();
    let mut todo = vec![g.root.clone()];
    let mut n = 0;
    while let Some(v) = todo.pop() {
        n += 1;
        let Value::Object(id) = v else { continue };
        if !seen.insert(id) {
            continue;
        }
        match g.heap.get(id).unwrap() {
            Object::Plain(p) => todo.extend(g.heap.values(*p).iter().cloned()),
            Object::Array(a) => {
                todo.extend(g.heap.items(a.items).iter().map(|(_, v)| v.clone()));
                todo.extend(g.heap.values(a.props).iter().cloned());
            }
            Object::Map(e) => todo.extend(e.iter().flat_map(|(k, v)| [k.clone(), v.clone()])),
            Object::Set(s) => todo.extend(s.iter().cloned()),
            Object::Error(e) => todo.extend(e.cause.clone()),
            _ => {}
        }
    }
    n
}

#[test]
fn max_values_boundary_and_offset() {
    // [1, 2, 3]: the array and its three elements.
    let b = unhex("ff0f 4103 4902 4904 4906 2400 03");
    assert!(decode_with(&b, &values(4)).is_ok());
    let e = decode_with(&b, &values(3)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitValues, 8));
    let e = decode_with(&b, &values(0)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitValues, 2));
    // A top-level primitive is one value, read by its own fast path.
    assert!(decode_with(&unhex("ff0f 4902"), &values(1)).is_ok());
    let e = decode_with(&unhex("ff0f 4902"), &values(0)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitValues, 2));
    // A back-reference is a value; padding and the hole are not: [o, ^0, <hole>] with padding.
    let b = unhex("ff0f 4103 6f7b00 00 5e01 2d 2400 03");
    assert_eq!(positions(&decode(&b).unwrap()), 3);
    assert!(decode_with(&b, &values(3)).is_ok());
    let e = decode_with(&b, &values(2)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitValues, 8));
}

/// Records, names, nested arrays, Maps, Sets, Errors with causes and shared objects: what the
/// decoder's fast paths read.
fn sample() -> Graph {
    let mut h = Heap::new();
    let shared = h.object([("k", Value::str("v"))]);
    let mut rows = Vec::new();
    for i in 0..40 {
        let tags = h.array([Value::str("a"), Value::Number(f64::from(i)), Value::Null]);
        rows.push(h.object([
            ("id", Value::Number(f64::from(i))),
            ("name", Value::str("n")),
            ("ok", Value::Bool(i % 2 == 0)),
            ("tags", tags),
        ]));
    }
    let flat: Vec<Value> = (0..30)
        .map(|i| h.object([("x", Value::Number(f64::from(i))), ("y", Value::Bool(true))]))
        .collect();
    let names: Vec<Value> = (0..30).map(|_| Value::str("name")).collect();
    let rows = h.array(rows);
    let flat = h.array(flat);
    let names = h.array(names);
    let map = h.add(Object::Map(vec![
        (Value::str("a"), shared.clone()),
        (shared.clone(), Value::Undefined),
    ]));
    let set = h.add(Object::Set(vec![Value::Number(1.0), shared.clone()]));
    let err = h.add(Object::Error(Box::new(formwire_v8::ErrorObject {
        name: formwire_v8::ErrorName::TypeError,
        message: None,
        stack: None,
        cause: Some(shared.clone()),
    })));
    let big = Value::BigInt(BigInt::from_i128(1 << 100));
    let root = h.object([
        ("rows", rows),
        ("flat", flat),
        ("names", names),
        ("map", map),
        ("set", set),
        ("err", err),
        ("big", big),
        ("again", shared),
    ]);
    Graph::new(h, root)
}

#[test]
fn counting_changes_nothing_below_the_limit() {
    let bytes = encode(&sample()).unwrap();
    let fast = decode(&bytes).unwrap();
    let n = positions(&fast);
    assert!(
        n > 300 && (bytes.len() as u64) > n + 2,
        "{n} values in {} bytes",
        bytes.len()
    );
    // max_values = n: the decoder counts (the input could hold more) and accepts.
    let counted = decode_with(&bytes, &values(n)).unwrap();
    assert!(counted.same_as(&fast));
    assert_eq!(counted.root, fast.root);
    // One fewer: refused at the tag of the last value, the last byte but the end tags'.
    let e = decode_with(&bytes, &values(n - 1)).unwrap_err();
    assert_eq!(e.code, ErrorCode::LimitValues);
    assert!(e.offset > 2 && (e.offset as usize) < bytes.len());
    // Every smaller limit is refused at an earlier (or the same) tag.
    let mut last = e.offset;
    for k in (0..n - 1).rev().step_by(7) {
        let e = decode_with(&bytes, &values(k)).unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitValues, "max_values {k}");
        assert!(
            e.offset <= last,
            "max_values {k}: {} after {last}",
            e.offset
        );
        last = e.offset;
    }
}

#[test]
fn max_bigint_bytes_boundary_and_offset() {
    // 2n**64n: 16 digit bytes as V8 writes them; `[1, Object(2n**64n)]` for the wrapper.
    let digits = "0000000000000000 0100000000000000";
    let b = unhex(&format!("ff0f 5a20 {digits}"));
    assert!(decode_with(&b, &bigint(16)).is_ok());
    let e = decode_with(&b, &bigint(15)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitBigint, 2));
    let w = unhex(&format!("ff0f 4102 4902 7a20 {digits} 2400 02"));
    assert!(decode_with(&w, &bigint(16)).is_ok());
    let e = decode_with(&w, &bigint(8)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitBigint, 6));
    // Checked before the digits are read: a declared length past the input is still the limit.
    let e = decode_with(&unhex("ff0f 5a20 00"), &bigint(8)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitBigint, 2));
    // The default, 1 MiB, exactly.
    let mib = 1usize << 20;
    for (len, ok) in [(mib, true), (mib + 8, false)] {
        let mut b = vec![0xFF, 0x0F, b'Z'];
        let mut bitfield = (len as u32) << 1;
        while bitfield >= 0x80 {
            b.push((bitfield as u8) | 0x80);
            bitfield >>= 7;
        }
        b.push(bitfield as u8);
        b.resize(b.len() + len, 0x11);
        let r = decode(&b);
        if ok {
            assert!(r.is_ok(), "{len}");
        } else {
            let e = r.unwrap_err();
            assert_eq!((e.code, e.offset), (ErrorCode::LimitBigint, 2));
        }
    }
}

#[test]
fn defaults() {
    let d = DecodeOptions::default();
    assert_eq!((d.max_values, d.max_bigint_bytes), (10_000_000, 1 << 20));
}
