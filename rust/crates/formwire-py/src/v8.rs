//! `formwire.v8`: Python values to and from the V8 ValueSerializer format
//! (formwire-v8), plus the neutral JSON description for the conformance testee.
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

use formwire_v8::{
    ArrayBuffer, BigInt, DecodeOptions, EncodeOptions, ErrorCode, ErrorName, ErrorObject, Graph, Heap,
    JsString, ObjId, Object, RegExpFlags, Span, Value, View, ViewKind,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple, PyType,
};

use crate::errors;
use crate::util::Buf;

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

// ---------------------------------------------------------------------------
// Strings

/// A Python str as JS code units: one-byte strings stay one-byte, code points
/// above U+FFFF become surrogate pairs, lone surrogates stay lone.
fn js_string(s: &Bound<'_, PyString>) -> JsString {
    let p = s.as_ptr();
    // SAFETY: `p` is a str object (ready, since 3.12 always; PyO3 targets ready strings).
    unsafe {
        let len = ffi::PyUnicode_GET_LENGTH(p) as usize;
        let data = ffi::PyUnicode_DATA(p);
        match ffi::PyUnicode_KIND(p) {
            ffi::PyUnicode_1BYTE_KIND => JsString::from_latin1_slice(std::slice::from_raw_parts(data as *const u8, len)),
            ffi::PyUnicode_2BYTE_KIND => {
                JsString::from_utf16(std::slice::from_raw_parts(data as *const u16, len).to_vec())
            }
            _ => {
                let cps = std::slice::from_raw_parts(data as *const u32, len);
                let mut units = Vec::with_capacity(len + 8);
                for &c in cps {
                    if c > 0xFFFF {
                        let c = c - 0x10000;
                        units.push(0xD800 | (c >> 10) as u16);
                        units.push(0xDC00 | (c & 0x3FF) as u16);
                    } else {
                        units.push(c as u16);
                    }
                }
                JsString::from_utf16(units)
            }
        }
    }
}

/// JS code units as a Python str: surrogate pairs combine, lone surrogates stay code points.
fn py_string<'py>(py: Python<'py>, s: &JsString) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: PyUnicode_FromKindAndData copies `len` units of the given kind.
    unsafe {
        if let Some(b) = s.as_latin1() {
            return Bound::from_owned_ptr_or_err(
                py,
                ffi::PyUnicode_FromKindAndData(ffi::PyUnicode_1BYTE_KIND as _, b.as_ptr().cast(), b.len() as isize),
            );
        }
        let u = s.to_utf16();
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
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyUnicode_FromKindAndData(ffi::PyUnicode_4BYTE_KIND as _, cps.as_ptr().cast(), cps.len() as isize),
        )
    }
}

// ---------------------------------------------------------------------------
// Python -> JS

struct ToJs<'py> {
    py: Python<'py>,
    c: &'py Classes,
    heap: Heap,
    memo: HashMap<usize, ObjId>,
    /// Keeps every memoized object alive (ids stay unique).
    keep: Vec<Bound<'py, PyAny>>,
    max_depth: u32,
}

impl<'py> ToJs<'py> {
    fn int(&mut self, o: &Bound<'py, PyAny>, force_bigint: bool) -> PyResult<Value> {
        if !force_bigint {
            if let Ok(v) = o.extract::<i64>() {
                if (v as f64).abs() <= MAX_SAFE && v.unsigned_abs() <= MAX_SAFE as u64 {
                    return Ok(Value::Number(v as f64));
                }
            }
        }
        let negative = o.lt(0)?;
        let mag = if negative { o.neg()? } else { o.clone() };
        let bits: usize = mag.call_method0("bit_length")?.extract()?;
        let n = bits.div_ceil(8);
        let bytes = mag.call_method1("to_bytes", (n, "little"))?;
        let bytes = bytes.cast::<PyBytes>()?.as_bytes().to_vec();
        Ok(Value::BigInt(BigInt::from_parts(negative, bytes)))
    }

