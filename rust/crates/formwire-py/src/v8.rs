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
//!
//! Both directions work without recursion, so no nesting depth can exhaust the C stack: `loads`
//! reads the borrowed graph of `formwire_v8::decode_borrowed_with` (strings and bytes still in the
//! input) and makes every container first, empty, then fills them in id order; `dumps` builds a
//! `formwire_v8::Heap` from a work list (a container gets its id when first met, its contents when
//! taken from the list). BigInts go through `int.from_bytes` / `int.to_bytes`, linear in their size.
//!
//! `loads`/`dumps` use memory of their own per call (the binding keeps no module or thread state); the
//! `V8Decoder`/`V8Encoder` objects (`formwire.v8.Decoder`/`Encoder`) keep a `formwire_v8::Decoder` and an output
//! buffer between calls, behind a mutex that a call finding it busy skips for memory of its own.

use std::collections::HashMap;
use std::sync::Mutex;

use formwire_v8::borrowed::{BigIntRef, BorrowedGraph, ObjectRef, Str, ValueRef};
use formwire_v8::{
    ArrayBuffer, BigInt, DecodeOptions, EncodeOptions, ErrorCode, ErrorName, ErrorObject, Graph, Heap, JsString, ObjId,
    Object, Prop, RegExpFlags, Value, View, ViewKind,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple, PyType,
};

use crate::errors;
use crate::util::{Buf, GIL_RELEASE_BYTES};

const MAX_SAFE: f64 = 9007199254740991.0;

/// Graphs with at least this many objects are encoded with the GIL released.
const ENCODE_DETACH_OBJECTS: usize = 4096;

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
    from_bytes: Py<PyAny>,
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
            from_bytes: py.get_type::<PyInt>().getattr("from_bytes")?.unbind(),
        })
    })
}

fn data_clone(py: Python<'_>, what: &str) -> PyErr {
    errors::v8_code(py, ErrorCode::DataClone, 0, what)
}

fn bad(what: &str) -> PyErr {
    PyValueError::new_err(format!("inconsistent decoded graph: {what}"))
}

fn type_name(o: &Bound<'_, PyAny>) -> String {
    o.get_type().name().map(|n| n.to_string()).unwrap_or_default()
}

// ---------------------------------------------------------------------------
// Strings

/// A Python str as a JS string: one-byte strs are copied as Latin-1, others as UTF-16 code units
/// (code points above U+FFFF become surrogate pairs, lone surrogates stay lone).
#[cfg(not(Py_LIMITED_API))]
fn js_string(s: &Bound<'_, PyString>) -> JsString {
    let p = s.as_ptr();
    // SAFETY: `p` is a str object (ready: every str is since 3.12, and the ones Python code makes
    // before); DATA holds LENGTH units of KIND bytes.
    unsafe {
        let len = ffi::PyUnicode_GET_LENGTH(p) as usize;
        let data = ffi::PyUnicode_DATA(p);
        match ffi::PyUnicode_KIND(p) {
            ffi::PyUnicode_1BYTE_KIND => {
                JsString::from_latin1_slice(std::slice::from_raw_parts(data as *const u8, len))
            }
            ffi::PyUnicode_2BYTE_KIND => {
                JsString::from_utf16(std::slice::from_raw_parts(data as *const u16, len).to_vec())
            }
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
                JsString::from_utf16(u)
            }
        }
    }
}

/// The stable-ABI reading (abi3 wheels): the str's code points copied out (PyUnicode_AsUCS4Copy), one-byte when
/// every code point is, as the full-API reading gives for a one-byte str.
#[cfg(Py_LIMITED_API)]
fn js_string(s: &Bound<'_, PyString>) -> JsString {
    // SAFETY: `s` is a str; AsUCS4Copy returns a PyMem buffer of LENGTH code points plus a NUL (freed below),
    // or null with an exception set (only out of memory, then an empty string).
    unsafe {
        let p = s.as_ptr();
        let len = ffi::PyUnicode_GetLength(p);
        let buf = ffi::PyUnicode_AsUCS4Copy(p);
        if buf.is_null() || len < 0 {
            ffi::PyErr_Clear();
            return JsString::from_latin1_slice(&[]);
        }
        let cps = std::slice::from_raw_parts(buf as *const u32, len as usize);
        let out = if cps.iter().all(|&c| c <= 0xFF) {
            let b: Vec<u8> = cps.iter().map(|&c| c as u8).collect();
            JsString::from_latin1_slice(&b)
        } else {
            let mut u = Vec::with_capacity(cps.len() + 8);
            for &c in cps {
                if c > 0xFFFF {
                    let c = c - 0x10000;
                    u.push(0xD800 | (c >> 10) as u16);
                    u.push(0xDC00 | (c & 0x3FF) as u16);
                } else {
                    u.push(c as u16);
                }
            }
            JsString::from_utf16(u)
        };
        ffi::PyMem_Free(buf.cast());
        out
    }
}

