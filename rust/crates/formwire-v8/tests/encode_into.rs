//! `encode_into` appends exactly what `encode` returns, whatever the buffer already holds: UTF-16
//! alignment padding (SC-E-05) counts from where the encoding starts, an error leaves the buffer as
//! it was and its offset counts from the start of the encoding.

mod common;

use common::Gen;
use formwire_v8::{
    EncodeOptions, ErrorCode, Graph, Heap, JsString, Value, encode, encode_into, encode_value_into,
    encode_with,
};

#[test]
fn appends_what_encode_returns() {
    let mut out = Vec::new();
    for seed in 0..300 {
        let g = if seed % 2 == 0 {
            Gen::graph(seed)
        } else {
            common::shapey_graph(seed)
        };
        let want = encode(&g).unwrap();
        // An odd-length prefix moves every two-byte string's parity in the buffer.
        let prefix: Vec<u8> = (0..(seed % 5) as u8).collect();
        out.clear();
        out.extend_from_slice(&prefix);
        encode_into(&g, &mut out).unwrap();
        assert_eq!(
            &out[..prefix.len()],
            &prefix[..],
            "seed {seed}: prefix changed"
        );
        assert_eq!(&out[prefix.len()..], &want[..], "seed {seed}: bytes differ");
    }
}

#[test]
fn two_byte_padding_counts_from_the_start_of_the_encoding() {
    // "€" needs `c`; in a one-property object V8 pads it (SC-E-05) depending on its offset.
    let mut heap = Heap::new();
    let root = heap.object([("k", Value::str("€x"))]);
    let g = Graph::new(heap, root);
    let want = encode(&g).unwrap();
    for n in 0..4 {
        let mut out = vec![0xAA; n];
        encode_into(&g, &mut out).unwrap();
        assert_eq!(&out[n..], &want[..], "prefix of {n} bytes");
    }
    // A primitive root (the fast path without a walk) too.
    let s = Graph::primitive(Value::String(JsString::from_utf16(vec![0x20AC, 0xD800])));
    let want = encode(&s).unwrap();
    assert_eq!(
        &want[2..4],
        b"c\x04",
        "no padding: the payload starts at offset 4"
    );
    for n in 0..4 {
        let mut out = vec![0x55; n];
        encode_into(&s, &mut out).unwrap();
        assert_eq!(&out[n..], &want[..], "prefix of {n} bytes");
    }
}

#[test]
fn primitive_roots_match_the_general_walk() {
    let long = JsString::from_latin1(vec![b'q'; 70_000]);
    for v in [
        Value::Undefined,
        Value::Null,
        Value::Bool(true),
        Value::Bool(false),
        Value::Number(0.0),
        Value::Number(-0.0),
        Value::Number(f64::NAN),
        Value::Number(-1.5),
        Value::Number(2147483648.0),
        Value::Number(-2147483648.0),
        Value::str(""),
        Value::str("hello world"),
        Value::str("héllo"),
        Value::str("h€llo"),
        Value::String(long),
    ] {
        let g = Graph::primitive(v.clone());
        let bytes = encode(&g).unwrap();
        // The same value inside an array is written by the general walk: its element bytes are the
        // primitive's encoding.
        let mut heap = Heap::new();
        let root = heap.array([v.clone()]);
        let arr = encode(&Graph::new(heap, root)).unwrap();
        let n = bytes.len() - 2;
        assert_eq!(&arr[4..4 + n], &bytes[2..], "{v:?}");
        let back = formwire_v8::decode(&bytes).unwrap();
        assert!(back.same_as(&g), "{v:?}");
    }
}

#[test]
fn an_error_leaves_the_buffer_as_it_was() {
    // Nesting deeper than max_depth fails in the middle of the walk.
    let mut heap = Heap::new();
    let mut v = Value::Null;
    for _ in 0..6 {
        v = heap.array([v]);
    }
    let g = Graph::new(heap, v);
    let opts = EncodeOptions { max_depth: 4 };
    let alone = encode_with(&g, &opts).unwrap_err();
    assert_eq!(alone.code, ErrorCode::LimitDepth);
    let mut out = b"keep".to_vec();
    let e = encode_value_into(&g.heap, &g.root, &opts, &mut out).unwrap_err();
    assert_eq!(out, b"keep");
    assert_eq!((e.code, e.offset), (alone.code, alone.offset));
    // The buffer is usable afterwards.
    encode_into(&Graph::primitive(Value::Null), &mut out).unwrap();
    assert_eq!(out, b"keep\xff\x0f0");
}