    /// Allocates `obj` (placeholder first, so cycles find its id), then fills it.
    fn alloc(&mut self, o: &Bound<'py, PyAny>) -> ObjId {
        let id = self.heap.alloc(Object::Plain(Span::EMPTY));
        self.memo.insert(o.as_ptr() as usize, id);
        self.keep.push(o.clone());
        id
    }

    fn key(&mut self, k: &Bound<'py, PyAny>) -> PyResult<JsString> {
        Ok(js_string(k.cast::<PyString>()?))
    }

    fn value(&mut self, o: &Bound<'py, PyAny>, depth: u32) -> PyResult<Value> {
        let py = self.py;
        if o.is_none() {
            return Ok(Value::Null);
        }
        if o.is(self.c.undefined.bind(py)) {
            return Ok(Value::Undefined);
        }
        if let Ok(b) = o.cast::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
        }
        if let Ok(s) = o.cast::<PyString>() {
            return Ok(Value::String(js_string(s)));
        }
        if o.is_instance(self.c.bigint.bind(py))? {
            return self.int(o, true);
        }
        if o.is_instance_of::<PyInt>() {
            return self.int(o, false);
        }
        if let Ok(f) = o.cast::<PyFloat>() {
            return Ok(Value::Number(f.value()));
        }
        if let Some(&id) = self.memo.get(&(o.as_ptr() as usize)) {
            return Ok(Value::Object(id));
        }
        if depth >= self.max_depth {
            return Err(errors::v8_code(py, ErrorCode::LimitDepth, 0, "nesting deeper than max_depth"));
        }
        let d = depth + 1;
        let c = self.c;
        if o.is_exact_instance_of::<PyDict>() || o.is_instance(c.map.bind(py))? || o.is_instance_of::<PyDict>() {
            let dict = o.cast::<PyDict>()?;
            let as_map = o.is_instance(c.map.bind(py))? || dict.keys().iter().any(|k| !k.is_instance_of::<PyString>());
            let id = self.alloc(o);
            let obj = if as_map {
                let mut entries = Vec::with_capacity(dict.len());
                for (k, v) in dict.iter() {
                    entries.push((self.value(&k, d)?, self.value(&v, d)?));
                }
                Object::Map(entries)
            } else {
                let mut props = Vec::with_capacity(dict.len());
                for (k, v) in dict.iter() {
                    props.push((self.key(&k)?, self.value(&v, d)?));
                }
                self.heap.plain(props)
            };
            self.heap.replace(id, obj);
            return Ok(Value::Object(id));
        }
        if o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>() {
            let id = self.alloc(o);
            let mut items = Vec::with_capacity(o.len()?);
            for x in o.try_iter()? {
                items.push(self.value(&x?, d)?);
            }
            let arr = self.heap.dense(items);
            self.heap.replace(id, Object::Array(arr));
            return Ok(Value::Object(id));
        }
        if o.is_instance(c.array.bind(py))? {
            let id = self.alloc(o);
            let length: u32 = o.getattr("length")?.extract()?;
            let items_d = o.getattr("items")?;
            let items_d = items_d.cast::<PyDict>()?;
            let mut items: Vec<(u32, Value)> = Vec::with_capacity(items_d.len());
            for (k, v) in items_d.iter() {
                let i: u32 = k.extract()?;
                if i >= length {
                    return Err(PyValueError::new_err("JSArray item index beyond length"));
                }
                items.push((i, self.value(&v, d)?));
            }
            items.sort_by_key(|(i, _)| *i);
            let props_d = o.getattr("props")?;
            let props_d = props_d.cast::<PyDict>()?;
            let mut props = Vec::with_capacity(props_d.len());
            for (k, v) in props_d.iter() {
                props.push((self.key(&k)?, self.value(&v, d)?));
            }
            let arr = self.heap.sparse(length, items, props);
            self.heap.replace(id, Object::Array(arr));
            return Ok(Value::Object(id));
        }
        if o.is_instance_of::<PySet>() || o.is_instance_of::<PyFrozenSet>() {
            let id = self.alloc(o);
            let mut vals = Vec::with_capacity(o.len()?);
            for x in o.try_iter()? {
                vals.push(self.value(&x?, d)?);
            }
            self.heap.replace(id, Object::Set(vals));
            return Ok(Value::Object(id));
        }
        if o.is_instance_of::<PyBytes>() {
            // bytes: a Uint8Array over its own ArrayBuffer.
            let id = self.alloc(o);
            let data = o.cast::<PyBytes>()?.as_bytes().to_vec();
            let n = data.len() as u32;
            let buffer = self.heap.alloc(Object::ArrayBuffer(ArrayBuffer { data, max_byte_length: None }));
            self.heap.replace(
                id,
                Object::View(View { kind: ViewKind::Uint8Array, buffer, byte_offset: 0, byte_length: n, length_tracking: false }),
            );
            return Ok(Value::Object(id));
        }
        if o.is_instance_of::<PyByteArray>() {
            let id = self.alloc(o);
            let data = Buf::get(o)?.as_slice().to_vec();
            self.heap.replace(id, Object::ArrayBuffer(ArrayBuffer { data, max_byte_length: None }));
            return Ok(Value::Object(id));
        }
        if o.is_instance(c.datetime.bind(py))? || o.is_instance(c.date.bind(py))? {
            let id = self.alloc(o);
            let ms: f64 = c.to_ms.bind(py).call1((o,))?.extract()?;
            self.heap.replace(id, Object::Date(ms));
            return Ok(Value::Object(id));
        }
        if o.is_instance(c.regexp.bind(py))? {
            let id = self.alloc(o);
            let source = js_string(o.getattr("source")?.cast::<PyString>()?);
            let flags: String = o.getattr("flags")?.extract()?;
            let flags = RegExpFlags::from_letters(&flags).ok_or_else(|| PyValueError::new_err("bad RegExp flags"))?;
            self.heap.replace(id, Object::RegExp { source, flags });
            return Ok(Value::Object(id));
        }
        if o.is_instance(c.boxed.bind(py))? {
            let id = self.alloc(o);
            let v = o.getattr("value")?;
            let obj = match self.value(&v, d)? {
                Value::Bool(b) => Object::BooleanObject(b),
                Value::Number(n) => Object::NumberObject(n),
                Value::BigInt(b) => Object::BigIntObject(b),
                Value::String(s) => Object::StringObject(s),
                _ => return Err(PyTypeError::new_err("JSBoxed holds a bool, number, JSBigInt or str")),
            };
            self.heap.replace(id, obj);
            return Ok(Value::Object(id));
        }
        if o.is_instance(c.view.bind(py))? {
            let id = self.alloc(o);
            let kind: String = o.getattr("kind")?.extract()?;
            let kind = ViewKind::from_name(&kind).ok_or_else(|| PyValueError::new_err(format!("unknown view kind {kind}")))?;
            let data = Buf::get(&o.getattr("data")?)?.as_slice().to_vec();
            if data.len() % kind.element_size() as usize != 0 {
                return Err(PyValueError::new_err("view data is not a whole number of elements"));
            }
            let n = data.len() as u32;
            let buffer = self.heap.alloc(Object::ArrayBuffer(ArrayBuffer { data, max_byte_length: None }));
            self.heap.replace(id, Object::View(View { kind, buffer, byte_offset: 0, byte_length: n, length_tracking: false }));
            return Ok(Value::Object(id));
        }
        if o.is_instance(c.error.bind(py))? {
            let id = self.alloc(o);
            let name: String = o.getattr("name")?.extract()?;
            let opt_str = |a: &str| -> PyResult<Option<JsString>> {
                let v = o.getattr(a)?;
                if v.is_none() { Ok(None) } else { Ok(Some(js_string(v.cast::<PyString>()?))) }
            };
            let message = opt_str("message")?;
            let stack = opt_str("stack")?;
            let has_cause: bool = o.getattr("has_cause")?.extract()?;
            let cause = if has_cause { Some(self.value(&o.getattr("cause")?, d)?) } else { None };
            self.heap.replace(id, Object::Error(Box::new(ErrorObject { name: ErrorName::from_name(&name), message, stack, cause })));
            return Ok(Value::Object(id));
        }
        Err(data_clone(
            py,
            &format!("{} cannot be cloned", o.get_type().name().map(|n| n.to_string()).unwrap_or_default()),
        ))
    }
}

