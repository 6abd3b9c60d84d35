//! The borrowing decoder (the one wire reader; `decode` is it plus `to_graph`): the encoded values
//! (ids, identity, holes, strings in every wire encoding), read through the borrowed accessors; its
//! errors are checked against the vectors in `vectors.rs`, and a second run on the same thread (with
//! the caches the first left) must give the same answer (`agree`, `fuzz.rs`).

mod common;

use common::Gen;
use formwire_v8::{
    DecodeOptions, ErrorCode, ErrorName, Graph, Heap, JsString, ObjId, Object, ObjectRef, Str,
    Value, ValueRef, decode, decode_borrowed, decode_borrowed_with, encode,
};

fn unhex(h: &str) -> Vec<u8> {
    let h: String = h.split_whitespace().collect();
    (0..h.len() / 2)
        .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn generated_graphs_decode_to_the_same_value() {
    for seed in 0..2000 {
        let g = if seed % 2 == 0 {
            Gen::graph(seed)
        } else {
            common::shapey_graph(seed)
        };
        let bytes = encode(&g).unwrap();
        let b = decode_borrowed(&bytes)
            .unwrap_or_else(|e| panic!("seed {seed}: decode_borrowed failed: {e}"));
        let owned = b.to_graph();
        assert!(owned.same_as(&g), "seed {seed}: differs\n{g:?}\n{owned:?}");
        // Same ids as the owned decoder, object for object.
        let d = decode(&bytes).unwrap();
        assert_eq!(b.len(), d.heap.len(), "seed {seed}");
        for (id, o) in d.heap.iter() {
            let kind = match b.object(id).unwrap() {
                ObjectRef::Plain(_) => "object",
                ObjectRef::Array(_) => "array",
                ObjectRef::Date(_) => "date",
                ObjectRef::RegExp { .. } => "regexp",
                ObjectRef::Map(_) => "map",
                ObjectRef::Set(_) => "set",
                ObjectRef::BooleanObject(_) => "boolean-object",
                ObjectRef::NumberObject(_) => "number-object",
                ObjectRef::BigIntObject(_) => "bigint-object",
                ObjectRef::StringObject(_) => "string-object",
                ObjectRef::ArrayBuffer { .. } => "arraybuffer",
                ObjectRef::View(_) => "view",
                ObjectRef::Error(_) => "error",
            };
            assert_eq!(kind, o.kind_name(), "seed {seed}, object {id:?}");
        }
        assert_eq!(encode(&owned).unwrap(), bytes, "seed {seed}: not canonical");
    }
}

#[test]
fn flat_objects_read_through_the_accessors() {
    // The W6b shape: an array of same-shape objects (shape cache, frame-less objects).
    let mut heap = Heap::new();
    let items: Vec<Value> = (0..100)
        .map(|i| {
            heap.object([
                ("name", Value::str(&format!("user-{i:04}"))),
                ("age", Value::Number(f64::from(18 + i % 60))),
                ("active", Value::Bool(i % 3 == 0)),
            ])
        })
        .collect();
    let root = heap.array(items);
    let bytes = encode(&Graph::new(heap, root)).unwrap();
    let g = decode_borrowed(&bytes).unwrap();
    assert_eq!(g.input().as_ptr(), bytes.as_ptr());
    let ValueRef::Object(id) = g.root() else {
        panic!()
    };
    let Some(ObjectRef::Array(arr)) = g.object(id) else {
        panic!()
    };
    assert_eq!(
        (arr.length, arr.present(), arr.is_dense()),
        (100, 100, true)
    );
    let mut shapes = std::collections::BTreeSet::new();
    for (i, v) in g.elements(&arr) {
        let Some(ObjectRef::Plain(p)) = g.get(&v) else {
            panic!()
        };
        shapes.insert(p.keys);
        let keys: Vec<String> = g.keys(p).map(|k| k.to_string()).collect();
        assert_eq!(keys, ["name", "age", "active"]);
        let Some(ValueRef::String(name)) = g.prop(p, "name") else {
            panic!()
        };
        // Borrowed: the bytes are the input's.
        let latin1 = name.as_latin1().unwrap();
        let at = latin1.as_ptr() as usize - bytes.as_ptr() as usize;
        assert_eq!(&bytes[at..at + 9], latin1);
        assert_eq!(name.to_string_lossy(), format!("user-{i:04}"));
        assert_eq!(
            g.prop(p, "age"),
            Some(ValueRef::Number(f64::from(18 + i % 60)))
        );
        assert_eq!(g.prop(p, "active"), Some(ValueRef::Bool(i % 3 == 0)));
        assert_eq!(g.prop(p, "nope"), None);
    }
    // Objects of one shape share one key list.
    assert_eq!(shapes.len(), 1);
    assert_eq!(
        g.element(&arr, 7).and_then(|v| v.as_object()),
        Some(ObjId(8))
    );
    assert_eq!(g.element(&arr, 100), None);
}

#[test]
fn strings_in_every_encoding() {
    // ["hé" as `"`, "h€" as `c`, lone surrogate as `c`, "é€" as v13 `S`, ASCII `S`]
    let bytes =
        unhex("ff0d 4105 2202 68e9 6304 6800 ac20 6302 00d8 5305 c3a9 e282 ac53 0261 62 2400 05");
    let g = decode_borrowed(&bytes).unwrap();
    let ValueRef::Object(id) = g.root() else {
        panic!()
    };
    let Some(ObjectRef::Array(arr)) = g.object(id) else {
        panic!()
    };
    let s: Vec<Str<'_>> = g
        .elements(&arr)
        .map(|(_, v)| match v {
            ValueRef::String(s) => s,
            _ => panic!("{v:?}"),
        })
        .collect();
    assert!(matches!(s[0], Str::Latin1(b) if b == b"h\xe9"));
    assert!(matches!(s[1], Str::Utf16Le(_)));
    assert!(matches!(s[2], Str::Utf16Le(_)));
    assert!(matches!(s[3], Str::Utf8("é€")));
    assert!(matches!(s[4], Str::Latin1(b"ab")));
    assert_eq!(s[0].to_string_lossy(), "hé");
    assert_eq!(s[1].to_rust_string().unwrap(), "h€");
    assert_eq!(s[2].to_rust_string(), None);
    assert_eq!(s[2].units().collect::<Vec<_>>(), [0xD800]);
    assert_eq!(s[3].len(), 2);
    // Equality by code units across encodings.
    assert_eq!(s[0], Str::Utf16Le(&[0x68, 0, 0xE9, 0]));
    assert_eq!(s[3].to_js_string(), JsString::from("é€"));
    assert!(s[1].eq_str("h€") && !s[1].eq_str("h"));
    assert!(g.to_graph().same_as(&decode(&bytes).unwrap()));
}

#[test]
fn holes_sparse_arrays_and_number_keys() {
    // [1, <hole>, 3] with a.x = 1 and a[7] = 8 (V8: `A 03 I02 - I06 "01 78 I02 I0e I10 $ 02 03`).
    let bytes = unhex("ff0f 4103 4902 2d 4906 2201 78 4902 490e 4910 2402 03");
    let g = decode_borrowed(&bytes).unwrap();
    let Some(ObjectRef::Array(a)) = g.get(&g.root()) else {
        panic!()
    };
    assert_eq!(a.length, 8);
    assert!(!a.is_dense());
    let els: Vec<(u32, ValueRef<'_>)> = g.elements(&a).collect();
    assert_eq!(
        els,
        [
            (0, ValueRef::Number(1.0)),
            (2, ValueRef::Number(3.0)),
            (7, ValueRef::Number(8.0))
        ]
    );
    assert_eq!(g.element(&a, 1), None);
    assert_eq!(g.element(&a, 7), Some(ValueRef::Number(8.0)));
    assert_eq!(g.prop(a.props, "x"), Some(ValueRef::Number(1.0)));
    // An object with number keys: names are their decimal forms, index keys sort first.
    let bytes = unhex("ff0f 6f 2201 62 4902 4914 4904 4901 4906 7b03");
    let g = decode_borrowed(&bytes).unwrap();
    let Some(ObjectRef::Plain(p)) = g.get(&g.root()) else {
        panic!()
    };
    let keys: Vec<String> = g.keys(p).map(|k| k.to_string()).collect();
    assert_eq!(keys, ["10", "b", "-1"]);
    let k: Vec<Str<'_>> = g.keys(p).collect();
    assert!(matches!(k[0], Str::Int(10)));
    assert_eq!(k[0].as_array_index(), Some(10));
    assert_eq!(k[2], Str::Latin1(b"-1"));
    assert!(g.to_graph().same_as(&decode(&bytes).unwrap()));
}

#[test]
fn identity_cycles_maps_sets_errors_views() {
    // const o = {}; o.self = o; [o, o, new Map([[o, 1n], [-0, NaN]]), new Set(["a", "a"... ])...]
    let mut heap = Heap::new();
    let o = heap.alloc(Object::Plain(formwire_v8::Props::EMPTY));
    let props = heap.push_props([(JsString::from("self"), Value::Object(o))]);
    heap.replace(o, Object::Plain(props));
    let map = heap.add(Object::Map(vec![
        (
            Value::Object(o),
            Value::BigInt(formwire_v8::BigInt::from_i128(-5)),
        ),
        (Value::Number(0.0), Value::Number(f64::NAN)),
    ]));
    let set = heap.add(Object::Set(vec![Value::str("a"), Value::Number(-1.5)]));
    let buf = heap.alloc(Object::ArrayBuffer(formwire_v8::ArrayBuffer {
        data: vec![1, 2, 3, 4],
        max_byte_length: None,
    }));
    let view = heap.add(Object::View(formwire_v8::View {
        kind: formwire_v8::ViewKind::Uint16Array,
        buffer: buf,
        byte_offset: 2,
        byte_length: 2,
        length_tracking: false,
    }));
    let err = heap.add(Object::Error(Box::new(formwire_v8::ErrorObject {
        name: ErrorName::RangeError,
        message: Some(JsString::from("bad")),
        stack: None,
        cause: Some(Value::Object(o)),
    })));
    let root = heap.array([Value::Object(o), Value::Object(o), map, set, view, err]);
    let graph = Graph::new(heap, root);
    let bytes = encode(&graph).unwrap();
    let g = decode_borrowed(&bytes).unwrap();
    assert!(g.to_graph().same_as(&graph));
    let Some(ObjectRef::Array(a)) = g.get(&g.root()) else {
        panic!()
    };
    let els: Vec<ValueRef<'_>> = g.elements(&a).map(|(_, v)| v).collect();
    assert_eq!(els[0], els[1]);
    let Some(ObjectRef::Plain(p)) = g.get(&els[0]) else {
        panic!()
    };
    assert_eq!(g.prop(p, "self"), Some(els[0]));
    let Some(ObjectRef::Map(m)) = g.get(&els[2]) else {
        panic!()
    };
    let entries: Vec<_> = g.map_entries(m).collect();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0].0, els[0]);
    let ValueRef::BigInt(b) = entries[0].1 else {
        panic!()
    };
    assert!(b.is_negative());
    assert_eq!(b.to_bigint(), formwire_v8::BigInt::from_i128(-5));
    assert!(matches!(entries[1].1, ValueRef::Number(n) if n.is_nan()));
    let Some(ObjectRef::Set(s)) = g.get(&els[3]) else {
        panic!()
    };
    assert_eq!(g.set_values(s).count(), 2);
    let Some(ObjectRef::View(v)) = g.get(&els[4]) else {
        panic!()
    };
    let Some(ObjectRef::ArrayBuffer {
        data,
        max_byte_length: None,
    }) = g.object(v.buffer)
    else {
        panic!()
    };
    assert_eq!(data, [1, 2, 3, 4]);
    assert_eq!((v.byte_offset, v.byte_length), (2, 2));
    let Some(ObjectRef::Error(e)) = g.get(&els[5]) else {
        panic!()
    };
    assert_eq!(e.name, ErrorName::RangeError);
    assert!(e.message.unwrap().eq_str("bad"));
    assert_eq!(e.cause, Some(els[0]));
}

