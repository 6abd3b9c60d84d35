//! One test per tag: bytes that Node 20 (V8 11.3) writes for a value, decoded to the expected model and
//! re-encoded to the same bytes (where the canonical encoder and V8 agree), plus every rejection code.

use formwire_v8::{
    Array, BigInt, DecodeOptions, ErrorCode, ErrorName, Graph, Item, JsString, Object, Prop, Value,
    ViewKind, decode, decode_with, encode,
};

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Decodes V8's bytes, checks the canonical encoder writes them back unchanged, returns the graph.
fn v8_bytes(h: &str) -> Graph {
    let bytes = unhex(h);
    let g = decode(&bytes).unwrap_or_else(|e| panic!("{h}: {e}"));
    assert_eq!(
        hex(&encode(&g).unwrap()),
        hex(&bytes),
        "canonical re-encoding of {h}"
    );
    g
}

fn root_obj(g: &Graph) -> &Object {
    g.object(&g.root).expect("root is an object")
}

/// The root plain object's properties.
fn root_props(g: &Graph) -> Vec<Prop> {
    let Object::Plain(props) = root_obj(g) else {
        panic!("root is not a plain object: {g:?}")
    };
    g.heap
        .props(*props)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The root array and its elements.
fn root_array(g: &Graph) -> (&Array, &[Item]) {
    let Object::Array(a) = root_obj(g) else {
        panic!("root is not an array: {g:?}")
    };
    (a, g.heap.items(a.items))
}

fn err(h: &str) -> (ErrorCode, u64) {
    let e = decode(&unhex(h)).expect_err(h);
    (e.code, e.offset)
}

#[test]
fn oddballs() {
    assert_eq!(v8_bytes("ff0f5f").root, Value::Undefined);
    assert_eq!(v8_bytes("ff0f30").root, Value::Null);
    assert_eq!(v8_bytes("ff0f54").root, Value::Bool(true));
    assert_eq!(v8_bytes("ff0f46").root, Value::Bool(false));
}

#[test]
fn int32_and_uint32() {
    assert_eq!(v8_bytes("ff0f498001").root, Value::Number(64.0));
    assert_eq!(v8_bytes("ff0f4901").root, Value::Number(-1.0));
    assert_eq!(
        decode(&unhex("ff0f55ffffffff0f")).unwrap().root,
        Value::Number(4294967295.0)
    );
    // `U` is read, never written: the canonical form of 5 is `I`.
    assert_eq!(
        hex(&encode(&decode(&unhex("ff0f5505")).unwrap()).unwrap()),
        "ff0f490a"
    );
}

#[test]
fn doubles_keep_minus_zero_and_nan() {
    assert_eq!(v8_bytes("ff0f4e000000000000f83f").root, Value::Number(1.5));
    let Value::Number(z) = v8_bytes("ff0f4e0000000000000080").root else {
        panic!()
    };
    assert!(z == 0.0 && z.is_sign_negative());
    let Value::Number(n) = v8_bytes("ff0f4e000000000000f87f").root else {
        panic!()
    };
    assert!(n.is_nan());
    // A signalling NaN is read as the quiet NaN (V8 canonicalises).
    let Value::Number(n) = decode(&unhex("ff0f4e010000000000f07f")).unwrap().root else {
        panic!()
    };
    assert_eq!(n.to_bits(), f64::NAN.to_bits());
    assert_eq!(
        v8_bytes("ff0f4e000000000000e041").root,
        Value::Number(2147483648.0)
    );
}

#[test]
fn bigints() {
    assert_eq!(
        v8_bytes("ff0f5a100a00000000000000").root,
        Value::BigInt(BigInt::from_i128(10))
    );
    let g = v8_bytes("ff0f5a2100000000000000000100000000000000");
    assert_eq!(g.root, Value::BigInt(BigInt::from_i128(-(1i128 << 64))));
    // Short digit storage is accepted; the canonical form pads to 8 bytes.
    assert_eq!(
        hex(&encode(&decode(&unhex("ff0f5a020a")).unwrap()).unwrap()),
        "ff0f5a100a00000000000000"
    );
    assert_eq!(v8_bytes("ff0f5a00").root, Value::BigInt(BigInt::zero()));
    assert_eq!(err("ff0f5a01"), (ErrorCode::Tag, 2), "-0n");
}

#[test]
fn strings() {
    assert_eq!(
        v8_bytes("ff0f220268e9").root,
        Value::String(JsString::from("hé"))
    );
    assert_eq!(
        v8_bytes("ff0f63046800ac20").root,
        Value::String(JsString::from("h€"))
    );
    let g = v8_bytes("ff0f6306610000d86200");
    assert_eq!(
        g.root,
        Value::String(JsString::from_utf16(vec![0x61, 0xD800, 0x62]))
    );
    // `S` UTF-8 is read; the canonical form is Latin-1 or UTF-16.
    assert_eq!(
        hex(&encode(&decode(&unhex("ff0f530368c3a9")).unwrap()).unwrap()).as_str(),
        "ff0f220268e9"
    );
    assert_eq!(err("ff0f530368c3"), (ErrorCode::Truncated, 6));
    assert_eq!(err("ff0f5302c328"), (ErrorCode::String, 2));
    assert_eq!(err("ff0f630361000062"), (ErrorCode::String, 2));
}

#[test]
fn two_byte_strings_are_padded_to_even_offsets() {
    let g = v8_bytes("ff0f4102220161006302ac20240002");
    let (_, items) = root_array(&g);
    assert_eq!(items[1].1, Value::String(JsString::from("€")));
}

#[test]
fn objects_and_keys() {
    let g = v8_bytes("ff0f6f22016149027b01");
    assert_eq!(
        root_props(&g),
        vec![(JsString::from("a"), Value::Number(1.0))]
    );
    // Integer keys are written as numbers and enumerate first.
    let g = v8_bytes("ff0f6f490222016122016249047b02");
    let p = root_props(&g);
    assert_eq!(p[0].0, JsString::from("1"));
    assert_eq!(p[1].0, JsString::from("b"));
    // A string key "1" after "b" still enumerates first; the canonical form writes it as `I`.
    let g = decode(&unhex("ff0f6f2201624904220131220161 7b02")).unwrap();
    let p = root_props(&g);
    assert_eq!(p[0].0, JsString::from("1"));
    assert_eq!(hex(&encode(&g).unwrap()), "ff0f6f490222016122016249047b02");
    assert_eq!(
        err("ff0f6f22016149022201614904 7b02"),
        (ErrorCode::Key, 8),
        "duplicate key"
    );
    assert_eq!(
        err("ff0f6f5f49027b01"),
        (ErrorCode::Key, 3),
        "undefined as a key"
    );
    assert_eq!(
        err("ff0f6f4e000000000000f83f49027b01"),
        (ErrorCode::Key, 3),
        "1.5 as a key"
    );
    assert_eq!(err("ff0f6f7b01"), (ErrorCode::Count, 3));
}

#[test]
fn dense_sparse_and_holes() {
    let g = v8_bytes("ff0f410249024904240002");
    let (a, items) = root_array(&g);
    assert_eq!((a.length, a.props.len()), (2, 0));
    assert!(a.is_dense());
    assert_eq!(items, &[(0, Value::Number(1.0)), (1, Value::Number(2.0))]);
    let g = v8_bytes("ff0f61034900490249044906400203");
    let (a, _) = root_array(&g);
    assert_eq!((a.length, a.items.len()), (3, 2));
    assert!(!a.is_dense());
    let g = v8_bytes("ff0f610b4914490240010b");
    let (a, items) = root_array(&g);
    assert_eq!((a.length, items), (11, &[(10, Value::Number(1.0))][..]));
    let g = v8_bytes("ff0f410149022201784904240101");
    let (a, _) = root_array(&g);
    assert_eq!(
        g.heap.props(a.props).collect::<Vec<_>>(),
        vec![(&JsString::from("x"), &Value::Number(2.0))]
    );
    // A dense array with a `-` hole reads as holey and is written sparse.
    let g = decode(&unhex("ff0f4103 4902 2d 4906 240003")).unwrap();
    assert_eq!(hex(&encode(&g).unwrap()), "ff0f61034900490249044906400203");
    // Sparse 2^32-1 costs nothing.
    let g = decode(&unhex("ff0f61ffffffff0f40 00ffffffff0f")).unwrap();
    let Object::Array(a) = root_obj(&g) else {
        panic!()
    };
    assert_eq!((a.length, a.items.len()), (u32::MAX, 0));
    assert_eq!(
        err("ff0f41ffffffff0f"),
        (ErrorCode::Truncated, 8),
        "dense length beyond the input"
    );
    assert_eq!(
        err("ff0f2d"),
        (ErrorCode::Tag, 2),
        "hole outside a dense array"
    );
    assert_eq!(err("ff0f4101490224 0002"), (ErrorCode::Count, 6));
    assert_eq!(
        err("ff0f4101490222066c656e677468490224 0101"),
        (ErrorCode::Key, 6),
        "length key"
    );
}

#[test]
fn dates_regexps_maps_sets() {
    assert_eq!(
        root_obj(&v8_bytes("ff0f440000000000000000")),
        &Object::Date(0.0)
    );
    let g = v8_bytes("ff0f5222026162bf01");
    let Object::RegExp { source, flags } = root_obj(&g) else {
        panic!()
    };
    assert_eq!(
        (
            source.to_string_lossy().as_str(),
            flags.to_letters().as_str()
        ),
        ("ab", "dgimsuy")
    );
    let g = v8_bytes("ff0f522201788002");
    let Object::RegExp { flags, .. } = root_obj(&g) else {
        panic!()
    };
    assert_eq!(flags.to_letters(), "v");
    assert_eq!(err("ff0f5222017840"), (ErrorCode::Tag, 2), "linear flag");
    assert_eq!(err("ff0f5222017890 02"), (ErrorCode::Tag, 2), "u with v");
    assert_eq!(
        err("ff0f524902 00"),
        (ErrorCode::Tag, 3),
        "source must be a string"
    );
    let g = v8_bytes("ff0f3b490249043a02");
    assert_eq!(
        root_obj(&g),
        &Object::Map(vec![(Value::Number(1.0), Value::Number(2.0))])
    );
    let g = v8_bytes("ff0f272201612c01");
    assert_eq!(root_obj(&g), &Object::Set(vec![Value::str("a")]));
    // Map.set semantics: -0 is +0, a repeated key keeps its first place and takes the last value.
    let g = decode(&unhex("ff0f3b 4e0000000000000080 4902 4900 4904 3a04")).unwrap();
    assert_eq!(
        root_obj(&g),
        &Object::Map(vec![(Value::Number(0.0), Value::Number(2.0))])
    );
    assert_eq!(
        err("ff0f3b49023a02"),
        (ErrorCode::Tag, 5),
        "end tag where the value is due"
    );
    assert_eq!(err("ff0f3b490249043a04"), (ErrorCode::Count, 7));
}

#[test]
fn date_time_clip() {
    let g = decode(&unhex("ff0f44 000000000000f87f")).unwrap();
    let Object::Date(t) = root_obj(&g) else {
        panic!()
    };
    assert!(t.is_nan());
    let g = decode(&unhex("ff0f44 000000000000f83f")).unwrap(); // 1.5 ms -> 1
    assert_eq!(root_obj(&g), &Object::Date(1.0));
}

#[test]
fn wrappers() {
    assert_eq!(root_obj(&v8_bytes("ff0f79")), &Object::BooleanObject(true));
    assert_eq!(root_obj(&v8_bytes("ff0f78")), &Object::BooleanObject(false));
    assert_eq!(
        root_obj(&v8_bytes("ff0f6e0000000000000840")),
        &Object::NumberObject(3.0)
    );
    assert_eq!(
        root_obj(&v8_bytes("ff0f73220178")),
        &Object::StringObject(JsString::from("x"))
    );
    assert_eq!(
        root_obj(&v8_bytes("ff0f7a100100000000000000")),
        &Object::BigIntObject(BigInt::from_i128(1))
    );
}

#[test]
fn buffers_and_views() {
    let g = v8_bytes("ff0f4203010203");
    let Object::ArrayBuffer(b) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(
        (b.data.as_slice(), b.max_byte_length),
        (&[1u8, 2, 3][..], None)
    );
    let g = v8_bytes("ff0f7e02080000");
    let Object::ArrayBuffer(b) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(b.max_byte_length, Some(8));
    let g = v8_bytes("ff0f42030102035642000300");
    let Object::View(v) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(
        (v.kind, v.byte_offset, v.byte_length, v.length_tracking),
        (ViewKind::Uint8Array, 0, 3, false)
    );
    let g = v8_bytes("ff0f4208000000000000f03f5646000800");
    let Object::View(v) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(v.kind, ViewKind::Float64Array);
    let g = v8_bytes("ff0f42020000563f000200");
    let Object::View(v) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(v.kind, ViewKind::DataView);
    // Two views over one buffer: the second names the buffer by reference.
    let g = v8_bytes("ff0f410242040000000056420004005e015657020200240002");
    let (_, items) = root_array(&g);
    let (Some(Object::View(v1)), Some(Object::View(v2))) =
        (g.object(&items[0].1), g.object(&items[1].1))
    else {
        panic!()
    };
    assert_eq!(v1.buffer, v2.buffer);
    assert_eq!(
        (v2.kind, v2.byte_offset, v2.byte_length),
        (ViewKind::Uint16Array, 2, 2)
    );
    // Float16 (`h`) is read and written.
    let g = v8_bytes("ff0f42020000566800 0200");
    let Object::View(v) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(v.kind, ViewKind::Float16Array);
    // A length-tracking view over a resizable buffer is as long as the buffer allows.
    // SC-E-12: its wire length is 0, as V8 writes it.
    let g = v8_bytes("ff0f7e0408000000005642000003");
    let Object::View(v) = root_obj(&g) else {
        panic!()
    };
    assert!(v.length_tracking);
    assert_eq!(v.byte_length, 4);
    assert_eq!(
        err("ff0f4203010203 5642000400"),
        (ErrorCode::View, 7),
        "out of bounds"
    );
    assert_eq!(
        err("ff0f4204010203045657010200"),
        (ErrorCode::View, 8),
        "misaligned"
    );
    assert_eq!(
        err("ff0f4203010203 5678000300"),
        (ErrorCode::View, 7),
        "unknown subtag"
    );
    assert_eq!(
        err("ff0f4203010203 5642000301"),
        (ErrorCode::View, 7),
        "length tracking over a fixed buffer"
    );
    assert_eq!(
        err("ff0f7e020800005642000200"),
        (ErrorCode::View, 7),
        "RAB view without the RAB flag"
    );
    assert_eq!(
        err("ff0f5642000000"),
        (ErrorCode::View, 2),
        "view without a buffer"
    );
    assert_eq!(
        err("ff0f7e0302000000"),
        (ErrorCode::Tag, 2),
        "byte length over the maximum"
    );
}

#[test]
fn version_13_views_without_flags_and_the_broken_v13_retry() {
    let g = decode(&unhex("ff0d420301020356420003")).unwrap();
    let Object::View(v) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(v.byte_length, 3);
    // Labelled 13 but written with flags: the first read fails on the trailing byte, the retry succeeds.
    let g = decode(&unhex("ff0d42030102035642000300")).unwrap();
    assert!(matches!(root_obj(&g), Object::View(_)));
}

#[test]
fn node_host_object_views() {
    let g = decode(&unhex("ff0f5c0103010203")).unwrap();
    let Object::View(v) = root_obj(&g) else {
        panic!()
    };
    assert_eq!((v.kind, v.byte_length), (ViewKind::Uint8Array, 3));
    let Some(Object::ArrayBuffer(b)) = g.heap.get(v.buffer) else {
        panic!()
    };
    assert_eq!(b.data, vec![1, 2, 3]);
    // 10 is Node's Buffer: a Uint8Array.
    let g = decode(&unhex("ff0f5c0a020102")).unwrap();
    let Object::View(v) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(v.kind, ViewKind::Uint8Array);
    assert_eq!(err("ff0f5c0e0100"), (ErrorCode::Host, 2), "unknown type");
    assert_eq!(
        err("ff0f5c03030102 03"),
        (ErrorCode::Host, 2),
        "odd Int16Array length"
    );
    assert_eq!(err("ff0f5c0105 0102"), (ErrorCode::Truncated, 7));
    // child_process 'advanced': a sub-tag first.
    let ipc = DecodeOptions {
        node_ipc: true,
        ..DecodeOptions::default()
    };
    let g = decode_with(&unhex("ff0f5c000103010203"), &ipc).unwrap();
    assert!(matches!(root_obj(&g), Object::View(_)));
    let g = decode_with(&unhex("ff0f41025c016f2201614902 7b01 5e01 240002"), &ipc).unwrap();
    let (_, items) = root_array(&g);
    assert_eq!(
        items[0].1, items[1].1,
        "host id and object id name the same object"
    );
    assert_eq!(
        decode_with(&unhex("ff0f5c015f"), &ipc).unwrap_err().code,
        ErrorCode::Host
    );
    assert_eq!(
        decode_with(&unhex("ff0f5c02"), &ipc).unwrap_err().code,
        ErrorCode::Host
    );
}

#[test]
fn errors() {
    let g = v8_bytes("ff0f72526d22016d732201532e");
    let Object::Error(e) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(e.name, ErrorName::RangeError);
    assert_eq!(e.message, Some(JsString::from("m")));
    assert_eq!(e.stack, Some(JsString::from("S")));
    let g = v8_bytes("ff0f726d22016d6349022e");
    let Object::Error(e) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(
        (e.name, e.cause.clone()),
        (ErrorName::Error, Some(Value::Number(2.0 / 2.0)))
    );
    // V8 writes the cause before the stack; the canonical order is message, stack, cause.
    let g = decode(&unhex("ff0f726d22016d634902732201532e")).unwrap();
    assert_eq!(hex(&encode(&g).unwrap()), "ff0f726d22016d732201536349022e");
    // An error may be its own cause.
    let g = decode(&unhex("ff0f72635e002e")).unwrap();
    let Object::Error(e) = root_obj(&g) else {
        panic!()
    };
    assert_eq!(e.cause, Some(g.root.clone()));
    assert_eq!(err("ff0f72582e"), (ErrorCode::Tag, 3), "unknown subtag");
    assert_eq!(
        err("ff0f72525452 2e"),
        (ErrorCode::Tag, 4),
        "two prototypes"
    );
}

#[test]
fn references_and_cycles() {
    let g = v8_bytes("ff0f6f220473656c665e007b01");
    let p = root_props(&g);
    assert_eq!(p[0].1, g.root);
    let g = v8_bytes("ff0f41026f7b005e01240002");
    let (_, items) = root_array(&g);
    assert_eq!(items[0].1, items[1].1);
    assert_eq!(err("ff0f5e00"), (ErrorCode::Ref, 2));
    assert_eq!(err("ff0f41015e01240001"), (ErrorCode::Ref, 4));
}

#[test]
fn header_padding_and_trailing_bytes() {
    assert_eq!(err(""), (ErrorCode::Truncated, 0));
    assert_eq!(err("ff"), (ErrorCode::Truncated, 1));
    assert_eq!(err("0f5f"), (ErrorCode::Version, 0));
    assert_eq!(err("ff0c5f"), (ErrorCode::Version, 0));
    assert_eq!(err("ff105f"), (ErrorCode::Version, 0));
    assert_eq!(decode(&unhex("ff0d5f")).unwrap().root, Value::Undefined);
    assert_eq!(
        decode(&unhex("ff0f00005f0000")).unwrap().root,
        Value::Undefined
    );
    assert_eq!(
        decode(&unhex("ff0f3f035f")).unwrap().root,
        Value::Undefined,
        "verify-count prefix"
    );
    assert_eq!(
        err("ff0f5f5f"),
        (ErrorCode::Tag, 3),
        "bytes after the value"
    );
}

#[test]
fn varints() {
    assert_eq!(
        err("ff0f49ffffffff7f"),
        (ErrorCode::Varint, 3),
        "5th byte carries bits above 32"
    );
    assert_eq!(err("ff0f49ffffffffff01"), (ErrorCode::Varint, 3), "6 bytes");
    assert_eq!(err("ff0f49ff"), (ErrorCode::Truncated, 4));
    assert_eq!(
        err("ff0f4203000000 56 8002 000000"),
        (ErrorCode::Varint, 8),
        "u8 subtag over 8 bits"
    );
}

#[test]
fn unsupported_and_unknown_tags() {
    for (tag, code) in [
        ("74", ErrorCode::Unsupported),
        ("75", ErrorCode::Unsupported),
        ("77", ErrorCode::Unsupported),
        ("6d", ErrorCode::Unsupported),
        ("70", ErrorCode::Unsupported),
        ("4d", ErrorCode::Tag),
        ("62", ErrorCode::Tag),
        ("7b", ErrorCode::Tag),
        ("24", ErrorCode::Tag),
        ("ee", ErrorCode::Tag),
    ] {
        assert_eq!(err(&format!("ff0f{tag}00")), (code, 2), "tag {tag}");
    }
    // `p` before version 15 is an unknown tag.
    assert_eq!(err("ff0e7000"), (ErrorCode::Tag, 2));
}

#[test]
fn limits() {
    let deep = |n: usize| {
        let mut h = String::from("ff0f");
        h.push_str(&"4101".repeat(n));
        h.push('5');
        h.push('f');
        h.push_str(&"24000 1".replace(' ', "").repeat(n));
        unhex(&h)
    };
    assert!(decode(&deep(1000)).is_ok());
    let e = decode(&deep(1001)).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitDepth, 2 + 2 * 1000));
    let opts = DecodeOptions {
        max_depth: 3,
        ..DecodeOptions::default()
    };
    assert_eq!(decode_with(&deep(4), &opts).unwrap_err().offset, 8);
    // Deep input never recurses: 300,000 levels with no limit decode on the default stack.
    let unlimited = DecodeOptions {
        max_depth: u32::MAX,
        ..DecodeOptions::default()
    };
    assert!(decode_with(&deep(300_000), &unlimited).is_ok());
    let small = DecodeOptions {
        max_bytes: 2,
        ..DecodeOptions::default()
    };
    let e = decode_with(&unhex("ff0f5f"), &small).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitBytes, 0));
    let e = formwire_v8::encode_with(
        &decode_with(&deep(5), &unlimited).unwrap(),
        &formwire_v8::EncodeOptions { max_depth: 4 },
    )
    .unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitDepth, 10));
}

#[test]
fn error_codes_have_spec_strings() {
    assert_eq!(ErrorCode::Truncated.as_str(), "SC_TRUNCATED");
    assert_eq!(ErrorCode::DataClone.to_string(), "SC_DATA_CLONE");
    for c in ErrorCode::ALL {
        assert_eq!(ErrorCode::from_str_code(c.as_str()), Some(c));
    }
}
