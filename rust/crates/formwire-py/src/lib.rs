//! `formwire._formwire`: the native half of the Python package `formwire`.
//!
//! Only type conversion and error mapping live here; every rule is
//! implemented (and cited) in the `formwire` and `formwire-v8` crates.

use pyo3::prelude::*;

mod encode;
mod errors;
mod multipart;
#[cfg(feature = "testee")]
mod testee;
mod urlencoded;
mod util;
mod v8;

#[pymodule]
fn _formwire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<multipart::MultipartParser>()?;
    m.add_class::<multipart::Part>()?;
    m.add_class::<multipart::Marker>()?;
    m.add("PART_END", multipart::part_end(py).clone_ref(py))?;
    m.add("END", multipart::end(py).clone_ref(py))?;
    m.add_function(wrap_pyfunction!(multipart::boundary_from_content_type, m)?)?;
    m.add_function(wrap_pyfunction!(multipart::parse_disposition, m)?)?;
    m.add_function(wrap_pyfunction!(multipart::parse_mime, m)?)?;
    m.add_function(wrap_pyfunction!(encode::encode_frames, m)?)?;
    m.add_class::<urlencoded::UrlencodedParser>()?;
    m.add_function(wrap_pyfunction!(urlencoded::urlencoded_parse, m)?)?;
    m.add_function(wrap_pyfunction!(urlencoded::urlencoded_parse_dict, m)?)?;
    m.add_function(wrap_pyfunction!(urlencoded::urlencoded_serialize, m)?)?;
    m.add_function(wrap_pyfunction!(v8::v8_dumps, m)?)?;
    m.add_function(wrap_pyfunction!(v8::v8_loads, m)?)?;
    m.add_class::<v8::V8Decoder>()?;
    m.add_class::<v8::V8Encoder>()?;
    // setattr, not add_function: the testee's functions stay out of `__all__` (and so out of the stubs).
    #[cfg(feature = "testee")]
    {
        m.setattr("_testee_neutral_encode", wrap_pyfunction!(testee::neutral_encode, m)?)?;
        m.setattr("_testee_neutral_decode", wrap_pyfunction!(testee::neutral_decode, m)?)?;
    }
    m.add("GIL_RELEASE_BYTES", util::GIL_RELEASE_BYTES)?;
    Ok(())
}