#[test]
fn primitives_and_limits() {
    for (h, v) in [
        ("ff0f 220b 68656c6c6f20776f726c64", None),
        ("ff0f 4907", Some(ValueRef::Number(-4.0))),
        ("ff0f 4e 0000000000000080", Some(ValueRef::Number(-0.0))),
        ("ff0d 54", Some(ValueRef::Bool(true))),
        ("ff0f 5f", Some(ValueRef::Undefined)),
        ("ff0f 30", Some(ValueRef::Null)),
        // Not the top-level shortcut: padding, verify-count, a v12 header (rejected).
        ("ff0f 00 30", Some(ValueRef::Null)),
        ("ff0f 3f00 30", Some(ValueRef::Null)),
    ] {
        let b = unhex(h);
        let g = decode_borrowed(&b).unwrap();
        match v {
            Some(v) => {
                assert_eq!(g.root(), v, "{h}");
                if let ValueRef::Number(n) = v {
                    let ValueRef::Number(m) = g.root() else {
                        panic!()
                    };
                    assert_eq!(n.is_sign_negative(), m.is_sign_negative(), "{h}");
                }
            }
            None => assert!(matches!(g.root(), ValueRef::String(s) if s.eq_str("hello world"))),
        }
        assert!(g.is_empty());
    }
    for (h, code, offset) in [
        ("ff0c 30", ErrorCode::Version, 0),
        ("ff0f 2205 6162", ErrorCode::Truncated, 6),
        ("ff0f 30 30", ErrorCode::Tag, 3),
        ("ff0f 6303 616200", ErrorCode::String, 2),
    ] {
        let e = decode_borrowed(&unhex(h)).unwrap_err();
        assert_eq!((e.code, e.offset), (code, offset), "{h}");
    }
    // max_bytes and max_depth, with the codes and offsets of spec/errors.md.
    let small = DecodeOptions {
        max_bytes: 2,
        ..DecodeOptions::default()
    };
    let e = decode_borrowed_with(&unhex("ff0f5f"), &small).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitBytes, 0));
    let deep = |n: usize| {
        let mut h = String::from("ff0f");
        h.push_str(&"4101".repeat(n));
        h.push_str("5f");
        h.push_str(&"240001".repeat(n));
        unhex(&h)
    };
    assert!(decode_borrowed(&deep(1000)).is_ok());
    let e = decode_borrowed(&deep(1001)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitDepth, 2 + 2 * 1000));
    // Deep input never recurses.
    let unlimited = DecodeOptions {
        max_depth: u32::MAX,
        ..DecodeOptions::default()
    };
    assert!(decode_borrowed_with(&deep(300_000), &unlimited).is_ok());
}

