//! `formwire.urlencoded`: WHATWG parse (whole or streaming) and serialize.

use formwire::urlencoded::{self, Options, Parser};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors;
use crate::util::{self, GIL_RELEASE_BYTES, TextOrBytes};

fn options(max_pairs: Option<i128>, max_bytes: Option<i128>) -> PyResult<Options> {
    let mut o = Options::default();
    o.max_pairs = util::limit(max_pairs, "max_pairs")?;
    o.max_bytes = util::limit(max_bytes, "max_bytes")?;
    Ok(o)
}

fn pairs_to_py<'py>(
    py: Python<'py>,
    pairs: &[(std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>)],
) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<Bound<'py, PyAny>> = pairs.iter().map(|(n, v)| util::str_pair(py, n, v)).collect();
    util::list_of(py, items)
}

/// Parses a whole input; large immutable inputs are scanned without the GIL (a mutable buffer could change under
/// the scan, so it keeps the GIL).
fn parse_input<'a>(py: Python<'_>, input: &'a TextOrBytes<'_>, o: &Options) -> PyResult<Vec<urlencoded::Pair<'a>>> {
    let bytes = input.as_bytes();
    let immutable = match input {
        TextOrBytes::Text(_) => true,
        TextOrBytes::Bytes(b) => b.readonly(),
    };
    let r = if bytes.len() >= GIL_RELEASE_BYTES && immutable {
        py.detach(|| urlencoded::parse_with(bytes, o))
    } else {
        urlencoded::parse_with(bytes, o)
    };
    r.map_err(|e| errors::core(py, e))
}

/// Parses a whole body (`str` is UTF-8 encoded first, UE-P-01) into `(name, value)` pairs.
#[pyfunction]
#[pyo3(
    signature = (data, *, max_pairs=Some(10000), max_bytes=Some(10485760)),
    text_signature = "(data, *, max_pairs=10000, max_bytes=10485760)"
)]
pub fn urlencoded_parse<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    max_pairs: Option<i128>,
    max_bytes: Option<i128>,
) -> PyResult<Bound<'py, PyList>> {
    let o = options(max_pairs, max_bytes)?;
    let input = util::text_or_bytes(data)?;
    pairs_to_py(py, &parse_input(py, &input, &o)?)
}

/// As `urlencoded_parse`, into a dict (the last value of a repeated name wins), without building the pairs.
#[pyfunction]
#[pyo3(
    signature = (data, *, max_pairs=Some(10000), max_bytes=Some(10485760)),
    text_signature = "(data, *, max_pairs=10000, max_bytes=10485760)"
)]
pub fn urlencoded_parse_dict<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    max_pairs: Option<i128>,
    max_bytes: Option<i128>,
) -> PyResult<Bound<'py, PyDict>> {
    let o = options(max_pairs, max_bytes)?;
    let input = util::text_or_bytes(data)?;
    let pairs = parse_input(py, &input, &o)?;
    let d = PyDict::new(py);
    for (n, v) in &pairs {
        let (k, v) = (util::fast_str(py, n), util::fast_str(py, v));
        // SAFETY: borrowed references to live objects; PyDict_SetItem takes its own.
        if unsafe { pyo3::ffi::PyDict_SetItem(d.as_ptr(), k.as_ptr(), v.as_ptr()) } != 0 {
            return Err(PyErr::fetch(py));
        }
    }
    Ok(d)
}

/// Serializes `(name, value)` pairs of `str` (lone surrogates become U+FFFD, UE-S-01).
#[pyfunction]
pub fn urlencoded_serialize(pairs: &Bound<'_, PyAny>) -> PyResult<String> {
    let mut out = String::new();
    for (i, item) in pairs.try_iter()?.enumerate() {
        let item = item?;
        let (n, v) = if let Ok(t) = item.cast::<PyTuple>() {
            if t.len() != 2 {
                return Err(PyTypeError::new_err("each pair must have 2 items"));
            }
            (t.get_item(0)?, t.get_item(1)?)
        } else {
            if item.len()? != 2 {
                return Err(PyTypeError::new_err("each pair must have 2 items"));
            }
            (item.get_item(0)?, item.get_item(1)?)
        };
        if i > 0 {
            out.push('&');
        }
        urlencoded::byte_serialize(util::usv_any(&n, "name")?.as_bytes(), &mut out);
        out.push('=');
        urlencoded::byte_serialize(util::usv_any(&v, "value")?.as_bytes(), &mut out);
    }
    Ok(out)
}

/// The streaming urlencoded parser: feed chunks, get the pairs completed so far.
#[pyclass(module = "formwire._formwire", name = "UrlencodedParser", subclass)]
pub struct UrlencodedParser {
    /// Boxed: kept out of the Python object's (16-byte aligned) memory.
    parser: Box<Parser>,
}

impl UrlencodedParser {
    fn run<'py>(&mut self, py: Python<'py>, data: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyList>> {
        let mut out: Vec<Bound<'py, PyAny>> = Vec::new();
        let input = match data {
            Some(d) => Some(util::text_or_bytes(d)?),
            None => None,
        };
        let mut feed = match &input {
            Some(i) => self.parser.feed(i.as_bytes()),
            None => self.parser.finish(),
        };
        while let Some(p) = feed.next() {
            match p {
                Ok((n, v)) => out.push(util::str_pair(py, &n, &v)),
                Err(e) => return Err(errors::core(py, e)),
            }
        }
        util::list_of(py, out)
    }
}

#[pymethods]
impl UrlencodedParser {
    #[new]
    #[pyo3(
        signature = (*, max_pairs=Some(10000), max_bytes=Some(10485760)),
        text_signature = "(*, max_pairs=10000, max_bytes=10485760)"
    )]
    fn new(max_pairs: Option<i128>, max_bytes: Option<i128>) -> PyResult<UrlencodedParser> {
        Ok(UrlencodedParser { parser: Box::new(Parser::new(options(max_pairs, max_bytes)?)) })
    }

    /// Feeds a chunk (`str` or bytes-like); returns the pairs it completed.
    fn feed<'py>(&mut self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.run(py, Some(data))
    }

    /// Ends the input; returns the last pair, if one is pending.
    fn close<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.run(py, None)
    }

    /// Bytes consumed so far.
    #[getter]
    fn offset(&self) -> u64 {
        self.parser.offset()
    }
}