/// JS code units as a Python str: surrogate pairs combine, lone surrogates stay code points.
fn py_from_units<'py>(py: Python<'py>, u: impl Iterator<Item = u16>, n: usize) -> PyResult<Bound<'py, PyAny>> {
    let mut cps: Vec<u32> = Vec::with_capacity(n);
    let mut u = u.peekable();
    while let Some(c) = u.next() {
        if (0xD800..0xDC00).contains(&c) {
            if let Some(&d) = u.peek() {
                if (0xDC00..0xE000).contains(&d) {
                    u.next();
                    cps.push(0x10000 + (((c as u32) - 0xD800) << 10) + ((d as u32) - 0xDC00));
                    continue;
                }
            }
        }
        cps.push(c as u32);
    }
    // SAFETY: PyUnicode_FromKindAndData copies `len` 4-byte code points (and narrows the str).
    #[cfg(not(Py_LIMITED_API))]
    unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyUnicode_FromKindAndData(ffi::PyUnicode_4BYTE_KIND as _, cps.as_ptr().cast(), cps.len() as isize),
        )
    }
    // Stable ABI: the same code points through the UTF-32 decoder (surrogatepass keeps lone surrogates).
    #[cfg(Py_LIMITED_API)]
    {
        let bytes: Vec<u8> = cps.iter().flat_map(|c| c.to_le_bytes()).collect();
        let mut order: std::os::raw::c_int = -1;
        // SAFETY: CPython copies from a valid pointer and length; null is an error.
        unsafe {
            Bound::from_owned_ptr_or_err(
                py,
                ffi::PyUnicode_DecodeUTF32(
                    bytes.as_ptr().cast(),
                    bytes.len() as isize,
                    c"surrogatepass".as_ptr(),
                    &mut order,
                ),
            )
        }
    }
}

/// A borrowed JS string as a Python str.
fn py_str<'py>(py: Python<'py>, s: Str<'_>) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY (the three calls): CPython copies from a valid pointer and length; null is an error.
    unsafe {
        let o = match s {
            Str::Latin1(b) => ffi::PyUnicode_DecodeLatin1(b.as_ptr().cast(), b.len() as isize, std::ptr::null()),
            Str::Utf8(t) => ffi::PyUnicode_FromStringAndSize(t.as_ptr().cast(), t.len() as isize),
            Str::Int(n) => {
                let t = n.to_string();
                ffi::PyUnicode_FromStringAndSize(t.as_ptr().cast(), t.len() as isize)
            }
            Str::Utf16Le(b) => return py_from_units(py, s.units(), b.len() / 2),
        };
        Bound::from_owned_ptr_or_err(py, o)
    }
}

// ---------------------------------------------------------------------------
// Python -> heap (dumps)

/// A container met but not yet filled.
enum Todo {
    Dict,
    Map,
    List,
    Array,
    Set,
    Error,
}

struct ToJs<'py> {
    py: Python<'py>,
    c: &'py Classes,
    heap: Heap,
    memo: HashMap<usize, ObjId>,
    /// Keeps every memoized object alive (addresses stay unique).
    keep: Vec<Bound<'py, PyAny>>,
    todo: Vec<(Bound<'py, PyAny>, ObjId, Todo)>,
}

impl<'py> ToJs<'py> {
    /// SC-W-04: a JS BigInt from a Python int, through its little-endian bytes (linear).
    fn bigint(&self, o: &Bound<'py, PyAny>) -> PyResult<BigInt> {
        let v = o.call_method0("__index__")?;
        let negative = v.lt(0)?;
        let mag = if negative { v.neg()? } else { v };
        let bits: usize = mag.call_method0("bit_length")?.extract()?;
        let bytes = mag.call_method1("to_bytes", (bits.div_ceil(8), "little"))?;
        Ok(BigInt::from_slice(negative, bytes.cast::<PyBytes>()?.as_bytes()))
    }

