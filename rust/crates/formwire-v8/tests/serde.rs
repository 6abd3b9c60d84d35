//! serde on top of the codec: plain Rust data to V8 bytes and back, and V8's own bytes into Rust types.

use formwire_v8::serde::{Error, from_bytes, to_bytes, to_graph};
use formwire_v8::{ErrorCode, Object, Value, decode};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Person {
    name: String,
    age: u32,
    active: bool,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Point,
    Circle(f64),
    Rect { w: f64, h: f64 },
    Pair(i32, i32),
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Everything {
    unit: (),
    flag: bool,
    small: i8,
    big: i64,
    huge: u64,
    wide: i128,
    ratio: f64,
    ch: char,
    text: String,
    none: Option<String>,
    some: Option<u16>,
    list: Vec<i32>,
    tuple: (u8, String),
    map: BTreeMap<String, u32>,
    int_keys: BTreeMap<u32, bool>,
    shapes: Vec<Shape>,
    #[serde(with = "bytes")]
    blob: Vec<u8>,
}

mod bytes {
    use serde::{Deserializer, Serializer};
    pub fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(b)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
        }
        d.deserialize_bytes(V)
    }
}

#[test]
fn a_struct_is_an_object_with_the_canonical_bytes() {
    let p = Person {
        name: "Alice".into(),
        age: 30,
        active: true,
    };
    let b = to_bytes(&p).unwrap();
    // What `v8.serialize({name: 'Alice', age: 30, active: true})` writes.
    assert_eq!(
        hex(&b),
        "ff0f6f22046e616d652205416c6963652203616765493c220661637469766554 7b03".replace(' ', "")
    );
    assert_eq!(from_bytes::<Person>(&b).unwrap(), p);
}

#[test]
fn everything_round_trips() {
    let mut map = BTreeMap::new();
    map.insert("b".to_string(), 2);
    map.insert("a".to_string(), 1);
    let mut int_keys = BTreeMap::new();
    int_keys.insert(7, true);
    int_keys.insert(3, false);
    let v = Everything {
        unit: (),
        flag: true,
        small: -5,
        big: -(1 << 60),
        huge: u64::MAX,
        wide: -(1i128 << 100),
        ratio: -0.5,
        ch: '€',
        text: "h€llo 😀".into(),
        none: None,
        some: Some(7),
        list: vec![1, -2, 3],
        tuple: (9, "x".into()),
        map,
        int_keys,
        shapes: vec![
            Shape::Point,
            Shape::Circle(1.5),
            Shape::Rect { w: 2.0, h: 3.0 },
            Shape::Pair(1, 2),
        ],
        blob: vec![0, 1, 2, 255],
    };
    let b = to_bytes(&v).unwrap();
    assert_eq!(from_bytes::<Everything>(&b).unwrap(), v);
    // Large integers become BigInts, bytes a Uint8Array.
    let g = decode(&b).unwrap();
    let Some(Object::Plain(props)) = g.object(&g.root) else {
        panic!()
    };
    let get = |k: &str| g.heap.prop(*props, k).cloned().unwrap();
    assert!(matches!(get("big"), Value::BigInt(_)));
    assert!(matches!(get("huge"), Value::BigInt(_)));
    assert!(matches!(g.object(&get("blob")), Some(Object::View(_))));
}

#[test]
fn maps_with_non_string_keys_become_js_maps() {
    let mut m: HashMap<(u8, u8), String> = HashMap::new();
    m.insert((1, 2), "a".into());
    let g = to_graph(&m).unwrap();
    assert!(matches!(g.object(&g.root), Some(Object::Map(_))));
    let back: HashMap<(u8, u8), String> = from_bytes(&to_bytes(&m).unwrap()).unwrap();
    assert_eq!(back, m);
}

#[test]
fn reads_what_v8_writes() {
    // [{name:'Alice', age:30, active:true}] from Node's v8.serialize, with a double field.
    let b = unhex("ff0f41016f22046e616d652205416c69636522036167654e000000000000f83f220661637469766554 7b03 240001".replace(' ', "").as_str());
    #[derive(Deserialize, Debug)]
    struct P {
        name: String,
        age: f64,
        active: bool,
    }
    let v: Vec<P> = from_bytes(&b).unwrap();
    assert_eq!(
        (v[0].name.as_str(), v[0].age, v[0].active),
        ("Alice", 1.5, true)
    );
    // A Set reads as a sequence, a Map as a map, a hole as None, wrapper objects as primitives.
    let s: Vec<String> = from_bytes(&unhex("ff0f272201612201622c02")).unwrap();
    assert_eq!(s, vec!["a", "b"]);
    let m: BTreeMap<i32, i32> = from_bytes(&unhex("ff0f3b490249043a02")).unwrap();
    assert_eq!(m.get(&1), Some(&2));
    let holes: Vec<Option<i32>> = from_bytes(&unhex("ff0f61034900490249044906400203")).unwrap();
    assert_eq!(holes, vec![Some(1), None, Some(3)]);
    let n: f64 = from_bytes(&unhex("ff0f6e0000000000000840")).unwrap();
    assert_eq!(n, 3.0);
    let big: u128 = from_bytes(&unhex("ff0f5a2000000000000000000100000000000000")).unwrap();
    assert_eq!(big, 1u128 << 64);
}

#[test]
fn errors_are_typed() {
    let e = from_bytes::<Person>(&unhex("ff0f5f5f")).unwrap_err();
    assert!(matches!(e, Error::Codec(ref c) if c.code == ErrorCode::Tag && c.offset == 3));
    let e = from_bytes::<Person>(&unhex("ff0f4902")).unwrap_err();
    assert!(matches!(e, Error::Message(_)));
    // A cycle cannot become Rust data; it ends at the depth guard instead of overflowing the stack.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Node {
        next: Box<Node>,
    }
    let e = from_bytes::<Node>(&unhex("ff0f6f22046e6578745e007b01")).unwrap_err();
    assert!(matches!(e, Error::Codec(ref c) if c.code == ErrorCode::LimitDepth));
}