#[test]
fn handles_from_another_graph_read_as_empty() {
    let small_bytes = unhex("ff0f 6f 2201 61 4902 7b01");
    let small = decode_borrowed(&small_bytes).unwrap();
    let big_bytes = {
        let mut heap = Heap::new();
        let items: Vec<Value> = (0..50)
            .map(|i| heap.object([("k", Value::Number(f64::from(i)))]))
            .collect();
        let root = heap.array(items);
        encode(&Graph::new(heap, root)).unwrap()
    };
    let big = decode_borrowed(&big_bytes).unwrap();
    let Some(ObjectRef::Array(a)) = big.get(&big.root()) else {
        panic!()
    };
    let Some(ObjectRef::Plain(p)) = big.object(ObjId(40)) else {
        panic!()
    };
    assert_eq!(small.props(p).count(), 0);
    assert_eq!(small.elements(&a).count(), 0);
    assert_eq!(small.element(&a, 3), None);
    assert!(small.object(ObjId(40)).is_none());
}

/// Both decoders agree on `bytes`: the same value, or the same error code and offset.
fn agree(bytes: &[u8], opts: &DecodeOptions) {
    match (
        formwire_v8::decode_with(bytes, opts),
        decode_borrowed_with(bytes, opts),
    ) {
        (Ok(g), Ok(b)) => assert!(b.to_graph().same_as(&g), "values differ for {bytes:02x?}"),
        (Err(e), Err(b)) => assert_eq!(
            (e.code, e.offset),
            (b.code, b.offset),
            "errors differ for {bytes:02x?}"
        ),
        (o, b) => panic!(
            "decode {:?} but decode_borrowed {:?} for {bytes:02x?}",
            o.err(),
            b.err()
        ),
    }
}