    fn int(&self, o: &Bound<'py, PyAny>) -> PyResult<Value> {
        if let Ok(v) = o.extract::<i64>() {
            if v.unsigned_abs() <= MAX_SAFE as u64 {
                return Ok(Value::Number(v as f64));
            }
        }
        Ok(Value::BigInt(self.bigint(o)?))
    }

    fn remember(&mut self, o: &Bound<'py, PyAny>, object: Object) -> ObjId {
        let id = self.heap.alloc(object);
        self.memo.insert(o.as_ptr() as usize, id);
        self.keep.push(o.clone());
        id
    }

    /// A container: its id now, its contents when it is taken from the work list.
    fn later(&mut self, o: &Bound<'py, PyAny>, what: Todo) -> Value {
        let id = self.remember(o, Object::Date(0.0));
        self.todo.push((o.clone(), id, what));
        Value::Object(id)
    }

    /// The value of `o`: a primitive, a leaf object made now, or a container's id.
    fn value(&mut self, o: &Bound<'py, PyAny>) -> PyResult<Value> {
        let py = self.py;
        let c = self.c;
        if o.is_none() {
            return Ok(Value::Null);
        }
        if let Ok(s) = o.cast::<PyString>() {
            return Ok(Value::String(js_string(s)));
        }
        if let Ok(b) = o.cast::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
        }
        if let Ok(f) = o.cast::<PyFloat>() {
            return Ok(Value::Number(f.value()));
        }
        if o.is_instance_of::<PyInt>() {
            if o.is_instance(c.bigint.bind(py))? {
                return Ok(Value::BigInt(self.bigint(o)?));
            }
            return self.int(o);
        }
        if o.is(c.undefined.bind(py)) {
            return Ok(Value::Undefined);
        }
        if let Some(&id) = self.memo.get(&(o.as_ptr() as usize)) {
            return Ok(Value::Object(id));
        }
        if let Ok(dict) = o.cast::<PyDict>() {
            let as_map = o.is_instance(c.map.bind(py))? || dict.keys().iter().any(|k| !k.is_instance_of::<PyString>());
            return Ok(self.later(o, if as_map { Todo::Map } else { Todo::Dict }));
        }
        if o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>() {
            return Ok(self.later(o, Todo::List));
        }
        if o.is_instance(c.array.bind(py))? {
            return Ok(self.later(o, Todo::Array));
        }
        if o.is_instance_of::<PySet>() || o.is_instance_of::<PyFrozenSet>() {
            return Ok(self.later(o, Todo::Set));
        }
        if o.is_instance(c.error.bind(py))? {
            return Ok(self.later(o, Todo::Error));
        }
        // Leaves: made now.
        if o.is_instance_of::<PyBytes>() || o.is_instance(c.view.bind(py))? {
            let (kind, data) = if let Ok(b) = o.cast::<PyBytes>() {
                (ViewKind::Uint8Array, b.as_bytes().to_vec())
            } else {
                let name: String = o.getattr("kind")?.extract()?;
                let kind = ViewKind::from_name(&name)
                    .ok_or_else(|| PyValueError::new_err(format!("unknown JSView kind {name:?}")))?;
                (kind, Buf::get(&o.getattr("data")?)?.as_slice().to_vec())
            };
            let byte_length =
                u32::try_from(data.len()).map_err(|_| data_clone(py, "a view longer than 2**32-1 bytes"))?;
            let buffer = self.heap.alloc(Object::ArrayBuffer(ArrayBuffer { data, max_byte_length: None }));
            let view = View { kind, buffer, byte_offset: 0, byte_length, length_tracking: false };
            return Ok(Value::Object(self.remember(o, Object::View(view))));
        }
        if o.is_instance_of::<PyByteArray>() {
            let data = Buf::get(o)?.as_slice().to_vec();
            return Ok(Value::Object(
                self.remember(o, Object::ArrayBuffer(ArrayBuffer { data, max_byte_length: None })),
            ));
        }
        if o.is_instance(c.datetime.bind(py))? || o.is_instance(c.date.bind(py))? {
            let ms: f64 = c.to_ms.bind(py).call1((o,))?.extract()?;
            return Ok(Value::Object(self.remember(o, Object::Date(ms))));
        }
        if o.is_instance(c.regexp.bind(py))? {
            let source = js_string(o.getattr("source")?.cast::<PyString>()?);
            let letters: String = o.getattr("flags")?.extract()?;
            let flags = RegExpFlags::from_letters(&letters)
                .ok_or_else(|| PyValueError::new_err(format!("unknown RegExp flags {letters:?}")))?;
            return Ok(Value::Object(self.remember(o, Object::RegExp { source, flags })));
        }
        if o.is_instance(c.boxed.bind(py))? {
            let v = o.getattr("value")?;
            let object = if let Ok(b) = v.cast::<PyBool>() {
                Object::BooleanObject(b.is_true())
            } else if let Ok(s) = v.cast::<PyString>() {
                Object::StringObject(js_string(s))
            } else if v.is_instance(c.bigint.bind(py))? {
                Object::BigIntObject(self.bigint(&v)?)
            } else if let Ok(f) = v.cast::<PyFloat>() {
                Object::NumberObject(f.value())
            } else if v.is_instance_of::<PyInt>() {
                Object::NumberObject(v.extract::<f64>()?)
            } else {
                return Err(PyTypeError::new_err("JSBoxed holds a bool, number, JSBigInt or str"));
            };
            return Ok(Value::Object(self.remember(o, object)));
        }
        Err(data_clone(py, &format!("{} cannot be cloned", type_name(o))))
    }

    fn key(&self, k: &Bound<'py, PyAny>) -> PyResult<JsString> {
        match k.cast::<PyString>() {
            Ok(s) => Ok(js_string(s)),
            Err(_) => Err(PyTypeError::new_err("object keys must be str")),
        }
    }

    /// Fills the container `id` (its children get ids, containers among them join the work list).
    fn fill(&mut self, o: &Bound<'py, PyAny>, id: ObjId, what: Todo, props: &mut Vec<Prop>) -> PyResult<()> {
        let object = match what {
            Todo::Dict => {
                for (k, v) in o.cast::<PyDict>()?.iter() {
                    let key = self.key(&k)?;
                    let v = self.value(&v)?;
                    props.push((key, v));
                }
                Object::Plain(self.heap.push_props(props.drain(..)))
            }
            Todo::Map => {
                let dict = o.cast::<PyDict>()?;
                let mut entries = Vec::with_capacity(dict.len());
                for (k, v) in dict.iter() {
                    entries.push((self.value(&k)?, self.value(&v)?));
                }
                Object::Map(entries)
            }
            Todo::List => {
                let mut items = Vec::with_capacity(o.len()?);
                for x in o.try_iter()? {
                    items.push(self.value(&x?)?);
                }
                Object::Array(self.heap.dense(items))
            }
            Todo::Array => {
                let length: u32 = o.getattr("length")?.extract()?;
                let mut idx: Vec<(u32, Bound<'py, PyAny>)> = Vec::new();
                for (k, v) in o.getattr("items")?.cast::<PyDict>()?.iter() {
                    let i: u32 = k.extract()?;
                    if i >= length {
                        return Err(PyValueError::new_err("JSArray item index beyond length"));
                    }
                    idx.push((i, v));
                }
                idx.sort_by_key(|(i, _)| *i);
                let mut items = Vec::with_capacity(idx.len());
                for (i, v) in &idx {
                    items.push((*i, self.value(v)?));
                }
                for (k, v) in o.getattr("props")?.cast::<PyDict>()?.iter() {
                    let key = self.key(&k)?;
                    let v = self.value(&v)?;
                    props.push((key, v));
                }
                Object::Array(self.heap.sparse(length, items, props.drain(..)))
            }
            Todo::Set => {
                let mut values = Vec::with_capacity(o.len()?);
                for x in o.try_iter()? {
                    values.push(self.value(&x?)?);
                }
                Object::Set(values)
            }
            Todo::Error => {
                let name: String = o.getattr("name")?.extract()?;
                let text = |a: &str| -> PyResult<Option<JsString>> {
                    let v = o.getattr(a)?;
                    if v.is_none() { Ok(None) } else { Ok(Some(js_string(v.cast::<PyString>()?))) }
                };
                let (message, stack) = (text("message")?, text("stack")?);
                let cause = if o.getattr("has_cause")?.extract::<bool>()? {
                    Some(self.value(&o.getattr("cause")?)?)
                } else {
                    None
                };
                Object::Error(Box::new(ErrorObject { name: ErrorName::from_name(&name), message, stack, cause }))
            }
        };
        self.heap.replace(id, object);
        Ok(())
    }
}

