//! `formwire.multipart.encode`: the framing bytes around file bodies.
//!
//! The core encoder (MP-S-01..10) renders everything but the file bodies;
//! Python streams the bodies between the frames, so a file is never copied
//! into an intermediate buffer (MP-S-04) and the length is known up front
//! whenever every body's size is (MP-S-08).

use formwire::multipart::Encoder;
use pyo3::exceptions::{PyIOError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use crate::errors;
use crate::util;

/// `(boundary, content_type, frames, bodies)` for `entries`, a list of `(name, value)` pairs whose
/// value is a `str` (a text entry) or a file object with `filename`, `type` and `content` attributes
/// (`formwire.multipart.File`), or `(name, filename, content_type)` file entries (their body is
/// `None` in `bodies`). `frames` has one more item than there are file entries: frame 0, body 0,
/// frame 1, ..., body n-1, frame n.
#[pyfunction]
#[pyo3(signature = (entries, boundary=None))]
pub fn encode_frames<'py>(
    py: Python<'py>,
    entries: &Bound<'py, PyList>,
    boundary: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let boundary = match boundary {
        Some(b) if !b.is_none() => util::usv_any(b, "boundary")?.into_owned(),
        _ => formwire::multipart::encode::random_boundary(),
    };
    let new_encoder = || Encoder::with_boundary(&boundary).map_err(|e| errors::core(py, e));
    let mut enc = new_encoder()?;
    let content_type = enc.content_type();
    let close_len = format!("--{boundary}--\r\n").len();
    let mut frames: Vec<Bound<'py, PyBytes>> = Vec::new();
    let mut bodies: Vec<Bound<'py, PyAny>> = Vec::new();
    let mut after_body = false;
    let segment = |enc: Encoder<'_>, after_body: bool, strip: usize| -> PyResult<Vec<u8>> {
        let v = enc.encode_to_vec().map_err(|e| PyIOError::new_err(e.to_string()))?;
        let mut out = Vec::with_capacity(v.len() + 2);
        if after_body {
            // MP-S-01: the CRLF after the previous file body.
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(&v[..v.len() - strip]);
        Ok(out)
    };
    for (i, item) in entries.iter().enumerate() {
        let t = item.cast::<PyTuple>().map_err(|_| PyTypeError::new_err("entries must be tuples"))?;
        match t.len() {
            2 if t.get_item(1)?.is_instance_of::<PyString>() => {
                let name = t.get_item(0)?;
                let value = t.get_item(1)?;
                enc.text(&util::usv_any(&name, "name")?, &util::usv_any(&value, "value")?);
            }
            2 | 3 => {
                let name = t.get_item(0)?;
                let (filename, ct) = if t.len() == 3 {
                    bodies.push(py.None().into_bound(py));
                    (t.get_item(1)?, t.get_item(2)?)
                } else {
                    let f = t.get_item(1)?;
                    if !f.hasattr("filename")? {
                        return Err(PyTypeError::new_err(format!(
                            "a form value must be str or a File, not '{}'",
                            f.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                        )));
                    }
                    bodies.push(f.getattr("content")?);
                    (f.getattr("filename")?, f.getattr("type")?)
                };
                let name = util::usv_any(&name, "name")?;
                let filename = util::usv_any(&filename, "filename")?;
                let ct = util::usv_any(&ct, "content_type")?;
                if let Err(mut e) = enc.file(&name, &filename, &ct, &b""[..]) {
                    // MP-S-06: the offset is the entry's index in the whole form.
                    e.offset = i as u64;
                    return Err(errors::core(py, e));
                }
                // Everything up to the (empty) body: drop the CRLF after it and the close delimiter.
                let done = std::mem::replace(&mut enc, new_encoder()?);
                frames.push(PyBytes::new(py, &segment(done, after_body, close_len + 2)?));
                after_body = true;
            }
            _ => return Err(PyTypeError::new_err("an entry is (name, value) or (name, filename, content_type)")),
        }
    }
    frames.push(PyBytes::new(py, &segment(enc, after_body, 0)?));
    let frames = PyList::new(py, frames)?;
    let bodies = PyList::new(py, bodies)?;
    PyTuple::new(
        py,
        [
            boundary.into_pyobject(py)?.into_any(),
            content_type.into_pyobject(py)?.into_any(),
            frames.into_any(),
            bodies.into_any(),
        ],
    )
}