/// Every single-byte change (each byte replaced by interesting values) and every truncation of
/// `bytes`, under a few option sets.
fn agree_on_mutations(bytes: &[u8]) {
    const INTERESTING: &[u8] =
        b"\x00\x01\x02\x03\x05\x07\x7f\x80\xff?-_0TFIUNZS\"c^o{aA$@ByxDR;:',V\\r.";
    let opts = [
        DecodeOptions::default(),
        DecodeOptions {
            max_depth: 2,
            ..DecodeOptions::default()
        },
        DecodeOptions {
            node_ipc: true,
            ..DecodeOptions::default()
        },
    ];
    for o in &opts {
        agree(bytes, o);
        for n in 0..bytes.len() {
            agree(&bytes[..n], o);
        }
    }
    let mut m = bytes.to_vec();
    for i in 0..bytes.len() {
        for &b in INTERESTING {
            m[i] = b;
            agree(&m, &opts[0]);
        }
        m[i] = bytes[i];
    }
}

fn records(n: u32) -> Vec<u8> {
    let mut heap = Heap::new();
    let items: Vec<Value> = (0..n)
        .map(|i| {
            heap.object([
                ("name", Value::str(&format!("user-{i:04}"))),
                ("age", Value::Number(f64::from(18 + (i * 37) % 60))),
                ("active", Value::Bool(i % 3 == 0)),
            ])
        })
        .collect();
    let root = heap.array(items);
    encode(&Graph::new(heap, root)).unwrap()
}