/// `dumps(value, *, max_depth=1000) -> bytes`: V8 ValueSerializer v15 (canonical encoder).
#[pyfunction]
#[pyo3(signature = (value, *, max_depth=Some(1000)), text_signature = "(value, *, max_depth=1000)")]
pub fn v8_dumps<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    max_depth: Option<u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    dumps(py, value, max_depth.unwrap_or(u32::MAX), None)
}

/// `value` as V8 bytes: encoded into `kept` (an `Encoder`'s buffer) when given, else into a buffer of this call.
fn dumps<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    max_depth: u32,
    kept: Option<&Mutex<Vec<u8>>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let c = classes(py)?;
    let mut t = ToJs { py, c, heap: Heap::new(), memo: HashMap::new(), keep: Vec::new(), todo: Vec::new() };
    let root = t.value(value)?;
    let mut props = Vec::new();
    while let Some((o, id, what)) = t.todo.pop() {
        t.fill(&o, id, what, &mut props)?;
    }
    let objects = t.heap.len();
    let g = Graph::new(t.heap, root);
    drop((t.memo, t.keep));
    let opts = EncodeOptions { max_depth };
    // The encoder's buffer (its pages stay mapped), unless another thread is using it while the GIL is released;
    // then a buffer of this call. Taken only now: no Python code runs from here on.
    let mut guard = kept.and_then(|m| m.try_lock().ok());
    let mut fresh = Vec::new();
    let out: &mut Vec<u8> = match guard.as_deref_mut() {
        Some(kept) => kept,
        None => &mut fresh,
    };
    out.clear();
    // The graph is Rust's own: nothing another thread can change while the GIL is released.
    let r = if objects >= ENCODE_DETACH_OBJECTS {
        py.detach(|| formwire_v8::encode_value_into(&g.heap, &g.root, &opts, out))
    } else {
        formwire_v8::encode_value_into(&g.heap, &g.root, &opts, out)
    };
    drop(g);
    let bytes = r.map(|()| PyBytes::new(py, out)).map_err(|e| errors::v8(py, &e));
    if out.capacity() > OUT_KEEP_BYTES {
        *out = Vec::new();
    }
    bytes
}

