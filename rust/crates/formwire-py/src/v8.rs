//! `formwire.v8`: Python values to and from the V8 ValueSerializer format
//! (formwire-v8).
//!
//! Mapping (the Python helper classes live in `formwire/v8.py`):
//!
//! | JS | Python |
//! |---|---|
//! | undefined / null | `formwire.v8.undefined` / `None` |
//! | boolean | `bool` |
//! | number | `int` when integral, not -0 and within ±(2^53-1), else `float` (-0.0, nan, inf kept) |
//! | BigInt | `JSBigInt` (an `int`); a Python `int` outside ±(2^53-1) is written as a BigInt |
//! | string | `str`, lone surrogates kept as code points U+D800..U+DFFF (`surrogatepass`) |
//! | object / Map | `dict` (str keys) / `JSMap` (a dict; a dict with any non-str key is written as a Map) |
//! | array | `list` (dense, no extra properties; `tuple` writes one too) / `JSArray` otherwise |
//! | Set | `set` (`frozenset` writes one too) |
//! | Date | `datetime` in UTC (`JSDate` for an invalid or out-of-range date) |
//! | RegExp | `JSRegExp(source, flags)` |
//! | wrappers | `JSBoxed(value)` |
//! | ArrayBuffer | `bytearray` |
//! | Uint8Array / Node Buffer | `bytes` (the viewed range) |
//! | other views | `JSView(kind, data)` |
//! | Error | `JSError(name, message, stack, cause)` |
//!
//! Object identity (shared references, cycles) is kept both ways.

use std::collections::HashMap;

use formwire_v8::neutral;
use formwire_v8::{DecodeOptions, EncodeOptions, ErrorCode, Graph};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple, PyType,
};
use serde_json::{Map, Value as Json, json};

use crate::errors;
use crate::util::Buf;

// The conversion goes through formwire-v8's neutral value description (vectors/SCHEMA.md, a shared
// contract) rather than its in-memory value model, which is free to change.

const MAX_SAFE: f64 = 9007199254740991.0;

/// The helper classes of `formwire.v8`, imported once.
struct Classes {
    undefined: Py<PyAny>,
    bigint: Py<PyType>,
    map: Py<PyType>,
    array: Py<PyType>,
    date: Py<PyType>,
    regexp: Py<PyType>,
    boxed: Py<PyType>,
    view: Py<PyType>,
    error: Py<PyType>,
    datetime: Py<PyType>,
    from_ms: Py<PyAny>,
    to_ms: Py<PyAny>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

fn classes(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES.get_or_try_init(py, || {
        let m = py.import("formwire.v8")?;
        let t = |n: &str| -> PyResult<Py<PyType>> { Ok(m.getattr(n)?.cast_into::<PyType>()?.unbind()) };
        Ok(Classes {
            undefined: m.getattr("undefined")?.unbind(),
            bigint: t("JSBigInt")?,
            map: t("JSMap")?,
            array: t("JSArray")?,
            date: t("JSDate")?,
            regexp: t("JSRegExp")?,
            boxed: t("JSBoxed")?,
            view: t("JSView")?,
            error: t("JSError")?,
            datetime: py.import("datetime")?.getattr("datetime")?.cast_into::<PyType>()?.unbind(),
            from_ms: m.getattr("_date_from_ms")?.unbind(),
            to_ms: m.getattr("_date_to_ms")?.unbind(),
        })
    })
}

fn data_clone(py: Python<'_>, what: &str) -> PyErr {
    errors::v8_code(py, ErrorCode::DataClone, 0, what)
}

fn bad(what: &str) -> PyErr {
    PyValueError::new_err(format!("unexpected neutral description: {what}"))
}

// ---------------------------------------------------------------------------
// Strings

/// A Python str as JS code units: code points above U+FFFF become surrogate
/// pairs, lone surrogates stay lone. `None` when the str is plain UTF-8 text.
fn units(s: &Bound<'_, PyString>) -> Option<Vec<u16>> {
    if s.to_str().is_ok() {
        return None;
    }
    let p = s.as_ptr();
    // SAFETY: `p` is a (ready) str object; DATA holds LENGTH units of KIND bytes.
    unsafe {
        let len = ffi::PyUnicode_GET_LENGTH(p) as usize;
        let data = ffi::PyUnicode_DATA(p);
        Some(match ffi::PyUnicode_KIND(p) {
            ffi::PyUnicode_1BYTE_KIND => std::slice::from_raw_parts(data as *const u8, len).iter().map(|&b| b as u16).collect(),
            ffi::PyUnicode_2BYTE_KIND => std::slice::from_raw_parts(data as *const u16, len).to_vec(),
            _ => {
                let mut u = Vec::with_capacity(len + 8);
                for &c in std::slice::from_raw_parts(data as *const u32, len) {
                    if c > 0xFFFF {
                        let c = c - 0x10000;
                        u.push(0xD800 | (c >> 10) as u16);
                        u.push(0xDC00 | (c & 0x3FF) as u16);
                    } else {
                        u.push(c as u16);
                    }
                }
                u
            }
        })
    }
}

/// JS code units as a Python str: surrogate pairs combine, lone surrogates stay code points.
fn py_from_units<'py>(py: Python<'py>, u: &[u16]) -> PyResult<Bound<'py, PyAny>> {
    let mut cps: Vec<u32> = Vec::with_capacity(u.len());
    let mut i = 0;
    while i < u.len() {
        let c = u[i];
        if (0xD800..0xDC00).contains(&c) && i + 1 < u.len() && (0xDC00..0xE000).contains(&u[i + 1]) {
            cps.push(0x10000 + (((c as u32) - 0xD800) << 10) + ((u[i + 1] as u32) - 0xDC00));
            i += 2;
        } else {
            cps.push(c as u32);
            i += 1;
        }
    }
    // SAFETY: PyUnicode_FromKindAndData copies `len` 4-byte code points.
    unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyUnicode_FromKindAndData(ffi::PyUnicode_4BYTE_KIND as _, cps.as_ptr().cast(), cps.len() as isize),
        )
    }
}