// ---------------------------------------------------------------------------
// JS -> Python

struct ToPy<'py, 'g> {
    py: Python<'py>,
    c: &'py Classes,
    g: &'g Graph,
    memo: HashMap<ObjId, Bound<'py, PyAny>>,
}

impl<'py> ToPy<'py, '_> {
    fn number(&self, n: f64) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        if n.is_finite() && n.fract() == 0.0 && n.abs() <= MAX_SAFE && !(n == 0.0 && n.is_sign_negative()) {
            return Ok((n as i64).into_pyobject(py)?.into_any());
        }
        Ok(PyFloat::new(py, n).into_any())
    }

    fn bigint(&self, b: &BigInt) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let int_t = py.get_type::<PyInt>();
        let mag = int_t.call_method1("from_bytes", (PyBytes::new(py, b.magnitude_le()), "little"))?;
        let v = if b.is_negative() { mag.neg()? } else { mag };
        self.c.bigint.bind(py).call1((v,))
    }

    fn value(&mut self, v: &Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match v {
            Value::Undefined => self.c.undefined.bind(py).clone(),
            Value::Null => py.None().into_bound(py),
            Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
            Value::Number(n) => self.number(*n)?,
            Value::BigInt(b) => self.bigint(b)?,
            Value::String(s) => py_string(py, s)?,
            Value::Object(id) => self.object(*id)?,
        })
    }

    fn object(&mut self, id: ObjId) -> PyResult<Bound<'py, PyAny>> {
        if let Some(o) = self.memo.get(&id) {
            return Ok(o.clone());
        }
        let py = self.py;
        let c = self.c;
        let g = self.g;
        let obj = g.heap.get(id).ok_or_else(|| PyValueError::new_err("dangling object id"))?;
        let out: Bound<'py, PyAny> = match obj {
            Object::Plain(props) => {
                let d = PyDict::new(py);
                self.memo.insert(id, d.clone().into_any());
                for (k, v) in g.heap.props(*props) {
                    let v = self.value(v)?;
                    d.set_item(py_string(py, k)?, v)?;
                }
                return Ok(d.into_any());
            }
            Object::Array(a) if a.is_dense() && a.props.is_empty() => {
                let l = PyList::empty(py);
                self.memo.insert(id, l.clone().into_any());
                for (_, v) in g.heap.items(a.items) {
                    l.append(self.value(v)?)?;
                }
                return Ok(l.into_any());
            }
            Object::Array(a) => {
                let items = PyDict::new(py);
                let props = PyDict::new(py);
                let arr = c.array.bind(py).call1((a.length, &items, &props))?;
                self.memo.insert(id, arr.clone());
                for (i, v) in g.heap.items(a.items) {
                    items.set_item(*i, self.value(v)?)?;
                }
                for (k, v) in g.heap.props(a.props) {
                    props.set_item(py_string(py, k)?, self.value(v)?)?;
                }
                return Ok(arr);
            }
            Object::Map(entries) => {
                let m = c.map.bind(py).call0()?;
                self.memo.insert(id, m.clone());
                for (k, v) in entries {
                    let k = self.value(k)?;
                    let v = self.value(v)?;
                    m.set_item(k, v)?;
                }
                return Ok(m);
            }
            Object::Set(vals) => {
                let s = PySet::empty(py)?;
                self.memo.insert(id, s.clone().into_any());
                for v in vals {
                    s.add(self.value(v)?)?;
                }
                return Ok(s.into_any());
            }
            Object::Date(ms) => c.from_ms.bind(py).call1((*ms,))?,
            Object::RegExp { source, flags } => c.regexp.bind(py).call1((py_string(py, source)?, flags.to_letters()))?,
            Object::BooleanObject(b) => c.boxed.bind(py).call1((*b,))?,
            Object::NumberObject(n) => c.boxed.bind(py).call1((PyFloat::new(py, *n),))?,
            Object::BigIntObject(b) => c.boxed.bind(py).call1((self.bigint(b)?,))?,
            Object::StringObject(s) => c.boxed.bind(py).call1((py_string(py, s)?,))?,
            Object::ArrayBuffer(b) => PyByteArray::new(py, &b.data).into_any(),
            Object::View(v) => {
                let Some(Object::ArrayBuffer(buf)) = g.heap.get(v.buffer) else {
                    return Err(PyValueError::new_err("view over a non-buffer"));
                };
                let a = (v.byte_offset as usize).min(buf.data.len());
                let b = (a + v.byte_length as usize).min(buf.data.len());
                let bytes = PyBytes::new(py, &buf.data[a..b]);
                if v.kind == ViewKind::Uint8Array {
                    bytes.into_any()
                } else {
                    c.view.bind(py).call1((v.kind.name(), bytes))?
                }
            }
            Object::Error(e) => {
                let s = |x: &Option<JsString>| -> PyResult<Bound<'py, PyAny>> {
                    match x {
                        Some(s) => py_string(py, s),
                        None => Ok(py.None().into_bound(py)),
                    }
                };
                let err = c.error.bind(py).call1((e.name.name(), s(&e.message)?, s(&e.stack)?))?;
                self.memo.insert(id, err.clone());
                if let Some(cause) = &e.cause {
                    let cause = self.value(cause)?;
                    err.call_method1("_set_cause", (cause,))?;
                }
                return Ok(err);
            }
        };
        self.memo.insert(id, out.clone());
        Ok(out)
    }
}

