//! Conversions shared by the modules: borrowed byte buffers, scalar-value
//! strings, and options.

use std::borrow::Cow;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// Chunks at least this long are scanned with the GIL released (when their
/// buffer is read-only, so no Python thread can change it meanwhile).
pub const GIL_RELEASE_BYTES: usize = 1 << 18;

/// A C-contiguous byte view of any buffer-protocol object, held for the
/// lifetime of this value (the exporter cannot resize it meanwhile).
pub struct Buf {
    view: Box<ffi::Py_buffer>,
}

// SAFETY: the view only points at memory kept alive by the exporter, which
// `Buf` holds a reference to; releasing it happens with the GIL (Drop is
// only run while attached, see `Drop`).
unsafe impl Send for Buf {}

impl Buf {
    /// Gets a simple (byte, C-contiguous) buffer of `obj`.
    pub fn get(obj: &Bound<'_, PyAny>) -> PyResult<Buf> {
        let mut view: Box<ffi::Py_buffer> = Box::new(unsafe { std::mem::zeroed() });
        // SAFETY: `view` is a valid, zeroed Py_buffer; PyBUF_SIMPLE asks for
        // a contiguous byte buffer.
        let rc = unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), &mut *view, ffi::PyBUF_SIMPLE) };
        if rc != 0 {
            let err = PyErr::take(obj.py()).unwrap_or_else(|| PyTypeError::new_err("a bytes-like object is required"));
            if err.is_instance_of::<PyTypeError>(obj.py()) {
                return Err(PyTypeError::new_err(format!(
                    "a bytes-like object is required, not '{}'",
                    obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                )));
            }
            return Err(err);
        }
        Ok(Buf { view })
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        if self.view.buf.is_null() || self.view.len <= 0 {
            return &[];
        }
        // SAFETY: a PyBUF_SIMPLE view is `len` contiguous bytes at `buf`,
        // valid until released in Drop.
        unsafe { std::slice::from_raw_parts(self.view.buf as *const u8, self.view.len as usize) }
    }

    /// `true` when the exporter says the memory is read-only (`bytes`).
    pub fn readonly(&self) -> bool {
        self.view.readonly != 0
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        // PyBuffer_Release needs the interpreter: attach (a no-op when attached).
        Python::attach(|_| unsafe { ffi::PyBuffer_Release(&mut *self.view) });
    }
}

/// A Python `str` as a scalar value string: UTF-8 as is, and every code point
/// U+D800..U+DFFF (a lone surrogate, which a Python `str` may hold) as U+FFFD
/// (UE-S-01, MP-S-07: USVString conversion).
pub fn usv<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    if let Ok(v) = s.to_str() {
        return Ok(Cow::Borrowed(v));
    }
    // SAFETY: encoding a str object with a registered codec and handler.
    let bytes = unsafe {
        Bound::from_owned_ptr_or_err(
            s.py(),
            ffi::PyUnicode_AsEncodedString(s.as_ptr(), c"utf-8".as_ptr(), c"surrogatepass".as_ptr()),
        )?
    };
    let bytes = bytes.cast_into::<PyBytes>()?;
    let b = bytes.as_bytes();
    // Every surrogate is exactly ED A0..BF 80..BF here: one U+FFFD each.
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    let mut start = 0;
    while i < b.len() {
        if b[i] == 0xED && i + 2 < b.len() && b[i + 1] >= 0xA0 {
            out.push_str(std::str::from_utf8(&b[start..i]).map_err(|e| PyValueError::new_err(e.to_string()))?);
            out.push('\u{FFFD}');
            i += 3;
            start = i;
        } else {
            i += 1;
        }
    }
    out.push_str(std::str::from_utf8(&b[start..]).map_err(|e| PyValueError::new_err(e.to_string()))?);
    Ok(Cow::Owned(out))
}

/// Any `str` argument as a scalar value string; other types are a TypeError
/// naming `what`.
pub fn usv_any<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Cow<'a, str>> {
    match obj.cast::<PyString>() {
        Ok(s) => usv(s),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} must be str, not '{}'",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))),
    }
}

/// Input that may be text or bytes: `str` is UTF-8 encoded (scalar values),
/// anything else must be a bytes-like object.
pub enum TextOrBytes<'a> {
    Text(Cow<'a, str>),
    Bytes(Buf),
}

impl TextOrBytes<'_> {
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            TextOrBytes::Text(s) => s.as_bytes(),
            TextOrBytes::Bytes(b) => b.as_slice(),
        }
    }
}

pub fn text_or_bytes<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<TextOrBytes<'a>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(TextOrBytes::Text(usv(s)?));
    }
    Ok(TextOrBytes::Bytes(Buf::get(obj)?))
}

