//! Error mapping: formwire's coded errors become the Python classes of
//! `formwire.errors` (`ParseError(ValueError)` with `.code` and `.offset`,
//! one subclass per format), as `spec/errors.md` names them.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

static MULTIPART: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static URLENCODED: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static V8: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn raise(
    py: Python<'_>,
    cell: &PyOnceLock<Py<PyType>>,
    class: &str,
    code: &str,
    offset: u64,
    message: String,
) -> PyErr {
    let cls = match cell.import(py, "formwire.errors", class) {
        Ok(c) => c,
        Err(e) => return e,
    };
    match cls.call1((message, code, offset)) {
        Ok(inst) => PyErr::from_value(inst),
        Err(e) => e,
    }
}

/// A `formwire::Error` (MP_ or UE_ code) as `MultipartError` / `UrlencodedError`.
pub fn core(py: Python<'_>, e: formwire::Error) -> PyErr {
    let code = e.code.as_str();
    let msg = e.to_string();
    if code.starts_with("UE_") {
        raise(py, &URLENCODED, "UrlencodedError", code, e.offset, msg)
    } else {
        raise(py, &MULTIPART, "MultipartError", code, e.offset, msg)
    }
}

/// A `formwire_v8::Error` as `V8Error`.
pub fn v8(py: Python<'_>, e: &formwire_v8::Error) -> PyErr {
    raise(py, &V8, "V8Error", e.code.as_str(), e.offset, e.to_string())
}

/// A `V8Error` made here (conversion failures with a stable code).
pub fn v8_code(py: Python<'_>, code: formwire_v8::ErrorCode, offset: u64, message: &str) -> PyErr {
    raise(py, &V8, "V8Error", code.as_str(), offset, message.to_owned())
}
