//! The neutral value description of `vectors/SCHEMA.md` for formwire-v8: test support for the
//! conformance testees and formwire-v8's tests, not published (`publish = false`).
//!
//! [`to_json`] describes a [`Graph`] as JSON, objects numbered in first-visit depth-first order (a
//! view's buffer before the view, SC-N-01), later visits as `{"t": "ref", "id": N}`. [`from_json`]
//! builds a graph back from such a description.

use formwire_v8::{
    Array, ArrayBuffer, BigInt, Error, ErrorCode, ErrorName, ErrorObject, Graph, Heap, Item,
    JsString, ObjId, Object, Props, RegExpFlags, Value, View, ViewKind,
};
use serde_json::{Map, Value as Json, json};
use std::collections::HashMap;

// ------------------------------------------------------------------------------------ output

/// A number as the neutral description writes it: a JSON number when finite and not `-0`, else
/// `"NaN"`, `"Infinity"`, `"-Infinity"` or `"-0"`.
pub fn number_to_json(n: f64) -> Json {
    if n.is_nan() {
        return json!("NaN");
    }
    if n.is_infinite() {
        return json!(if n > 0.0 { "Infinity" } else { "-Infinity" });
    }
    if n == 0.0 && n.is_sign_negative() {
        return json!("-0");
    }
    if n.fract() == 0.0 && n.abs() <= 9007199254740992.0 {
        return json!(n as i64);
    }
    serde_json::Number::from_f64(n)
        .map(Json::Number)
        .unwrap_or(Json::Null)
}

/// A string-valued field (property key, RegExp source, Error message/stack): the text, or
/// `{"u16": [...]}` when it holds a lone surrogate.
pub fn str_field(s: &JsString) -> Json {
    match s.to_rust_string() {
        Some(text) => Json::String(text),
        None => json!({ "u16": s.to_utf16() }),
    }
}

/// `"v": text` or `"u16": [...]` into a description object.
fn put_string(o: &mut Map<String, Json>, s: &JsString) {
    match s.to_rust_string() {
        Some(text) => {
            o.insert("v".into(), Json::String(text));
        }
        None => {
            o.insert("u16".into(), json!(s.to_utf16()));
        }
    }
}

fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(A[(n >> 18) as usize & 63] as char);
        out.push(A[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if c.len() > 2 {
            A[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

fn unbase64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0;
    let mut pad = 0;
    for ch in s.bytes() {
        let v = match ch {
            b'A'..=b'Z' => ch - b'A',
            b'a'..=b'z' => ch - b'a' + 26,
            b'0'..=b'9' => ch - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad += 1;
                continue;
            }
            _ => return None,
        };
        if pad > 0 {
            return None;
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

enum Task<'g> {
    Visit(&'g Value),
    VisitObj(ObjId),
    AssignId(ObjId),
    Build(Build<'g>),
}

enum Build<'g> {
    Object(u32, &'g [JsString]),
    Array(u32, &'g Array, &'g [Item], &'g [JsString]),
    Map(u32, usize),
    Set(u32, usize),
    Error(u32, &'g ErrorObject),
    View(ObjId, &'g View),
}

/// The neutral description of a graph (SC-N-*, `vectors/SCHEMA.md`).
///
/// Works without recursion, so any depth the decoder accepted can be described.
pub fn to_json(graph: &Graph) -> Json {
    let heap = &graph.heap;
    let mut ids: HashMap<ObjId, u32> = HashMap::new();
    let mut next: u32 = 0;
    let mut tasks: Vec<Task<'_>> = vec![Task::Visit(&graph.root)];
    let mut results: Vec<Json> = Vec::new();
    while let Some(task) = tasks.pop() {
        match task {
            Task::Visit(v) => match v {
                Value::Undefined => results.push(json!({"t": "undefined"})),
                Value::Null => results.push(json!({"t": "null"})),
                Value::Bool(b) => results.push(json!({"t": "bool", "v": b})),
                Value::Number(n) => results.push(json!({"t": "number", "v": number_to_json(*n)})),
                Value::BigInt(b) => results.push(json!({"t": "bigint", "v": b.to_decimal()})),
                Value::String(s) => {
                    let mut o = Map::new();
                    o.insert("t".into(), json!("string"));
                    put_string(&mut o, s);
                    results.push(Json::Object(o));
                }
                Value::Object(id) => tasks.push(Task::VisitObj(*id)),
            },
            Task::AssignId(id) => {
                ids.insert(id, next);
                next += 1;
            }
            Task::VisitObj(id) => {
                if let Some(n) = ids.get(&id) {
                    results.push(json!({"t": "ref", "id": n}));
                    continue;
                }
                let Some(obj) = heap.get(id) else {
                    results.push(json!({"t": "undefined", "dangling": id.0}));
                    continue;
                };
                if let Object::View(view) = obj {
                    // SC-N-01: the buffer is visited first, then the view takes the next id.
                    tasks.push(Task::Build(Build::View(id, view)));
                    tasks.push(Task::AssignId(id));
                    tasks.push(Task::VisitObj(view.buffer));
                    continue;
                }
                let n = next;
                ids.insert(id, n);
                next += 1;
                let mut o = Map::new();
                o.insert("t".into(), json!(obj.kind_name()));
                o.insert("id".into(), json!(n));
                match obj {
                    Object::Plain(props) => {
                        let (Some(keys), Some(values)) =
                            (heap.get_keys(*props), heap.get_values(*props))
                        else {
                            results.push(json!({"t": "undefined", "dangling": id.0}));
                            continue;
                        };
                        tasks.push(Task::Build(Build::Object(n, keys)));
                        for v in values.iter().rev() {
                            tasks.push(Task::Visit(v));
                        }
                        continue;
                    }
                    Object::Array(arr) => {
                        let (Some(items), Some(keys), Some(values)) = (
                            heap.get_items(arr.items),
                            heap.get_keys(arr.props),
                            heap.get_values(arr.props),
                        ) else {
                            results.push(json!({"t": "undefined", "dangling": id.0}));
                            continue;
                        };
                        tasks.push(Task::Build(Build::Array(n, arr, items, keys)));
                        for v in values.iter().rev() {
                            tasks.push(Task::Visit(v));
                        }
                        for (_, v) in items.iter().rev() {
                            tasks.push(Task::Visit(v));
                        }
                        continue;
                    }
                    Object::Map(entries) => {
                        tasks.push(Task::Build(Build::Map(n, entries.len())));
                        for (k, v) in entries.iter().rev() {
                            tasks.push(Task::Visit(v));
                            tasks.push(Task::Visit(k));
                        }
                        continue;
                    }
                    Object::Set(values) => {
                        tasks.push(Task::Build(Build::Set(n, values.len())));
                        for v in values.iter().rev() {
                            tasks.push(Task::Visit(v));
                        }
                        continue;
                    }
                    Object::Error(err) => {
                        tasks.push(Task::Build(Build::Error(n, err)));
                        if let Some(c) = &err.cause {
                            tasks.push(Task::Visit(c));
                        }
                        continue;
                    }
                    Object::Date(t) => {
                        o.insert("v".into(), number_to_json(*t));
                    }
                    Object::RegExp { source, flags } => {
                        o.insert("source".into(), str_field(source));
                        o.insert("flags".into(), json!(flags.to_letters()));
                    }
                    Object::BooleanObject(b) => {
                        o.insert("v".into(), json!(b));
                    }
                    Object::NumberObject(x) => {
                        o.insert("v".into(), number_to_json(*x));
                    }
                    Object::BigIntObject(b) => {
                        o.insert("v".into(), json!(b.to_decimal()));
                    }
                    Object::StringObject(s) => put_string(&mut o, s),
                    Object::ArrayBuffer(buf) => {
                        o.insert("base64".into(), json!(base64(&buf.data)));
                        if let Some(m) = buf.max_byte_length {
                            o.insert("max_byte_length".into(), json!(m));
                        }
                    }
                    Object::View(_) => unreachable!(),
                }
                results.push(Json::Object(o));
            }
            Task::Build(b) => {
                // Children are moved in, never passed through `json!` (which would re-serialize them).
                let mut o = Map::new();
                let built = match b {
                    Build::Object(id, keys) => {
                        let vals = results.split_off(results.len() - keys.len());
                        let props: Vec<Json> = keys
                            .iter()
                            .zip(vals)
                            .map(|(k, v)| Json::Array(vec![str_field(k), v]))
                            .collect();
                        o.insert("t".into(), json!("object"));
                        o.insert("id".into(), json!(id));
                        o.insert("props".into(), Json::Array(props));
                        Json::Object(o)
                    }
                    Build::Array(id, arr, items, props) => {
                        let mut vals = results.split_off(results.len() - items.len() - props.len());
                        let pvals = vals.split_off(items.len());
                        let items: Vec<Json> = items
                            .iter()
                            .zip(vals)
                            .map(|((i, _), v)| Json::Array(vec![json!(i), v]))
                            .collect();
                        let props: Vec<Json> = props
                            .iter()
                            .zip(pvals)
                            .map(|(k, v)| Json::Array(vec![str_field(k), v]))
                            .collect();
                        o.insert("t".into(), json!("array"));
                        o.insert("id".into(), json!(id));
                        o.insert("length".into(), json!(arr.length));
                        o.insert("items".into(), Json::Array(items));
                        o.insert("props".into(), Json::Array(props));
                        Json::Object(o)
                    }
                    Build::Map(id, n) => {
                        let vals = results.split_off(results.len() - 2 * n);
                        let mut it = vals.into_iter();
                        let mut entries = Vec::with_capacity(n);
                        while let (Some(k), Some(v)) = (it.next(), it.next()) {
                            entries.push(Json::Array(vec![k, v]));
                        }
                        o.insert("t".into(), json!("map"));
                        o.insert("id".into(), json!(id));
                        o.insert("entries".into(), Json::Array(entries));
                        Json::Object(o)
                    }
                    Build::Set(id, n) => {
                        let vals = results.split_off(results.len() - n);
                        o.insert("t".into(), json!("set"));
                        o.insert("id".into(), json!(id));
                        o.insert("values".into(), Json::Array(vals));
                        Json::Object(o)
                    }
                    Build::Error(id, err) => {
                        o.insert("t".into(), json!("error"));
                        o.insert("id".into(), json!(id));
                        o.insert("name".into(), json!(err.name.name()));
                        if let Some(m) = &err.message {
                            o.insert("message".into(), str_field(m));
                        }
                        if let Some(s) = &err.stack {
                            o.insert("stack".into(), str_field(s));
                        }
                        if err.cause.is_some() {
                            o.insert("cause".into(), results.pop().unwrap_or(Json::Null));
                        }
                        Json::Object(o)
                    }
                    Build::View(obj, view) => {
                        let buffer = results.pop().unwrap_or(Json::Null);
                        o.insert("t".into(), json!("view"));
                        o.insert("id".into(), json!(ids.get(&obj).copied().unwrap_or(0)));
                        o.insert("kind".into(), json!(view.kind.name()));
                        o.insert("buffer".into(), buffer);
                        o.insert("byte_offset".into(), json!(view.byte_offset));
                        o.insert("byte_length".into(), json!(view.byte_length));
                        o.insert("length_tracking".into(), json!(view.length_tracking));
                        Json::Object(o)
                    }
                };
                results.push(built);
            }
        }
    }
    results.pop().unwrap_or(Json::Null)
}

// ------------------------------------------------------------------------------------- input

fn bad(msg: &'static str) -> Error {
    Error::new(ErrorCode::DataClone, 0, msg)
}

/// Builds a graph from a neutral description.
///
/// Errors are `SC_DATA_CLONE` (offset 0): a description that is malformed, references an id that was
/// not described before, or reuses an id. Works without recursion, so any depth is safe.
pub fn from_json(json: &Json) -> Result<Graph, Error> {
    let mut b = Builder {
        heap: Heap::new(),
        ids: HashMap::new(),
    };
    let root = b.build(json)?;
    Ok(Graph { heap: b.heap, root })
}

struct Builder {
    heap: Heap,
    ids: HashMap<u64, ObjId>,
}

/// A container waiting for its children's values (which sit on the result stack).
enum Pending<'j> {
    Object(ObjId, &'j [Json]),
    Array(ObjId, u32, &'j [Json], &'j [Json]),
    Map(ObjId, usize),
    Set(ObjId, usize),
    View(&'j Map<String, Json>),
    Error(ObjId),
}

enum Work<'j> {
    Visit(&'j Json),
    Finish(Pending<'j>),
}

fn get<'j>(o: &'j Map<String, Json>, k: &str) -> Result<&'j Json, Error> {
    o.get(k)
        .ok_or_else(|| bad("neutral description misses a field"))
}

fn u32_of(j: &Json) -> Result<u32, Error> {
    j.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| bad("expected an integer 0..2^32-1"))
}

/// A neutral number (`v` of numbers, dates, number objects).
pub fn number_from_json(j: &Json) -> Option<f64> {
    match j {
        Json::Number(n) => n.as_f64(),
        Json::String(s) => match s.as_str() {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            "-0" => Some(-0.0),
            _ => None,
        },
        _ => None,
    }
}

fn units_of(j: &Json) -> Result<JsString, Error> {
    let arr = j.as_array().ok_or_else(|| bad("u16 must be an array"))?;
    let mut u = Vec::with_capacity(arr.len());
    for x in arr {
        u.push(
            x.as_u64()
                .and_then(|n| u16::try_from(n).ok())
                .ok_or_else(|| bad("u16 items are 0..65535"))?,
        );
    }
    Ok(JsString::from_utf16(u).compact())
}

/// A string-valued field: a JSON string or `{"u16": [...]}`.
pub fn str_field_from_json(j: &Json) -> Result<JsString, Error> {
    match j {
        Json::String(s) => Ok(JsString::from_str(s)),
        Json::Object(o) => units_of(get(o, "u16")?),
        _ => Err(bad("a string field must be a string or {\"u16\": [...]}")),
    }
}

/// `"v": text` or `"u16": [...]` of a description object.
fn string_of(o: &Map<String, Json>) -> Result<JsString, Error> {
    if let Some(Json::String(s)) = o.get("v") {
        return Ok(JsString::from_str(s));
    }
    units_of(get(o, "u16")?)
}

impl Builder {
    fn register(&mut self, o: &Map<String, Json>, object: Object) -> Result<ObjId, Error> {
        let id = get(o, "id")?
            .as_u64()
            .ok_or_else(|| bad("id must be an integer"))?;
        let obj = self.heap.alloc(object);
        if self.ids.insert(id, obj).is_some() {
            return Err(bad("neutral id used twice"));
        }
        Ok(obj)
    }

    fn set(&mut self, obj: ObjId, object: Object) {
        if let Some(slot) = self.heap.get_mut(obj) {
            *slot = object;
        }
    }

    /// Builds the value of one description, children first-visit in document order (ids resolve as
    /// they are met, so `ref`s to enclosing objects work).
    fn build(&mut self, root: &Json) -> Result<Value, Error> {
        let mut work: Vec<Work<'_>> = vec![Work::Visit(root)];
        let mut results: Vec<Value> = Vec::new();
        while let Some(w) = work.pop() {
            match w {
                Work::Visit(j) => {
                    if let Some(v) = self.visit(j, &mut work)? {
                        results.push(v);
                    }
                }
                Work::Finish(p) => {
                    let v = self.finish(p, &mut results)?;
                    results.push(v);
                }
            }
        }
        results
            .pop()
            .ok_or_else(|| bad("empty neutral description"))
    }

    /// A leaf's value, or `None` after queueing a container's children and its `Finish`.
    fn visit<'j>(&mut self, j: &'j Json, work: &mut Vec<Work<'j>>) -> Result<Option<Value>, Error> {
        let o = j
            .as_object()
            .ok_or_else(|| bad("a neutral value is a JSON object"))?;
        let t = get(o, "t")?
            .as_str()
            .ok_or_else(|| bad("t must be a string"))?;
        let num = |k: &str| -> Result<f64, Error> {
            number_from_json(get(o, k)?).ok_or_else(|| bad("bad neutral number"))
        };
        let bigint = |k: &str| -> Result<BigInt, Error> {
            get(o, k)?
                .as_str()
                .and_then(BigInt::parse_decimal)
                .ok_or_else(|| bad("bad neutral bigint"))
        };
        let list = |k: &str| -> Result<&'j [Json], Error> {
            get(o, k)?
                .as_array()
                .map(Vec::as_slice)
                .ok_or_else(|| bad("expected an array"))
        };
        let pair = |x: &'j Json| -> Result<(&'j Json, &'j Json), Error> {
            match x.as_array().map(Vec::as_slice) {
                Some([a, b]) => Ok((a, b)),
                _ => Err(bad("expected a [key, value] pair")),
            }
        };
        Ok(Some(match t {
            "undefined" => Value::Undefined,
            "null" => Value::Null,
            "bool" => Value::Bool(
                get(o, "v")?
                    .as_bool()
                    .ok_or_else(|| bad("bool v must be a boolean"))?,
            ),
            "number" => Value::Number(num("v")?),
            "bigint" => Value::BigInt(bigint("v")?),
            "string" => Value::String(string_of(o)?),
            "ref" => {
                let id = get(o, "id")?
                    .as_u64()
                    .ok_or_else(|| bad("id must be an integer"))?;
                Value::Object(
                    *self
                        .ids
                        .get(&id)
                        .ok_or_else(|| bad("neutral ref to unknown id"))?,
                )
            }
            "object" => {
                let obj = self.register(o, Object::Plain(Props::EMPTY))?;
                let props = list("props")?;
                work.push(Work::Finish(Pending::Object(obj, props)));
                for p in props.iter().rev() {
                    work.push(Work::Visit(pair(p)?.1));
                }
                return Ok(None);
            }
            "array" => {
                let obj = self.register(o, Object::Array(Array::default()))?;
                let length = u32_of(get(o, "length")?)?;
                let (items, props) = (list("items")?, list("props")?);
                work.push(Work::Finish(Pending::Array(obj, length, items, props)));
                for p in props.iter().rev() {
                    work.push(Work::Visit(pair(p)?.1));
                }
                for it in items.iter().rev() {
                    work.push(Work::Visit(pair(it)?.1));
                }
                return Ok(None);
            }
            "map" => {
                let obj = self.register(o, Object::Map(Vec::new()))?;
                let entries = list("entries")?;
                work.push(Work::Finish(Pending::Map(obj, entries.len())));
                for e in entries.iter().rev() {
                    let (k, v) = pair(e)?;
                    work.push(Work::Visit(v));
                    work.push(Work::Visit(k));
                }
                return Ok(None);
            }
            "set" => {
                let obj = self.register(o, Object::Set(Vec::new()))?;
                let values = list("values")?;
                work.push(Work::Finish(Pending::Set(obj, values.len())));
                for v in values.iter().rev() {
                    work.push(Work::Visit(v));
                }
                return Ok(None);
            }
            "view" => {
                // SC-N-01: the buffer first, then the view.
                work.push(Work::Finish(Pending::View(o)));
                work.push(Work::Visit(get(o, "buffer")?));
                return Ok(None);
            }
            "error" => {
                let name = ErrorName::from_name(get(o, "name")?.as_str().unwrap_or("Error"));
                let message = o.get("message").map(str_field_from_json).transpose()?;
                let stack = o.get("stack").map(str_field_from_json).transpose()?;
                let err = ErrorObject {
                    name,
                    message,
                    stack,
                    cause: None,
                };
                let obj = self.register(o, Object::Error(Box::new(err)))?;
                match o.get("cause") {
                    Some(c) => {
                        work.push(Work::Finish(Pending::Error(obj)));
                        work.push(Work::Visit(c));
                        return Ok(None);
                    }
                    None => Value::Object(obj),
                }
            }
            "date" => {
                let t = num("v")?;
                Value::Object(self.register(o, Object::Date(t))?)
            }
            "regexp" => {
                let source = str_field_from_json(get(o, "source")?)?;
                let flags = get(o, "flags")?
                    .as_str()
                    .and_then(RegExpFlags::from_letters)
                    .ok_or_else(|| bad("bad RegExp flags"))?;
                Value::Object(self.register(o, Object::RegExp { source, flags })?)
            }
            "boolean-object" => {
                let b = get(o, "v")?
                    .as_bool()
                    .ok_or_else(|| bad("v must be a boolean"))?;
                Value::Object(self.register(o, Object::BooleanObject(b))?)
            }
            "number-object" => {
                let n = num("v")?;
                Value::Object(self.register(o, Object::NumberObject(n))?)
            }
            "bigint-object" => {
                let b = bigint("v")?;
                Value::Object(self.register(o, Object::BigIntObject(b))?)
            }
            "string-object" => {
                let s = string_of(o)?;
                Value::Object(self.register(o, Object::StringObject(s))?)
            }
            "arraybuffer" => {
                let data = get(o, "base64")?
                    .as_str()
                    .and_then(unbase64)
                    .ok_or_else(|| bad("bad base64"))?;
                let max_byte_length = match o.get("max_byte_length") {
                    None | Some(Json::Null) => None,
                    Some(m) => Some(u32_of(m)?),
                };
                Value::Object(self.register(
                    o,
                    Object::ArrayBuffer(ArrayBuffer {
                        data,
                        max_byte_length,
                    }),
                )?)
            }
            _ => return Err(bad("unknown neutral type")),
        }))
    }

    /// Assembles a container from its children's values, the last ones on `results`.
    fn finish(&mut self, p: Pending<'_>, results: &mut Vec<Value>) -> Result<Value, Error> {
        let mut take = |n: usize| -> Result<Vec<Value>, Error> {
            if n > results.len() {
                return Err(bad("internal: missing child values"));
            }
            Ok(results.split_off(results.len() - n))
        };
        Ok(match p {
            Pending::Object(obj, props) => {
                let vals = take(props.len())?;
                let mut out = Vec::with_capacity(props.len());
                for (p, v) in props.iter().zip(vals) {
                    out.push((str_field_from_json(&p[0])?, v));
                }
                let plain = self.heap.plain(out);
                self.set(obj, plain);
                Value::Object(obj)
            }
            Pending::Array(obj, length, items, props) => {
                let mut vals = take(items.len() + props.len())?;
                let pvals = vals.split_off(items.len());
                let mut its = Vec::with_capacity(items.len());
                for (it, v) in items.iter().zip(vals) {
                    its.push((u32_of(&it[0])?, v));
                }
                its.sort_by_key(|(i, _)| *i);
                let mut ps = Vec::with_capacity(props.len());
                for (p, v) in props.iter().zip(pvals) {
                    ps.push((str_field_from_json(&p[0])?, v));
                }
                let arr = self.heap.sparse(length, its, ps);
                self.set(obj, Object::Array(arr));
                Value::Object(obj)
            }
            Pending::Map(obj, n) => {
                let vals = take(2 * n)?;
                let mut it = vals.into_iter();
                let mut entries = Vec::with_capacity(n);
                while let (Some(k), Some(v)) = (it.next(), it.next()) {
                    entries.push((k, v));
                }
                self.set(obj, Object::Map(entries));
                Value::Object(obj)
            }
            Pending::Set(obj, n) => {
                let vals = take(n)?;
                self.set(obj, Object::Set(vals));
                Value::Object(obj)
            }
            Pending::View(o) => {
                let buffer = take(1)?
                    .pop()
                    .and_then(|v| v.as_object())
                    .ok_or_else(|| bad("a view's buffer must be an object"))?;
                let kind = get(o, "kind")?
                    .as_str()
                    .and_then(ViewKind::from_name)
                    .ok_or_else(|| bad("unknown view kind"))?;
                let view = View {
                    kind,
                    buffer,
                    byte_offset: u32_of(get(o, "byte_offset")?)?,
                    byte_length: u32_of(get(o, "byte_length")?)?,
                    length_tracking: o
                        .get("length_tracking")
                        .and_then(Json::as_bool)
                        .unwrap_or(false),
                };
                Value::Object(self.register(o, Object::View(view))?)
            }
            Pending::Error(obj) => {
                let cause = take(1)?.pop();
                if let Some(Object::Error(e)) = self.heap.get_mut(obj) {
                    e.cause = cause;
                }
                Value::Object(obj)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trip() {
        for n in 0..20usize {
            let data: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(unbase64(&base64(&data)).unwrap(), data);
        }
        assert_eq!(base64(b"\x00\x01"), "AAE=");
        assert_eq!(unbase64("AAE=").unwrap(), vec![0, 1]);
        assert!(unbase64("A*").is_none());
    }

    #[test]
    fn numbers() {
        assert_eq!(number_to_json(-0.0), json!("-0"));
        assert_eq!(number_to_json(f64::NAN), json!("NaN"));
        assert_eq!(number_to_json(1.5), json!(1.5));
        assert_eq!(number_to_json(3.0), json!(3));
        assert_eq!(
            number_from_json(&json!("-0")).map(|x| x.is_sign_negative()),
            Some(true)
        );
    }

    #[test]
    fn ids_in_first_visit_order_and_refs() {
        let j = json!({"t": "array", "id": 0, "length": 2, "props": [], "items": [
            [0, {"t": "view", "id": 2, "kind": "Uint8Array", "buffer": {"t": "arraybuffer", "id": 1, "base64": "AAE="},
                 "byte_offset": 0, "byte_length": 2, "length_tracking": false}],
            [1, {"t": "ref", "id": 0}]
        ]});
        let g = from_json(&j).unwrap();
        assert_eq!(to_json(&g), j);
    }
}