/// A neutral string field (`"text"` or `{"u16": [...]}`) as a Python str.
fn py_str_field<'py>(py: Python<'py>, j: &Json) -> PyResult<Bound<'py, PyAny>> {
    match j {
        Json::String(s) => Ok(PyString::new(py, s).into_any()),
        Json::Object(o) => py_from_units(py, &u16s(o.get("u16").ok_or_else(|| bad("string field"))?)?),
        _ => Err(bad("string field")),
    }
}

fn u16s(j: &Json) -> PyResult<Vec<u16>> {
    j.as_array()
        .ok_or_else(|| bad("u16"))?
        .iter()
        .map(|x| x.as_u64().and_then(|n| u16::try_from(n).ok()).ok_or_else(|| bad("u16")))
        .collect()
}

/// A Python str as a neutral string field.
fn str_field(s: &Bound<'_, PyString>) -> PyResult<Json> {
    Ok(match units(s) {
        None => Json::String(s.to_str()?.to_owned()),
        Some(u) => json!({ "u16": u }),
    })
}

fn key_field(k: &Bound<'_, PyAny>) -> PyResult<Json> {
    match k.cast::<PyString>() {
        Ok(s) => str_field(s),
        Err(_) => Err(PyTypeError::new_err("object keys must be str")),
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            out.push(if i <= c.len() { B64[(n >> shift) as usize & 63] as char } else { '=' });
        }
    }
    out
}

fn unbase64(s: &str) -> PyResult<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in s.as_bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return Err(bad("base64")),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Python -> neutral description

struct ToJs<'py> {
    py: Python<'py>,
    c: &'py Classes,
    next_id: u64,
    memo: HashMap<usize, u64>,
    /// Keeps every memoized object alive (ids stay unique).
    keep: Vec<Bound<'py, PyAny>>,
    max_depth: u32,
}

impl<'py> ToJs<'py> {
    fn int(&mut self, o: &Bound<'py, PyAny>, force_bigint: bool) -> PyResult<Json> {
        if !force_bigint {
            if let Ok(v) = o.extract::<i64>() {
                if v.unsigned_abs() <= MAX_SAFE as u64 {
                    return Ok(json!({"t": "number", "v": v}));
                }
            }
        }
        let text = o.call_method0("__index__")?.str()?.to_str()?.to_owned();
        Ok(json!({"t": "bigint", "v": text}))
    }

    /// The next object id (first-visit depth-first order), remembered for `o`.
    fn id(&mut self, o: &Bound<'py, PyAny>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.memo.insert(o.as_ptr() as usize, id);
        self.keep.push(o.clone());
        id
    }

