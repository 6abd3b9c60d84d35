//! A seeded generator of value graphs for property tests.
#![allow(dead_code)]

use formwire_v8::{
    ArrayBuffer, BigInt, ErrorName, ErrorObject, Graph, Heap, JsString, ObjId, Object, Props,
    RegExpFlags, Value, View, ViewKind,
};

/// splitmix64, as vectors/SCHEMA.md defines it.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

pub struct Gen {
    pub rng: Rng,
    pub heap: Heap,
    /// Objects that may be referenced again (shared references and cycles).
    pub pool: Vec<ObjId>,
    pub buffers: Vec<ObjId>,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng(seed),
            heap: Heap::new(),
            pool: Vec::new(),
            buffers: Vec::new(),
        }
    }

    pub fn graph(seed: u64) -> Graph {
        let mut g = Gen::new(seed);
        let root = g.value(0);
        Graph::new(g.heap, root)
    }

    pub fn string(&mut self) -> JsString {
        let n = self.rng.below(8) as usize;
        let mut units: Vec<u16> = Vec::with_capacity(n);
        for _ in 0..n {
            units.push(match self.rng.below(8) {
                0 => 0xD800 + self.rng.below(0x800) as u16, // lone surrogates (and sometimes pairs)
                1 => 0xE9,
                2 => 0x20AC,
                3 => self.rng.below(0x10000) as u16,
                4 => 0,
                _ => b'a' as u16 + self.rng.below(26) as u16,
            });
        }
        if self.rng.chance(50) {
            JsString::from_utf16(units).compact()
        } else {
            JsString::from_utf16(units)
        }
    }

    pub fn number(&mut self) -> f64 {
        match self.rng.below(10) {
            0 => -0.0,
            1 => f64::NAN,
            2 => f64::INFINITY,
            3 => f64::NEG_INFINITY,
            4 => (self.rng.below(1 << 20) as f64) - 524288.0,
            5 => 2147483647.0 + self.rng.below(3) as f64,
            6 => -2147483648.0 - self.rng.below(3) as f64,
            7 => f64::from_bits(self.rng.next()),
            8 => self.rng.below(1000) as f64 / 7.0,
            _ => self.rng.below(100) as f64,
        }
    }

    pub fn bigint(&mut self) -> BigInt {
        let n = self.rng.below(20) as usize;
        BigInt::from_parts(self.rng.chance(50), self.rng.bytes(n))
    }

    fn primitive(&mut self) -> Value {
        match self.rng.below(8) {
            0 => Value::Undefined,
            1 => Value::Null,
            2 => Value::Bool(self.rng.chance(50)),
            3 | 4 => Value::Number(self.number()),
            5 => Value::BigInt(self.bigint()),
            _ => Value::String(self.string()),
        }
    }

    fn key(&mut self) -> JsString {
        match self.rng.below(5) {
            0 => JsString::from(self.rng.below(30).to_string()),
            1 => JsString::from(
                ["4294967294", "4294967295", "2147483648", "-1", "01", "1.5"]
                    [self.rng.below(6) as usize],
            ),
            _ => self.string(),
        }
    }

    fn props(&mut self, depth: usize, array: bool) -> Vec<(JsString, Value)> {
        let n = self.rng.below(4) as usize;
        let mut props: Vec<(JsString, Value)> = Vec::new();
        for _ in 0..n {
            let k = self.key();
            if props.iter().any(|(p, _)| *p == k)
                || (array && (k.as_array_index().is_some() || k.eq_ascii(b"length")))
            {
                continue;
            }
            let v = self.value(depth + 1);
            props.push((k, v));
        }
        // Enumeration order, as a decoder gives it back.
        props.sort_by_key(|(k, _)| match k.as_array_index() {
            Some(i) => (0u8, i),
            None => (1u8, 0),
        });
        props
    }

    fn reserve(&mut self) -> ObjId {
        let id = self.heap.alloc(Object::Plain(Props::EMPTY));
        self.pool.push(id);
        id
    }

    fn set(&mut self, id: ObjId, o: Object) -> Value {
        *self.heap.get_mut(id).unwrap() = o;
        Value::Object(id)
    }

    fn buffer(&mut self) -> ObjId {
        if !self.buffers.is_empty() && self.rng.chance(30) {
            return self.buffers[self.rng.below(self.buffers.len() as u64) as usize];
        }
        let len = self.rng.below(24) as usize;
        let max_byte_length = if self.rng.chance(30) {
            Some(len as u32 + self.rng.below(16) as u32)
        } else {
            None
        };
        let id = self.heap.alloc(Object::ArrayBuffer(ArrayBuffer {
            data: self.rng.bytes(len),
            max_byte_length,
        }));
        self.buffers.push(id);
        self.pool.push(id);
        id
    }

    #[allow(clippy::redundant_guards)]
    fn unique_push(list: &mut Vec<Value>, v: Value) -> bool {
        let v = match v {
            Value::Number(n) if n == 0.0 => Value::Number(0.0),
            v => v,
        };
        let same = |a: &Value| match (a, &v) {
            (Value::Number(x), Value::Number(y)) => x == y || (x.is_nan() && y.is_nan()),
            (a, b) => a == b,
        };
        if list.iter().any(same) {
            return false;
        }
        list.push(v);
        true
    }

    pub fn value(&mut self, depth: usize) -> Value {
        if depth > 5 || self.rng.chance(35) {
            return self.primitive();
        }
        if !self.pool.is_empty() && self.rng.chance(10) {
            return Value::Object(self.pool[self.rng.below(self.pool.len() as u64) as usize]);
        }
        match self.rng.below(14) {
            0 | 1 => {
                let id = self.reserve();
                let props = self.props(depth, false);
                let o = self.heap.plain(props);
                self.set(id, o)
            }
            2 | 3 => {
                let id = self.reserve();
                let n = self.rng.below(5) as u32;
                let mut items = Vec::new();
                let holey = self.rng.chance(30);
                for i in 0..n {
                    if holey && self.rng.chance(40) {
                        continue;
                    }
                    items.push((i, self.value(depth + 1)));
                }
                let mut length = n;
                if self.rng.chance(10) {
                    length = u32::MAX - self.rng.below(3) as u32;
                    items.push((length - 1, Value::Null));
                }
                let props = if self.rng.chance(30) {
                    self.props(depth, true)
                } else {
                    Vec::new()
                };
                let a = self.heap.sparse(length, items, props);
                self.set(id, Object::Array(a))
            }
            4 => {
                let t = match self.rng.below(3) {
                    0 => f64::NAN,
                    1 => 8.64e15 - self.rng.below(3) as f64,
                    _ => self.rng.below(1 << 40) as f64 - (1u64 << 39) as f64,
                };
                Value::Object(self.heap.alloc(Object::Date(t)))
            }
            5 => {
                let flags = RegExpFlags(self.rng.below(512) as u32 & 0x1BF);
                let flags = if flags.0 & 16 != 0 {
                    RegExpFlags(flags.0 & !256)
                } else {
                    flags
                };
                let source = self.string();
                Value::Object(self.heap.alloc(Object::RegExp { source, flags }))
            }
            6 => {
                let id = self.reserve();
                let n = self.rng.below(4);
                let mut keys: Vec<Value> = Vec::new();
                let mut entries = Vec::new();
                for _ in 0..n {
                    let k = self.value(depth + 1);
                    if Gen::unique_push(&mut keys, k) {
                        let k = keys.last().unwrap().clone();
                        let v = self.value(depth + 1);
                        entries.push((k, v));
                    }
                }
                self.set(id, Object::Map(entries))
            }
            7 => {
                let id = self.reserve();
                let mut values: Vec<Value> = Vec::new();
                for _ in 0..self.rng.below(4) {
                    let v = self.value(depth + 1);
                    Gen::unique_push(&mut values, v);
                }
                self.set(id, Object::Set(values))
            }
            8 => {
                let o = match self.rng.below(4) {
                    0 => Object::BooleanObject(self.rng.chance(50)),
                    1 => Object::NumberObject(self.number()),
                    2 => Object::BigIntObject(self.bigint()),
                    _ => Object::StringObject(self.string()),
                };
                Value::Object(self.heap.alloc(o))
            }
            9 => Value::Object(self.buffer()),
            10 | 11 => {
                let buffer = self.buffer();
                let (len, resizable) = match self.heap.get(buffer) {
                    Some(Object::ArrayBuffer(b)) => {
                        (b.data.len() as u32, b.max_byte_length.is_some())
                    }
                    _ => unreachable!(),
                };
                let kind = ViewKind::ALL[self.rng.below(13) as usize];
                let size = kind.element_size();
                let elems = len / size;
                let off_el = self.rng.below(u64::from(elems) + 1) as u32;
                let byte_offset = off_el * size;
                let length_tracking = resizable && self.rng.chance(50);
                let byte_length = if length_tracking {
                    (elems - off_el) * size
                } else {
                    self.rng.below(u64::from(elems - off_el) + 1) as u32 * size
                };
                let view = View {
                    kind,
                    buffer,
                    byte_offset,
                    byte_length,
                    length_tracking,
                };
                let id = self.heap.alloc(Object::View(view));
                self.pool.push(id);
                Value::Object(id)
            }
            _ => {
                let id = self.reserve();
                let names = [
                    ErrorName::Error,
                    ErrorName::EvalError,
                    ErrorName::RangeError,
                    ErrorName::ReferenceError,
                    ErrorName::SyntaxError,
                    ErrorName::TypeError,
                    ErrorName::UriError,
                ];
                let name = names[self.rng.below(7) as usize];
                let message = if self.rng.chance(70) {
                    Some(self.string())
                } else {
                    None
                };
                let stack = if self.rng.chance(50) {
                    Some(self.string())
                } else {
                    None
                };
                let cause = if self.rng.chance(50) {
                    Some(self.value(depth + 1))
                } else {
                    None
                };
                self.set(
                    id,
                    Object::Error(Box::new(ErrorObject {
                        name,
                        message,
                        stack,
                        cause,
                    })),
                )
            }
        }
    }
}