/// A header value given as `str` or bytes (a Content-Type): bytes are
/// isomorphic-decoded, one code point per byte (MP-B-02).
pub fn header_str(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(usv(s)?.into_owned());
    }
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        let b = Buf::get(obj)?;
        return Ok(b.as_slice().iter().map(|&c| c as char).collect());
    }
    let b = Buf::get(obj)?;
    Ok(b.as_slice().iter().map(|&c| c as char).collect())
}

/// A limit argument: `None` is unlimited (`u64::MAX`), else a non-negative int.
pub fn limit(v: Option<i128>, name: &str) -> PyResult<u64> {
    match v {
        None => Ok(u64::MAX),
        Some(n) if n < 0 => Err(PyValueError::new_err(format!("{name} must be >= 0 or None"))),
        Some(n) => Ok(u64::try_from(n).unwrap_or(u64::MAX)),
    }
}

/// UTF-8 with U+FFFD for invalid sequences (WHATWG "UTF-8 decode without
/// BOM": the BOM is kept), as a Python str.
pub fn lossy_str<'py>(py: Python<'py>, b: &[u8]) -> Bound<'py, PyString> {
    match std::str::from_utf8(b) {
        Ok(s) => PyString::new(py, s),
        Err(_) => PyString::new(py, &String::from_utf8_lossy(b)),
    }
}

/// A Python str from Rust text: ASCII is copied straight into a new compact
/// string (no decoding pass); anything else goes through CPython's decoder.
#[inline]
pub fn fast_str<'py>(py: Python<'py>, s: &str) -> Bound<'py, PyString> {
    // The compact-string layout is not in the stable ABI (abi3 wheels take PyString::new).
    #[cfg(not(Py_LIMITED_API))]
    if s.is_ascii() {
        let b = s.as_bytes();
        // SAFETY: PyUnicode_New(n, 127) makes a compact ASCII string of n
        // one-byte code units, which we fill completely before it is shared.
        unsafe {
            let o = ffi::PyUnicode_New(b.len() as ffi::Py_ssize_t, 127);
            if !o.is_null() {
                std::ptr::copy_nonoverlapping(b.as_ptr(), ffi::PyUnicode_DATA(o) as *mut u8, b.len());
                return Bound::from_owned_ptr(py, o).cast_into_unchecked();
            }
            ffi::PyErr_Clear();
        }
    }
    PyString::new(py, s)
}

/// A 2-tuple of strs, built without intermediate iterators.
#[inline]
pub fn str_pair<'py>(py: Python<'py>, a: &str, b: &str) -> Bound<'py, PyAny> {
    let a = fast_str(py, a);
    let b = fast_str(py, b);
    // SAFETY: PyTuple_New(2) then both slots filled (SET_ITEM steals the references).
    unsafe {
        let t = ffi::PyTuple_New(2);
        if t.is_null() {
            panic!("out of memory");
        }
        set_tuple_item(t, 0, a.into_ptr());
        set_tuple_item(t, 1, b.into_ptr());
        // Two strs cannot form a cycle: keep the tuple out of the collector's lists
        // (CPython would untrack it at its first collection anyway).
        ffi::PyObject_GC_UnTrack(t.cast());
        Bound::from_owned_ptr(py, t)
    }
}

/// A list that takes ownership of `items` (no per-item reference churn).
pub fn list_of<'py>(py: Python<'py>, items: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    // SAFETY: PyList_New(n) then every slot filled exactly once (SET_ITEM steals).
    unsafe {
        let l = ffi::PyList_New(items.len() as ffi::Py_ssize_t);
        if l.is_null() {
            return Err(PyErr::fetch(py));
        }
        for (i, it) in items.into_iter().enumerate() {
            set_list_item(l, i as ffi::Py_ssize_t, it.into_ptr());
        }
        Ok(Bound::from_owned_ptr(py, l).cast_into_unchecked())
    }
}

/// `PyTuple_SET_ITEM` (a macro over the object layout) where the full API is there, `PyTuple_SetItem` in the
/// stable ABI; both steal `v`. Safety: `t` is a new tuple and slot `i` is empty and in range.
#[inline]
pub unsafe fn set_tuple_item(t: *mut ffi::PyObject, i: ffi::Py_ssize_t, v: *mut ffi::PyObject) {
    #[cfg(not(Py_LIMITED_API))]
    unsafe {
        ffi::PyTuple_SET_ITEM(t, i, v)
    };
    #[cfg(Py_LIMITED_API)]
    unsafe {
        ffi::PyTuple_SetItem(t, i, v)
    };
}

/// As [`set_tuple_item`], for lists. Safety: `l` is a list and slot `i` is empty and in range.
#[inline]
pub unsafe fn set_list_item(l: *mut ffi::PyObject, i: ffi::Py_ssize_t, v: *mut ffi::PyObject) {
    #[cfg(not(Py_LIMITED_API))]
    unsafe {
        ffi::PyList_SET_ITEM(l, i, v)
    };
    #[cfg(Py_LIMITED_API)]
    unsafe {
        ffi::PyList_SetItem(l, i, v)
    };
}