#[test]
fn record_runs_agree_with_decode_under_mutation() {
    // Runs of same-shape objects take the frame-less paths: every corruption of them must be
    // reported exactly as the owned decoder reports it. Short keys (one compare word) and long
    // ones (two words, and one past the 16 bytes the run path compares).
    agree_on_mutations(&records(6));
    let mut heap = Heap::new();
    let items: Vec<Value> = (0..4)
        .map(|i| {
            heap.object([
                ("max_header_bytes", Value::from(i)),
                ("a_key_of_twenty_chars", Value::str("v")),
                ("flag", Value::Bool(i % 2 == 0)),
            ])
        })
        .collect();
    let root = heap.array(items);
    agree_on_mutations(&encode(&Graph::new(heap, root)).unwrap());
}

#[test]
fn nested_configuration_agrees_with_decode_under_mutation() {
    // A W6d-like value: unique objects nested in objects and arrays (keys learned one by one).
    let mut heap = Heap::new();
    let tls = heap.object([
        ("enabled", Value::Bool(true)),
        ("cert", Value::str("/etc/tls/server.pem")),
    ]);
    let protocols = heap.array([Value::str("TLSv1.2"), Value::str("TLSv1.3")]);
    let http = heap.object([
        ("host", Value::str("0.0.0.0")),
        ("port", Value::Number(8443.0)),
        ("tls", tls),
        ("protocols", protocols),
        ("ratio", Value::Number(0.25)),
        ("none", Value::Null),
        ("undef", Value::Undefined),
    ]);
    let up1 = heap.object([("name", Value::str("a")), ("w", Value::Number(3.0))]);
    let up2 = heap.object([("name", Value::str("b")), ("w", Value::Number(1.0))]);
    let ups = heap.array([up1, up2]);
    let root = heap.object([
        ("http", http),
        ("upstreams", ups),
        ("v", Value::str("1.4.2")),
    ]);
    agree_on_mutations(&encode(&Graph::new(heap, root)).unwrap());
}

#[test]
fn duplicate_keys_across_encodings_agree() {
    // Each pair names the same property in two wire encodings: SC_KEY at the second key's tag,
    // whether the first was read by the fast path or not.
    let latin1_a = "2201 61";
    let utf16_a = "6302 6100";
    let utf8_a = "5301 61";
    let int_1 = "4902";
    let latin1_1 = "2201 31";
    let latin1_e = "2201 e9";
    let utf8_e = "5302 c3a9";
    for (first, second) in [
        (latin1_a, utf16_a),
        (utf16_a, latin1_a),
        (latin1_a, utf8_a),
        (int_1, latin1_1),
        (latin1_1, int_1),
        (latin1_e, utf8_e),
        (utf8_e, latin1_e),
    ] {
        for version in ["0d", "0f"] {
            // {k: 1, other: 2, k': 3}, and the same after a first object of another shape.
            let obj = format!("6f {first} 4902 2205 6f74686572 4904 {second} 4906 7b03");
            for h in [
                format!("ff{version} {obj}"),
                format!("ff{version} 4102 6f 2201 7a 4900 7b01 {obj} 2400 02"),
                format!("ff{version} 4102 {obj} {obj} 2400 02"),
            ] {
                let b = unhex(&h);
                agree(&b, &DecodeOptions::default());
                let e = decode(&b).unwrap_err();
                assert_eq!(e.code, ErrorCode::Key, "{h}");
            }
        }
    }
}

#[test]
fn many_keys_and_index_keys_agree() {
    // More than 16 distinct keys (the duplicate check moves to the frame's index), a repeat at
    // the end, and index keys that sort first.
    let mut body = String::new();
    for i in 0..20u8 {
        body.push_str(&format!("2202 6b{:02x} 49{:02x}", b'a' + i, 2 * i));
    }
    for (tail, n) in [
        ("", 20),
        ("2202 6b61 4900", 21),
        ("4904 4902", 21),
        ("2201 37 4900", 21),
    ] {
        let h = format!("ff0f 4102 6f {body} {tail} 7b{n:02x} 6f {body} {tail} 7b{n:02x} 2400 02");
        agree_on_mutations(&unhex(&h)[..]);
    }
}