    fn fresh_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn value(&mut self, o: &Bound<'py, PyAny>, depth: u32) -> PyResult<Json> {
        let py = self.py;
        let c = self.c;
        if o.is_none() {
            return Ok(json!({"t": "null"}));
        }
        if o.is(c.undefined.bind(py)) {
            return Ok(json!({"t": "undefined"}));
        }
        if let Ok(b) = o.cast::<PyBool>() {
            return Ok(json!({"t": "bool", "v": b.is_true()}));
        }
        if let Ok(s) = o.cast::<PyString>() {
            let mut m = Map::new();
            m.insert("t".into(), json!("string"));
            match units(s) {
                None => m.insert("v".into(), Json::String(s.to_str()?.to_owned())),
                Some(u) => m.insert("u16".into(), json!(u)),
            };
            return Ok(Json::Object(m));
        }
        if o.is_instance(c.bigint.bind(py))? {
            return self.int(o, true);
        }
        if o.is_instance_of::<PyInt>() {
            return self.int(o, false);
        }
        if let Ok(f) = o.cast::<PyFloat>() {
            return Ok(json!({"t": "number", "v": neutral::number_to_json(f.value())}));
        }
        if let Some(&id) = self.memo.get(&(o.as_ptr() as usize)) {
            return Ok(json!({"t": "ref", "id": id}));
        }
        if depth >= self.max_depth {
            return Err(errors::v8_code(py, ErrorCode::LimitDepth, 0, "nesting deeper than max_depth"));
        }
        let d = depth + 1;
        if let Ok(dict) = o.cast::<PyDict>() {
            let as_map = o.is_instance(c.map.bind(py))? || dict.keys().iter().any(|k| !k.is_instance_of::<PyString>());
            let id = self.id(o);
            if as_map {
                let mut entries = Vec::with_capacity(dict.len());
                for (k, v) in dict.iter() {
                    entries.push(json!([self.value(&k, d)?, self.value(&v, d)?]));
                }
                return Ok(json!({"t": "map", "id": id, "entries": entries}));
            }
            let mut props = Vec::with_capacity(dict.len());
            for (k, v) in dict.iter() {
                props.push(json!([key_field(&k)?, self.value(&v, d)?]));
            }
            return Ok(json!({"t": "object", "id": id, "props": props}));
        }
        if o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>() {
            let id = self.id(o);
            let mut items = Vec::with_capacity(o.len()?);
            for (i, x) in o.try_iter()?.enumerate() {
                items.push(json!([i, self.value(&x?, d)?]));
            }
            return Ok(json!({"t": "array", "id": id, "length": items.len(), "items": items, "props": []}));
        }
        if o.is_instance(c.array.bind(py))? {
            let id = self.id(o);
            let length: u32 = o.getattr("length")?.extract()?;
            let items_d = o.getattr("items")?;
            let mut idx: Vec<(u32, Bound<'py, PyAny>)> = Vec::new();
            for (k, v) in items_d.cast::<PyDict>()?.iter() {
                let i: u32 = k.extract()?;
                if i >= length {
                    return Err(PyValueError::new_err("JSArray item index beyond length"));
                }
                idx.push((i, v));
            }
            idx.sort_by_key(|(i, _)| *i);
            let mut items = Vec::with_capacity(idx.len());
            for (i, v) in &idx {
                items.push(json!([i, self.value(v, d)?]));
            }
            let mut props = Vec::new();
            for (k, v) in o.getattr("props")?.cast::<PyDict>()?.iter() {
                props.push(json!([key_field(&k)?, self.value(&v, d)?]));
            }
            return Ok(json!({"t": "array", "id": id, "length": length, "items": items, "props": props}));
        }
        if o.is_instance_of::<PySet>() || o.is_instance_of::<PyFrozenSet>() {
            let id = self.id(o);
            let mut vals = Vec::with_capacity(o.len()?);
            for x in o.try_iter()? {
                vals.push(self.value(&x?, d)?);
            }
            return Ok(json!({"t": "set", "id": id, "values": vals}));
        }
        if o.is_instance_of::<PyBytes>() || o.is_instance(c.view.bind(py))? {
            // A view and its own buffer; the buffer is numbered first (SC-N-01).
            let (kind, data) = if let Ok(b) = o.cast::<PyBytes>() {
                ("Uint8Array".to_owned(), b.as_bytes().to_vec())
            } else {
                let kind: String = o.getattr("kind")?.extract()?;
                (kind, Buf::get(&o.getattr("data")?)?.as_slice().to_vec())
            };
            let bid = self.fresh_id();
            let id = self.id(o);
            let buffer = json!({"t": "arraybuffer", "id": bid, "base64": base64(&data)});
            return Ok(json!({"t": "view", "id": id, "kind": kind, "buffer": buffer, "byte_offset": 0,
                             "byte_length": data.len(), "length_tracking": false}));
        }
        if o.is_instance_of::<PyByteArray>() {
            let id = self.id(o);
            let data = Buf::get(o)?;
            return Ok(json!({"t": "arraybuffer", "id": id, "base64": base64(data.as_slice())}));
        }
        if o.is_instance(c.datetime.bind(py))? || o.is_instance(c.date.bind(py))? {
            let id = self.id(o);
            let ms: f64 = c.to_ms.bind(py).call1((o,))?.extract()?;
            return Ok(json!({"t": "date", "id": id, "v": neutral::number_to_json(ms)}));
        }
        if o.is_instance(c.regexp.bind(py))? {
            let id = self.id(o);
            let source = str_field(o.getattr("source")?.cast::<PyString>()?)?;
            let flags: String = o.getattr("flags")?.extract()?;
            return Ok(json!({"t": "regexp", "id": id, "source": source, "flags": flags}));
        }
        if o.is_instance(c.boxed.bind(py))? {
            let id = self.id(o);
            let v = o.getattr("value")?;
            let inner = self.value(&v, d)?;
            let (t, mut m) = match inner {
                Json::Object(m) => (m.get("t").and_then(Json::as_str).unwrap_or("").to_owned(), m),
                _ => return Err(bad("boxed")),
            };
            let kind = match t.as_str() {
                "bool" => "boolean-object",
                "number" => "number-object",
                "bigint" => "bigint-object",
                "string" => "string-object",
                _ => return Err(PyTypeError::new_err("JSBoxed holds a bool, number, JSBigInt or str")),
            };
            m.insert("t".into(), json!(kind));
            m.insert("id".into(), json!(id));
            return Ok(Json::Object(m));
        }
        if o.is_instance(c.error.bind(py))? {
            let id = self.id(o);
            let mut m = Map::new();
            m.insert("t".into(), json!("error"));
            m.insert("id".into(), json!(id));
            let name: String = o.getattr("name")?.extract()?;
            m.insert("name".into(), json!(name));
            for a in ["message", "stack"] {
                let v = o.getattr(a)?;
                if !v.is_none() {
                    m.insert(a.into(), str_field(v.cast::<PyString>()?)?);
                }
            }
            if o.getattr("has_cause")?.extract::<bool>()? {
                m.insert("cause".into(), self.value(&o.getattr("cause")?, d)?);
            }
            return Ok(Json::Object(m));
        }
        Err(data_clone(
            py,
            &format!("{} cannot be cloned", o.get_type().name().map(|n| n.to_string()).unwrap_or_default()),
        ))
    }
}

// ---------------------------------------------------------------------------
// Neutral description -> Python

struct ToPy<'py> {
    py: Python<'py>,
    c: &'py Classes,
    ids: HashMap<u64, Bound<'py, PyAny>>,
}