/// The largest output buffer an `Encoder` keeps for its next `dumps` (what it may hold idle).
const OUT_KEEP_BYTES: usize = 8 << 20;

/// `formwire.v8.Encoder(*, max_depth=1000)`: `dumps` with its output buffer kept between calls (up to 8 MiB).
#[pyclass(frozen, module = "formwire._formwire", name = "V8Encoder", subclass)]
pub struct V8Encoder {
    max_depth: u32,
    out: Mutex<Vec<u8>>,
}

#[pymethods]
impl V8Encoder {
    #[new]
    #[pyo3(signature = (*, max_depth=Some(1000)), text_signature = "(*, max_depth=1000)")]
    fn new(max_depth: Option<u32>) -> V8Encoder {
        V8Encoder { max_depth: max_depth.unwrap_or(u32::MAX), out: Mutex::new(Vec::new()) }
    }

    /// `value` as V8 bytes (as `dumps` with this encoder's `max_depth`).
    fn dumps<'py>(&self, py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        dumps(py, value, self.max_depth, Some(&self.out))
    }
}

// ---------------------------------------------------------------------------
// Borrowed graph -> Python (loads)

struct ToPy<'py, 'g, 'a> {
    py: Python<'py>,
    c: &'py Classes,
    g: &'g BorrowedGraph<'a>,
    /// The Python object of each object id (containers from the start, leaves when first used).
    objs: Vec<Option<Bound<'py, PyAny>>>,
    /// The str of each key slot: objects of one shape share key slots, so their dicts share keys.
    keys: Vec<Option<Bound<'py, PyAny>>>,
}

