//! The conformance testee's clone ops (python/testee/, conformance/PROTOCOL.md): the neutral value description
//! of formwire-v8 straight to and from bytes. Built only with the `testee` feature (`make python-build`), so the
//! published wheel does not carry it; underscore names keep it out of the module's public surface and stubs.

use formwire_v8::EncodeOptions;
use formwire_v8_neutral as neutral;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::Value as Json;

use crate::errors;
use crate::util::Buf;
use crate::v8;

/// Neutral JSON (vectors/SCHEMA.md) to V8 bytes.
#[pyfunction]
#[pyo3(name = "_testee_neutral_encode", signature = (neutral_json, *, max_depth=None))]
pub fn neutral_encode<'py>(
    py: Python<'py>,
    neutral_json: &str,
    max_depth: Option<u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    let j: Json = serde_json::from_str(neutral_json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let g = neutral::from_json(&j).map_err(|e| errors::v8(py, &e))?;
    let mut opts = EncodeOptions::default();
    if let Some(d) = max_depth {
        opts.max_depth = d;
    }
    let bytes = formwire_v8::encode_with(&g, &opts).map_err(|e| errors::v8(py, &e))?;
    Ok(PyBytes::new(py, &bytes))
}

/// V8 bytes to neutral JSON text.
#[pyfunction]
#[pyo3(
    name = "_testee_neutral_decode",
    signature = (data, *, max_depth=Some(1000), max_bytes=Some(268435456), max_values=Some(10000000),
                 max_bigint_bytes=Some(1048576), node_ipc=false),
    text_signature = "(data, *, max_depth=1000, max_bytes=268435456, max_values=10000000, max_bigint_bytes=1048576, node_ipc=False)"
)]
pub fn neutral_decode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    max_depth: Option<u32>,
    max_bytes: Option<u64>,
    max_values: Option<u64>,
    max_bigint_bytes: Option<u32>,
    node_ipc: bool,
) -> PyResult<String> {
    let buf = Buf::get(data)?;
    let opts = v8::decode_options(max_depth, max_bytes, max_values, max_bigint_bytes, node_ipc);
    let g = formwire_v8::decode_with(buf.as_slice(), &opts).map_err(|e| errors::v8(py, &e))?;
    Ok(neutral::to_json(&g).to_string())
}