fn field<'a>(o: &'a Map<String, Json>, k: &str) -> PyResult<&'a Json> {
    o.get(k).ok_or_else(|| bad(k))
}

fn list<'a>(o: &'a Map<String, Json>, k: &str) -> PyResult<&'a Vec<Json>> {
    field(o, k)?.as_array().ok_or_else(|| bad(k))
}

impl<'py> ToPy<'py> {
    fn number(&self, j: &Json) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let n = neutral::number_from_json(j).ok_or_else(|| bad("number"))?;
        if n.is_finite() && n.fract() == 0.0 && n.abs() <= MAX_SAFE && !(n == 0.0 && n.is_sign_negative()) {
            return Ok((n as i64).into_pyobject(py)?.into_any());
        }
        Ok(PyFloat::new(py, n).into_any())
    }

    fn bigint(&self, j: &Json) -> PyResult<Bound<'py, PyAny>> {
        let text = j.as_str().ok_or_else(|| bad("bigint"))?;
        let v = self.py.get_type::<PyInt>().call1((text,))?;
        self.c.bigint.bind(self.py).call1((v,))
    }

    fn register(&mut self, o: &Map<String, Json>, obj: &Bound<'py, PyAny>) -> PyResult<()> {
        let id = field(o, "id")?.as_u64().ok_or_else(|| bad("id"))?;
        self.ids.insert(id, obj.clone());
        Ok(())
    }

    fn value(&mut self, j: &Json) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let c = self.c;
        let o = j.as_object().ok_or_else(|| bad("value"))?;
        let t = field(o, "t")?.as_str().ok_or_else(|| bad("t"))?;
        let out = match t {
            "undefined" => c.undefined.bind(py).clone(),
            "null" => py.None().into_bound(py),
            "bool" => PyBool::new(py, field(o, "v")?.as_bool().ok_or_else(|| bad("bool"))?).to_owned().into_any(),
            "number" => self.number(field(o, "v")?)?,
            "bigint" => self.bigint(field(o, "v")?)?,
            "string" => match o.get("v") {
                Some(Json::String(s)) => PyString::new(py, s).into_any(),
                _ => py_from_units(py, &u16s(field(o, "u16")?)?)?,
            },
            "ref" => {
                let id = field(o, "id")?.as_u64().ok_or_else(|| bad("id"))?;
                self.ids.get(&id).cloned().ok_or_else(|| bad("ref to an unknown id"))?
            }
            "object" => {
                let d = PyDict::new(py);
                self.register(o, d.as_any())?;
                for p in list(o, "props")? {
                    let p = p.as_array().ok_or_else(|| bad("prop"))?;
                    let (k, v) = (py_str_field(py, &p[0])?, self.value(&p[1])?);
                    d.set_item(k, v)?;
                }
                d.into_any()
            }
            "array" => {
                let length = field(o, "length")?.as_u64().ok_or_else(|| bad("length"))?;
                let items = list(o, "items")?;
                let props = list(o, "props")?;
                if props.is_empty() && items.len() as u64 == length {
                    let l = PyList::empty(py);
                    self.register(o, l.as_any())?;
                    for it in items {
                        l.append(self.value(&it[1])?)?;
                    }
                    l.into_any()
                } else {
                    let (di, dp) = (PyDict::new(py), PyDict::new(py));
                    let arr = c.array.bind(py).call1((length, &di, &dp))?;
                    self.register(o, &arr)?;
                    for it in items {
                        di.set_item(it[0].as_u64().ok_or_else(|| bad("index"))?, self.value(&it[1])?)?;
                    }
                    for p in props {
                        dp.set_item(py_str_field(py, &p[0])?, self.value(&p[1])?)?;
                    }
                    arr
                }
            }
            "map" => {
                let m = c.map.bind(py).call0()?;
                self.register(o, &m)?;
                for e in list(o, "entries")? {
                    let (k, v) = (self.value(&e[0])?, self.value(&e[1])?);
                    m.set_item(k, v)?;
                }
                m
            }
            "set" => {
                let s = PySet::empty(py)?;
                self.register(o, s.as_any())?;
                for v in list(o, "values")? {
                    s.add(self.value(v)?)?;
                }
                s.into_any()
            }
            "date" => {
                let ms = neutral::number_from_json(field(o, "v")?).ok_or_else(|| bad("date"))?;
                c.from_ms.bind(py).call1((ms,))?
            }
            "regexp" => {
                let flags = field(o, "flags")?.as_str().ok_or_else(|| bad("flags"))?;
                c.regexp.bind(py).call1((py_str_field(py, field(o, "source")?)?, flags))?
            }
            "boolean-object" => c.boxed.bind(py).call1((field(o, "v")?.as_bool().ok_or_else(|| bad("bool"))?,))?,
            "number-object" => {
                let n = neutral::number_from_json(field(o, "v")?).ok_or_else(|| bad("number"))?;
                c.boxed.bind(py).call1((PyFloat::new(py, n),))?
            }
            "bigint-object" => c.boxed.bind(py).call1((self.bigint(field(o, "v")?)?,))?,
            "string-object" => {
                let s = match o.get("v") {
                    Some(Json::String(s)) => PyString::new(py, s).into_any(),
                    _ => py_from_units(py, &u16s(field(o, "u16")?)?)?,
                };
                c.boxed.bind(py).call1((s,))?
            }
            "arraybuffer" => {
                let data = unbase64(field(o, "base64")?.as_str().ok_or_else(|| bad("base64"))?)?;
                PyByteArray::new(py, &data).into_any()
            }
            "view" => {
                let buffer = self.value(field(o, "buffer")?)?;
                let buf = Buf::get(&buffer)?;
                let data = buf.as_slice();
                let off = field(o, "byte_offset")?.as_u64().ok_or_else(|| bad("byte_offset"))? as usize;
                let len = field(o, "byte_length")?.as_u64().ok_or_else(|| bad("byte_length"))? as usize;
                // A length-tracking view runs to the end of its buffer; any other range must lie inside it
                // (the decoder guarantees this, so a failure here is a bug, reported rather than clamped).
                let tracking = o.get("length_tracking").and_then(|v| v.as_bool()).unwrap_or(false);
                let end = if tracking { Some(data.len()) } else { off.checked_add(len) };
                let (a, b) = match end {
                    Some(b) if off <= b && b <= data.len() => (off, b),
                    _ => return Err(bad("byte_offset/byte_length")),
                };
                let bytes = PyBytes::new(py, &data[a..b]);
                drop(buf);
                let kind = field(o, "kind")?.as_str().ok_or_else(|| bad("kind"))?;
                if kind == "Uint8Array" { bytes.into_any() } else { c.view.bind(py).call1((kind, bytes))? }
            }
            "error" => {
                let name = field(o, "name")?.as_str().unwrap_or("Error");
                let s = |k: &str| -> PyResult<Bound<'py, PyAny>> {
                    match o.get(k) {
                        Some(j) => py_str_field(py, j),
                        None => Ok(py.None().into_bound(py)),
                    }
                };
                let err = c.error.bind(py).call1((name, s("message")?, s("stack")?))?;
                self.register(o, &err)?;
                if let Some(cause) = o.get("cause") {
                    let cause = self.value(cause)?;
                    err.call_method1("_set_cause", (cause,))?;
                }
                return Ok(err);
            }
            _ => return Err(bad(t)),
        };
        if o.contains_key("id") && t != "ref" {
            self.register(o, &out)?;
        }
        Ok(out)
    }
}