impl<'py, 'a> ToPy<'py, '_, 'a> {
    fn number(&self, n: f64) -> Bound<'py, PyAny> {
        let py = self.py;
        if n.is_finite() && n.fract() == 0.0 && n.abs() <= MAX_SAFE && !(n == 0.0 && n.is_sign_negative()) {
            // SAFETY: a new int; null only when out of memory, which from_owned_ptr turns into a panic.
            return unsafe { Bound::from_owned_ptr(py, ffi::PyLong_FromLongLong(n as i64)) };
        }
        PyFloat::new(py, n).into_any()
    }

    /// A BigInt through `int.from_bytes` (linear in its size), as `JSBigInt`.
    fn bigint(&self, b: BigIntRef<'_>) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let mag = self.c.from_bytes.bind(py).call1((PyBytes::new(py, b.magnitude_le()), "little"))?;
        let v = if b.is_negative() { mag.neg()? } else { mag };
        self.c.bigint.bind(py).call1((v,))
    }

    fn value(&mut self, v: ValueRef<'_>) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match v {
            ValueRef::Undefined => self.c.undefined.bind(py).clone(),
            ValueRef::Null => py.None().into_bound(py),
            ValueRef::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
            ValueRef::Number(n) => self.number(n),
            ValueRef::BigInt(b) => self.bigint(b)?,
            ValueRef::String(s) => py_str(py, s)?,
            ValueRef::Object(id) => self.object(id)?,
        })
    }

    fn key(&mut self, at: usize, k: Str<'_>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(Some(s)) = self.keys.get(at) {
            return Ok(s.clone());
        }
        let s = py_str(self.py, k)?;
        if self.keys.len() <= at {
            self.keys.resize_with(at + 1, || None);
        }
        self.keys[at] = Some(s.clone());
        Ok(s)
    }

    fn get(&self, id: ObjId) -> PyResult<ObjectRef<'a>> {
        self.g.object(id).ok_or_else(|| bad("object id"))
    }

    /// The Python object of `id`; a leaf is made on first use (a view's own buffer, say, only when
    /// something else refers to it).
    fn object(&mut self, id: ObjId) -> PyResult<Bound<'py, PyAny>> {
        if let Some(Some(o)) = self.objs.get(id.index()) {
            return Ok(o.clone());
        }
        let py = self.py;
        let c = self.c;
        let o = match self.get(id)? {
            ObjectRef::Date(t) => c.from_ms.bind(py).call1((t,))?,
            ObjectRef::RegExp { source, flags } => {
                c.regexp.bind(py).call1((py_str(py, source)?, flags.to_letters()))?
            }
            ObjectRef::BooleanObject(b) => c.boxed.bind(py).call1((b,))?,
            ObjectRef::NumberObject(n) => c.boxed.bind(py).call1((PyFloat::new(py, n),))?,
            ObjectRef::BigIntObject(b) => c.boxed.bind(py).call1((self.bigint(b)?,))?,
            ObjectRef::StringObject(s) => c.boxed.bind(py).call1((py_str(py, s)?,))?,
            ObjectRef::ArrayBuffer { data, .. } => PyByteArray::new(py, data).into_any(),
            ObjectRef::View(v) => {
                let ObjectRef::ArrayBuffer { data, .. } = self.get(v.buffer)? else {
                    return Err(bad("view over a non-buffer"));
                };
                // A length-tracking view runs to the end of its buffer; any other range lies inside
                // it (the decoder checked: a failure here is a bug, reported rather than clamped).
                let off = v.byte_offset as usize;
                let end = if v.length_tracking { Some(data.len()) } else { off.checked_add(v.byte_length as usize) };
                let bytes = match end {
                    Some(e) if off <= e && e <= data.len() => PyBytes::new(py, &data[off..e]),
                    _ => return Err(bad("view range")),
                };
                if v.kind == ViewKind::Uint8Array {
                    bytes.into_any()
                } else {
                    c.view.bind(py).call1((v.kind.name(), bytes))?
                }
            }
            _ => return Err(bad("container without its Python object")),
        };
        self.objs[id.index()] = Some(o.clone());
        Ok(o)
    }

    /// Every container, empty (so that any value can refer to any of them).
    fn shells(&mut self) -> PyResult<()> {
        let py = self.py;
        let c = self.c;
        for i in 0..self.g.len() {
            let o = match self.get(ObjId(i as u32))? {
                ObjectRef::Plain(_) => PyDict::new(py).into_any(),
                ObjectRef::Array(a) if a.is_dense() && a.props.is_empty() => {
                    // SAFETY: a list of `length` empty slots, every one set in `fill` before the list
                    // is handed out (a list with empty slots is still safe to free or traverse).
                    unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyList_New(a.length as isize))? }
                }
                ObjectRef::Array(a) => c.array.bind(py).call1((a.length, PyDict::new(py), PyDict::new(py)))?,
                ObjectRef::Map(_) => c.map.bind(py).call0()?,
                ObjectRef::Set(_) => PySet::empty(py)?.into_any(),
                ObjectRef::Error(e) => {
                    let text = |s: Option<Str<'_>>| match s {
                        Some(s) => py_str(py, s),
                        None => Ok(py.None().into_bound(py)),
                    };
                    c.error.bind(py).call1((e.name.name(), text(e.message)?, text(e.stack)?))?
                }
                _ => continue,
            };
            self.objs[i] = Some(o);
        }
        Ok(())
    }

    /// Fills every container in id order: no recursion, whatever the nesting.
    fn fill(&mut self) -> PyResult<()> {
        let py = self.py;
        let g = self.g;
        for i in 0..g.len() {
            let id = ObjId(i as u32);
            let Some(o) = self.objs[i].clone() else { continue };
            match self.get(id)? {
                ObjectRef::Plain(p) => {
                    for (j, (k, v)) in g.props(p).enumerate() {
                        let k = self.key(p.keys as usize + j, k)?;
                        let v = self.value(v)?;
                        // SAFETY: `o` is a dict; SetItem does not steal references.
                        if unsafe { ffi::PyDict_SetItem(o.as_ptr(), k.as_ptr(), v.as_ptr()) } != 0 {
                            return Err(PyErr::fetch(py));
                        }
                    }
                }
                ObjectRef::Array(a) if a.is_dense() && a.props.is_empty() => {
                    for (j, v) in g.elements(&a) {
                        let v = self.value(v)?;
                        if j >= a.length {
                            return Err(bad("element index"));
                        }
                        // SAFETY: `o` is the list of `a.length` slots made by `shells`, slot `j` still
                        // empty (indexes ascend); SET_ITEM steals the new reference.
                        unsafe { crate::util::set_list_item(o.as_ptr(), j as isize, v.into_ptr()) };
                    }
                }
                ObjectRef::Array(a) => {
                    let items = o.getattr("items")?;
                    for (j, v) in g.elements(&a) {
                        items.set_item(j, self.value(v)?)?;
                    }
                    let props = o.getattr("props")?;
                    for (j, (k, v)) in g.props(a.props).enumerate() {
                        let k = self.key(a.props.keys as usize + j, k)?;
                        props.set_item(k, self.value(v)?)?;
                    }
                }
                ObjectRef::Map(span) => {
                    for (k, v) in g.map_entries(span) {
                        let (k, v) = (self.value(k)?, self.value(v)?);
                        o.set_item(&k, v).map_err(|e| unhashable(py, e, "Map key", &k))?;
                    }
                }
                ObjectRef::Set(span) => {
                    let set = o.cast::<PySet>()?;
                    for v in g.set_values(span) {
                        let v = self.value(v)?;
                        set.add(&v).map_err(|e| unhashable(py, e, "Set value", &v))?;
                    }
                }
                ObjectRef::Error(e) => {
                    if let Some(cause) = e.cause {
                        let cause = self.value(cause)?;
                        o.call_method1("_set_cause", (cause,))?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// A Map key or Set value Python cannot hash (a dict, list, set, ...): the value has no Python
/// form, a coded error like any other value that cannot be carried over.
fn unhashable(py: Python<'_>, e: PyErr, what: &str, v: &Bound<'_, PyAny>) -> PyErr {
    if e.is_instance_of::<PyTypeError>(py) {
        return data_clone(py, &format!("a {what} that is a {} cannot be held by a Python dict or set", type_name(v)));
    }
    e
}

/// The decoder options of `loads` (`None` = unlimited).
pub(crate) fn decode_options(
    max_depth: Option<u32>,
    max_bytes: Option<u64>,
    max_values: Option<u64>,
    max_bigint_bytes: Option<u32>,
    node_ipc: bool,
) -> DecodeOptions {
    DecodeOptions {
        max_depth: max_depth.unwrap_or(u32::MAX),
        max_bytes: max_bytes.unwrap_or(u64::MAX),
        max_values: max_values.unwrap_or(u64::MAX),
        max_bigint_bytes: max_bigint_bytes.unwrap_or(u32::MAX),
        node_ipc,
    }
}

/// `loads(data, *, max_depth=1000, max_bytes=268435456, max_values=10000000, max_bigint_bytes=1048576, node_ipc=False)`.
#[pyfunction]
#[pyo3(
    signature = (data, *, max_depth=Some(1000), max_bytes=Some(268435456), max_values=Some(10000000),
                 max_bigint_bytes=Some(1048576), node_ipc=false),
    text_signature = "(data, *, max_depth=1000, max_bytes=268435456, max_values=10000000, max_bigint_bytes=1048576, node_ipc=False)"
)]
pub fn v8_loads<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    max_depth: Option<u32>,
    max_bytes: Option<u64>,
    max_values: Option<u64>,
    max_bigint_bytes: Option<u32>,
    node_ipc: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let opts = decode_options(max_depth, max_bytes, max_values, max_bigint_bytes, node_ipc);
    loads(py, data, &opts, None)
}

/// The Python value of V8 bytes: decoded with `kept` (a `Decoder`'s memory) when given, else with memory of this call.
fn loads<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    opts: &DecodeOptions,
    kept: Option<&Mutex<formwire_v8::Decoder>>,
) -> PyResult<Bound<'py, PyAny>> {
    let c = classes(py)?;
    let buf = Buf::get(data)?;
    let input = buf.as_slice();
    // The decoder's memory, unless it is in use (another thread with the GIL released, or a call from the Python
    // code the conversion runs); then memory of this call, with the same limits.
    let mut guard = kept.and_then(|m| m.try_lock().ok());
    let mut dec = guard.as_deref_mut();
    let mut decode = || match dec.as_deref_mut() {
        Some(d) => d.decode_borrowed(input),
        None => formwire_v8::decode_borrowed_with(input, opts),
    };
    // A read-only buffer cannot change while the GIL is released (util::GIL_RELEASE_BYTES).
    let g = if buf.readonly() && input.len() >= GIL_RELEASE_BYTES { py.detach(decode) } else { decode() }
        .map_err(|e| errors::v8(py, &e))?;
    let mut t = ToPy { py, c, g: &g, objs: Vec::new(), keys: Vec::new() };
    t.objs.resize_with(g.len(), || None);
    t.shells()?;
    t.fill()?;
    let root = t.value(g.root())?;
    drop(t);
    match dec {
        Some(d) => d.recycle(g),
        None => drop(g),
    }
    drop(guard);
    drop(buf);
    Ok(root)
}