#[test]
fn arrays_of_objects_with_interruptions() {
    // Runs of consecutive objects are stored as id ranges; anything else in the array (a string,
    // a repeated object, an object holding another, a hole, an index property) ends the range
    // and the elements are written out. Every layout reads back as the owned decoder reads it.
    let mut heap = Heap::new();
    let rec =
        |heap: &mut Heap, i: i32| heap.object([("k", Value::from(i)), ("s", Value::str("v"))]);
    let a = rec(&mut heap, 1);
    let b = rec(&mut heap, 2);
    let inner = rec(&mut heap, 9);
    let nested = heap.object([("k", inner.clone())]);
    let c = rec(&mut heap, 3);
    let d = rec(&mut heap, 4);
    let shapes: Vec<Vec<Value>> = vec![
        vec![a.clone(), b.clone(), c.clone(), d.clone()],
        vec![a.clone(), b.clone(), Value::str("x"), c.clone(), d.clone()],
        vec![a.clone(), a.clone(), b.clone()],
        vec![a.clone(), nested.clone(), c.clone(), d.clone()],
        vec![nested.clone(), inner.clone(), a.clone()],
        vec![Value::Null, a.clone(), b.clone()],
        vec![],
    ];
    for items in shapes {
        let mut h = heap.clone();
        let root = h.array(items.clone());
        let g = Graph::new(h, root);
        let bytes = encode(&g).unwrap();
        agree(&bytes, &DecodeOptions::default());
        let b = decode_borrowed(&bytes).unwrap();
        assert!(b.to_graph().same_as(&g));
        let Some(ObjectRef::Array(arr)) = b.get(&b.root()) else {
            panic!()
        };
        assert_eq!(b.elements(&arr).count(), items.len());
        for (i, v) in b.elements(&arr) {
            assert_eq!(b.element(&arr, i), Some(v));
        }
        assert_eq!(b.element(&arr, items.len() as u32), None);
    }
    // With a hole and with an index property after a run (V8: `A 03 o.. o.. - $ 00 03` and
    // `A 02 o.. o.. I08 I00 $ 01 05`).
    for h in [
        "ff0f 4103 6f 2201 6b 4902 7b01 6f 2201 6b 4904 7b01 2d 2400 03",
        "ff0f 4102 6f 2201 6b 4902 7b01 6f 2201 6b 4904 7b01 4908 4900 2401 02",
    ] {
        let bytes = unhex(h);
        agree(&bytes, &DecodeOptions::default());
        let b = decode_borrowed(&bytes).unwrap();
        let Some(ObjectRef::Array(arr)) = b.get(&b.root()) else {
            panic!()
        };
        let idx: Vec<u32> = b.elements(&arr).map(|(i, _)| i).collect();
        assert!(idx == [0, 1] || idx == [0, 1, 4], "{idx:?}");
    }
}

#[test]
fn string_runs_between_other_elements() {
    // Arrays of names are read by a loop of their own; whatever interrupts a run (numbers, objects,
    // nested arrays, long or two-byte strings, records) continues the same array.
    let mut heap = Heap::new();
    let long = "x".repeat(200);
    let rec1 = heap.object([("a", Value::Number(1.0))]);
    let rec2 = heap.object([("a", Value::Number(2.0))]);
    let inner = heap.array([Value::str("d"), Value::str("e")]);
    let items = vec![
        Value::str("a"),
        Value::Number(1.0),
        Value::str("b"),
        rec1,
        rec2,
        Value::str("c"),
        inner,
        Value::str(&long),
        Value::str("é"),
        Value::str("\u{20ac}"),
        Value::str(""),
        Value::str("f"),
    ];
    let arr = heap.array(items);
    let tail = heap.array([Value::str("g"), Value::str("h")]);
    let root = heap.object([("list", arr), ("tail", tail), ("n", Value::Number(3.0))]);
    let g = Graph::new(heap, root);
    let bytes = encode(&g).unwrap();
    let b = decode_borrowed(&bytes).unwrap();
    assert!(b.to_graph().same_as(&g), "{:?}", b.to_graph());
    // Every truncation is an error (and never a panic), every prefix of the runs included.
    for n in 0..bytes.len() {
        assert!(decode_borrowed(&bytes[..n]).is_err(), "prefix {n}");
    }
}