/// `dumps(value, *, max_depth=1000) -> bytes`: V8 ValueSerializer v15 (canonical encoder).
#[pyfunction]
#[pyo3(signature = (value, *, max_depth=1000))]
pub fn v8_dumps<'py>(py: Python<'py>, value: &Bound<'py, PyAny>, max_depth: u32) -> PyResult<Bound<'py, PyBytes>> {
    let c = classes(py)?;
    let mut t = ToJs { py, c, next_id: 0, memo: HashMap::new(), keep: Vec::new(), max_depth };
    let j = t.value(value, 0)?;
    let g = neutral::from_json(&j).map_err(|e| errors::v8(py, &e))?;
    let mut opts = EncodeOptions::default();
    opts.max_depth = max_depth;
    let bytes = formwire_v8::encode_with(&g, &opts).map_err(|e| errors::v8(py, &e))?;
    Ok(PyBytes::new(py, &bytes))
}

/// `loads(data, *, max_depth=1000, max_bytes=268435456, node_ipc=False)`.
#[pyfunction]
#[pyo3(
    signature = (data, *, max_depth=Some(1000), max_bytes=Some(268435456), node_ipc=false),
    text_signature = "(data, *, max_depth=1000, max_bytes=268435456, node_ipc=False)"
)]
pub fn v8_loads<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    max_depth: Option<u32>,
    max_bytes: Option<u64>,
    node_ipc: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let c = classes(py)?;
    let g = decode(py, data, max_depth, max_bytes, node_ipc)?;
    let j = neutral::to_json(&g);
    drop(g);
    let mut t = ToPy { py, c, ids: HashMap::new() };
    t.value(&j)
}

pub(crate) fn decode(py: Python<'_>, data: &Bound<'_, PyAny>, max_depth: Option<u32>, max_bytes: Option<u64>, node_ipc: bool) -> PyResult<Graph> {
    let buf = Buf::get(data)?;
    let mut opts = DecodeOptions::default();
    opts.max_depth = max_depth.unwrap_or(u32::MAX);
    opts.max_bytes = max_bytes.unwrap_or(u64::MAX);
    opts.node_ipc = node_ipc;
    formwire_v8::decode_with(buf.as_slice(), &opts).map_err(|e| errors::v8(py, &e))
}