/// `dumps(value, *, max_depth=1000) -> bytes`: V8 ValueSerializer v15 (canonical encoder).
#[pyfunction]
#[pyo3(signature = (value, *, max_depth=1000))]
pub fn v8_dumps<'py>(py: Python<'py>, value: &Bound<'py, PyAny>, max_depth: u32) -> PyResult<Bound<'py, PyBytes>> {
    let c = classes(py)?;
    let mut t = ToJs { py, c, heap: Heap::new(), memo: HashMap::new(), keep: Vec::new(), max_depth };
    let root = t.value(value, 0)?;
    let heap = std::mem::take(&mut t.heap);
    let opts = EncodeOptions { max_depth };
    let bytes = formwire_v8::encode_value(&heap, &root, &opts).map_err(|e| errors::v8(py, &e))?;
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
    let mut t = ToPy { py, c, g: &g, memo: HashMap::new() };
    t.value(&g.root)
}

fn decode(py: Python<'_>, data: &Bound<'_, PyAny>, max_depth: Option<u32>, max_bytes: Option<u64>, node_ipc: bool) -> PyResult<Graph> {
    let buf = Buf::get(data)?;
    let opts = DecodeOptions {
        max_depth: max_depth.unwrap_or(u32::MAX),
        max_bytes: max_bytes.unwrap_or(u64::MAX),
        node_ipc,
    };
    formwire_v8::decode_with(buf.as_slice(), &opts).map_err(|e| errors::v8(py, &e))
}