#[test]
fn repeated_names_with_the_same_summary_bit() {
    // The fast path compares a new key with the object's earlier ones only when a one-bit summary
    // (length and first byte) says it may repeat one: names that share the bit, and the empty name.
    for (h, dup_at) in [
        // {"": 1, "": 2}
        ("ff0f 6f 2200 4902 2200 4904 7b02", Some(7)),
        // {ab: 1, ac: 2, ab: 3}
        (
            "ff0f 6f 2202 6162 4902 2202 6163 4904 2202 6162 4906 7b03",
            Some(15),
        ),
        // {ab: 1, ac: 2, ad: 3}: same bit, no repeat
        (
            "ff0f 6f 2202 6162 4902 2202 6163 4904 2202 6164 4906 7b03",
            None,
        ),
        // {a: {}, a: 1}: the repeat after a nested object
        ("ff0f 6f 2201 61 6f 7b00 2201 61 4902 7b02", Some(9)),
    ] {
        let b = unhex(h);
        match (decode_borrowed(&b), dup_at) {
            (Err(e), Some(at)) => assert_eq!((e.code, e.offset), (ErrorCode::Key, at), "{h}"),
            (Ok(_), None) => {}
            (r, _) => panic!("{h}: {:?}", r.map(|g| g.to_graph())),
        }
    }
}

#[test]
fn arrays_of_primitives_without_a_frame() {
    // Read by a loop of their own when they are a property's value; every depth, fallback and
    // mixing case must give what the general path gives.
    let mut heap = Heap::new();
    let prims = heap.array([
        Value::str("a"),
        Value::Number(1.0),
        Value::Bool(true),
        Value::Bool(false),
        Value::Null,
        Value::Undefined,
        Value::str(""),
    ]);
    let empty = heap.array([]);
    let long = heap.array([Value::str(&"y".repeat(300)), Value::Number(100000.0)]);
    let doubles = heap.array([Value::Number(0.5)]);
    let sparse = heap.sparse(3, [(1, Value::str("h"))], []);
    let holey = heap.alloc(Object::Array(sparse));
    let rec = heap.object([("x", Value::Number(1.0))]);
    let inner = heap.array([Value::str("i")]);
    let outer = heap.array([rec, inner, Value::str("o")]);
    let nested = heap.object([("p", prims.clone()), ("q", empty.clone())]);
    let root = heap.object([
        ("prims", prims.clone()),
        ("empty", empty),
        ("long", long),
        ("doubles", doubles),
        ("holey", Value::Object(holey)),
        ("outer", outer),
        ("nested", nested),
        ("again", prims),
    ]);
    let g = Graph::new(heap, root);
    let bytes = encode(&g).unwrap();
    assert!(decode_borrowed(&bytes).unwrap().to_graph().same_as(&g));
    for n in 0..bytes.len() {
        assert!(decode_borrowed(&bytes[..n]).is_err(), "prefix {n}");
    }
    // SC-D-29 at the array's tag, whether its parent has a frame yet or not: {a: [1]},
    // {a: {b: [1]}}; {a: {}, b: [1]} (the root has a frame by then; one level less stops at `{}`).
    for (h, depth_ok, at) in [
        ("ff0f 6f 2201 61 4101 4902 2400 01 7b01", 2, 6),
        (
            "ff0f 6f 2201 61 6f 2201 62 4101 4902 2400 01 7b01 7b01",
            3,
            10,
        ),
        (
            "ff0f 6f 2201 61 6f 7b00 2201 62 4101 4902 2400 01 7b02",
            2,
            6,
        ),
    ] {
        let b = unhex(h);
        for d in 1..=depth_ok {
            let opts = DecodeOptions {
                max_depth: d,
                ..DecodeOptions::default()
            };
            match decode_borrowed_with(&b, &opts) {
                Ok(_) => assert_eq!(d, depth_ok, "{h} depth {d}"),
                Err(e) => {
                    assert!(d < depth_ok, "{h} depth {d}: {e}");
                    if d == depth_ok - 1 {
                        assert_eq!((e.code, e.offset), (ErrorCode::LimitDepth, at), "{h}");
                    }
                }
            }
        }
    }
}