/// `formwire.v8.Decoder(*, max_depth=1000, ...)`: `loads` with the limits given once and the decoder's working
/// memory and graph arenas kept between calls (up to 1 MiB each).
#[pyclass(frozen, module = "formwire._formwire", name = "V8Decoder", subclass)]
pub struct V8Decoder {
    opts: DecodeOptions,
    dec: Mutex<formwire_v8::Decoder>,
}

#[pymethods]
impl V8Decoder {
    #[new]
    #[pyo3(
        signature = (*, max_depth=Some(1000), max_bytes=Some(268435456), max_values=Some(10000000),
                     max_bigint_bytes=Some(1048576), node_ipc=false),
        text_signature = "(*, max_depth=1000, max_bytes=268435456, max_values=10000000, max_bigint_bytes=1048576, node_ipc=False)"
    )]
    fn new(
        max_depth: Option<u32>,
        max_bytes: Option<u64>,
        max_values: Option<u64>,
        max_bigint_bytes: Option<u32>,
        node_ipc: bool,
    ) -> V8Decoder {
        let opts = decode_options(max_depth, max_bytes, max_values, max_bigint_bytes, node_ipc);
        V8Decoder { dec: Mutex::new(formwire_v8::Decoder::with_options(opts.clone())), opts }
    }

    /// The Python value of V8 bytes (as `loads` with this decoder's limits).
    fn loads<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, data, &self.opts, Some(&self.dec))
    }
}