/// Testee support: neutral JSON (vectors/SCHEMA.md) to V8 bytes.
#[pyfunction]
#[pyo3(signature = (neutral_json, *, max_depth=None))]
pub fn v8_neutral_encode<'py>(py: Python<'py>, neutral_json: &str, max_depth: Option<u32>) -> PyResult<Bound<'py, PyBytes>> {
    let j: serde_json::Value = serde_json::from_str(neutral_json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let g = formwire_v8::neutral::from_json(&j).map_err(|e| errors::v8(py, &e))?;
    let mut opts = EncodeOptions::default();
    if let Some(d) = max_depth {
        opts.max_depth = d;
    }
    let bytes = formwire_v8::encode_with(&g, &opts).map_err(|e| errors::v8(py, &e))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Testee support: V8 bytes to neutral JSON text.
#[pyfunction]
#[pyo3(
    signature = (data, *, max_depth=Some(1000), max_bytes=Some(268435456), node_ipc=false),
    text_signature = "(data, *, max_depth=1000, max_bytes=268435456, node_ipc=False)"
)]
pub fn v8_neutral_decode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    max_depth: Option<u32>,
    max_bytes: Option<u64>,
    node_ipc: bool,
) -> PyResult<String> {
    let g = decode(py, data, max_depth, max_bytes, node_ipc)?;
    Ok(formwire_v8::neutral::to_json(&g).to_string())
}