/// Graphs where shapes repeat: arrays of objects that share key lists (or prefixes of them), nested
/// in each other and in sparse arrays with named properties, so that the decoder's shape cache, its
/// frame-less object path and the in-place arena writes meet every kind of nesting.
pub fn shapey_graph(seed: u64) -> Graph {
    let mut rng = Rng(seed);
    let mut heap = Heap::new();
    let n = 1 + rng.below(4);
    let items: Vec<Value> = (0..n).map(|_| shapey(&mut rng, &mut heap, 0)).collect();
    let root = heap.array(items);
    Graph::new(heap, root)
}

fn shapey(rng: &mut Rng, heap: &mut Heap, depth: usize) -> Value {
    const KEYS: [&str; 9] = [
        "a",
        "b",
        "c",
        "name",
        "0",
        "7",
        "x",
        "a-key-longer-than-16",
        "c",
    ];
    if depth > 3 || rng.chance(30) {
        return match rng.below(9) {
            0 => Value::Number(rng.below(300) as f64 - 20.0),
            1 => Value::str(
                ["Alice", "", "a string longer than the 22 inline", "é"][rng.below(4) as usize],
            ),
            2 => Value::Bool(rng.chance(50)),
            3 => Value::Null,
            4 => Value::Number(1.5),
            5 => Value::Undefined,
            6 => Value::Number(-0.0),
            7 => Value::BigInt(BigInt::from_i128(-(rng.below(1000) as i128))),
            _ => Value::String(JsString::from_utf16(vec![0x20AC, 0x61])),
        };
    }
    match rng.below(4) {
        0 | 1 => {
            // One of a few shapes, sometimes cut short (a prefix of the shape).
            let shape = rng.below(3) as usize;
            let n = [3usize, 2, 5][shape] - rng.below(2) as usize;
            let mut props: Vec<(JsString, Value)> = Vec::new();
            for i in 0..n {
                let k = KEYS[(shape + i * 2) % KEYS.len()];
                if props.iter().any(|(p, _)| p.eq_ascii(k.as_bytes())) {
                    continue;
                }
                let v = shapey(rng, heap, depth + 1);
                props.push((JsString::from(k), v));
            }
            props.sort_by_key(|(k, _)| match k.as_array_index() {
                Some(i) => (0u8, i),
                None => (1, 0),
            });
            let o = heap.plain(props);
            heap.add(o)
        }
        2 => {
            let n = rng.below(5);
            let vals: Vec<Value> = (0..n).map(|_| shapey(rng, heap, depth + 1)).collect();
            heap.array(vals)
        }
        _ => {
            let n = rng.below(5) as u32;
            let mut items = Vec::new();
            for i in 0..n {
                if rng.chance(60) {
                    items.push((i * 2, shapey(rng, heap, depth + 1)));
                }
            }
            let props = if rng.chance(50) {
                vec![
                    (JsString::from("x"), shapey(rng, heap, depth + 1)),
                    (JsString::from("name"), shapey(rng, heap, depth + 1)),
                ]
            } else {
                Vec::new()
            };
            let a = heap.sparse(n * 2 + 1, items, props);
            heap.add(Object::Array(a))
        }
    }
}
