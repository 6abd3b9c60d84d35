//! `formwire.multipart`: the push parser, its events and part headers.
//!
//! The core parser runs over the caller's buffer (with the GIL released for
//! large read-only chunks); events are collected as offsets and turned into
//! Python objects afterwards: body data as `memoryview` slices of the fed
//! object (no copy), held-back bytes (at most one delimiter long) as `bytes`.

use formwire::multipart::{Event, Options, Parser};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::errors;
use crate::util::{self, Buf, GIL_RELEASE_BYTES};

/// The `PART_END` and `END` event markers.
#[pyclass(frozen, module = "formwire._formwire", name = "Marker")]
pub struct Marker {
    name: &'static str,
}

#[pymethods]
impl Marker {
    fn __repr__(&self) -> String {
        format!("formwire.multipart.{}", self.name)
    }

    fn __reduce__(&self) -> String {
        self.name.to_owned()
    }
}

static PART_END: PyOnceLock<Py<Marker>> = PyOnceLock::new();
static END: PyOnceLock<Py<Marker>> = PyOnceLock::new();

pub fn part_end(py: Python<'_>) -> &Py<Marker> {
    PART_END.get_or_init(py, || Py::new(py, Marker { name: "PART_END" }).expect("marker"))
}

pub fn end(py: Python<'_>) -> &Py<Marker> {
    END.get_or_init(py, || Py::new(py, Marker { name: "END" }).expect("marker"))
}

/// A part's header block, owned (the core lends it only until the next event).
#[derive(Debug)]
pub struct PartData {
    index: u64,
    /// `None` for a part without a name (`allow_missing_disposition`, MP-H-06).
    name: Option<String>,
    name_bytes: Option<Vec<u8>>,
    filename: Option<String>,
    filename_bytes: Option<Vec<u8>>,
    name_star: Option<Vec<u8>>,
    filename_star: Option<Vec<u8>>,
    /// `(lowercased name, name as written, value)` of each header, in order.
    headers: Vec<(String, Vec<u8>, Vec<u8>)>,
    content_type: Option<Vec<u8>>,
    body_offset: u64,
}

impl PartData {
    fn from_part(index: u64, p: &formwire::multipart::Part<'_>) -> PartData {
        PartData {
            index,
            name: p.has_name().then(|| p.name().into_owned()),
            name_bytes: p.has_name().then(|| p.name_bytes().to_vec()),
            filename: p.filename().map(|f| f.into_owned()),
            filename_bytes: p.filename_bytes().map(<[u8]>::to_vec),
            name_star: p.name_star().map(<[u8]>::to_vec),
            filename_star: p.filename_star().map(<[u8]>::to_vec),
            headers: p
                .headers()
                .map(|h| (h.name().to_owned(), h.name_as_written().to_vec(), h.value().to_vec()))
                .collect(),
            content_type: p.content_type().map(<[u8]>::to_vec),
            body_offset: p.body_offset(),
        }
    }

    /// MP-F-03: the File `type` (`text/plain` without a Content-Type).
    fn mime_type(&self) -> String {
        if self.content_type.is_none() {
            return "text/plain".to_owned();
        }
        let values = self.headers.iter().filter(|(n, _, _)| n == "content-type").map(|(_, _, v)| v.as_slice());
        formwire::mime::extract(values).map(|m| m.to_string()).unwrap_or_default()
    }
}

/// The headers of one part (the `PartStart` event).
#[pyclass(frozen, module = "formwire._formwire", name = "Part")]
pub struct Part {
    d: PartData,
    name: Option<Py<PyString>>,
}

impl Part {
    pub fn new(py: Python<'_>, d: PartData) -> Part {
        let name = d.name.as_deref().map(|n| PyString::new(py, n).unbind());
        Part { d, name }
    }
}

#[pymethods]
impl Part {
    /// The `name` parameter, UTF-8 decoded with U+FFFD, never percent-decoded (MP-H-10); `None` for a
    /// part without a name (`allow_missing_disposition`: no Content-Disposition, or an empty one, MP-H-06).
    #[getter]
    fn name(&self, py: Python<'_>) -> Option<Py<PyString>> {
        self.name.as_ref().map(|n| n.clone_ref(py))
    }

    /// The raw bytes of the `name` parameter; `None` for a part without a name.
    #[getter]
    fn name_bytes<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.d.name_bytes.as_deref().map(|b| PyBytes::new(py, b))
    }

    /// The `filename` parameter (MP-H-10), `None` for a text field. No path is stripped.
    #[getter]
    fn filename(&self) -> Option<&str> {
        self.d.filename.as_deref()
    }

    /// The raw bytes of the `filename` parameter.
    #[getter]
    fn filename_bytes<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.d.filename_bytes.as_deref().map(|b| PyBytes::new(py, b))
    }

    /// The raw `name*` parameter (RFC 8187), never decoded, never overriding `name` (MP-H-09).
    #[getter]
    fn name_star<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.d.name_star.as_deref().map(|b| util::lossy_str(py, b))
    }

    /// The raw `filename*` parameter (RFC 8187), never decoded (MP-H-09).
    #[getter]
    fn filename_star<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.d.filename_star.as_deref().map(|b| util::lossy_str(py, b))
    }

    /// The last Content-Type header's value as is, OWS-trimmed (MP-H-11), or `None`.
    #[getter]
    fn content_type<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.d.content_type.as_deref().map(|b| util::lossy_str(py, b))
    }

    /// For a file part, the File `type` a browser's `formData()` gives (MP-F-03); `None` for a text field.
    #[getter]
    #[pyo3(name = "type")]
    fn type_(&self) -> Option<String> {
        if self.d.filename.is_some() { Some(self.d.mime_type()) } else { None }
    }

    /// `True` when the part has a `filename` (a File entry).
    #[getter]
    fn is_file(&self) -> bool {
        self.d.filename.is_some()
    }

    /// Every header in order: `(lowercased name, value)`, values UTF-8 decoded with U+FFFD (MP-H-11).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyTuple>> = self
            .d
            .headers
            .iter()
            .map(|(n, _, v)| PyTuple::new(py, [PyString::new(py, n), util::lossy_str(py, v)]))
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// Every header in order as raw `(lowercased name, value)` bytes.
    #[getter]
    fn raw_headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyTuple>> = self
            .d
            .headers
            .iter()
            .map(|(n, _, v)| PyTuple::new(py, [PyBytes::new(py, n.as_bytes()), PyBytes::new(py, v)]))
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// Every header in order as raw `(name as written, value)` bytes: the name's bytes exactly as the
    /// client sent them (case kept, bytes 80-FF as sent), where `raw_headers` and `headers` lowercase it.
    #[getter]
    fn headers_as_written<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyTuple>> = self
            .d
            .headers
            .iter()
            .map(|(_, w, v)| PyTuple::new(py, [PyBytes::new(py, w), PyBytes::new(py, v)]))
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// The part's number in the body, from 0.
    #[getter]
    fn index(&self) -> u64 {
        self.d.index
    }

    /// The absolute offset of the first body byte.
    #[getter]
    fn body_offset(&self) -> u64 {
        self.d.body_offset
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let r = |o: Option<Bound<'_, PyString>>| -> PyResult<String> {
            match o {
                Some(s) => Ok(s.repr()?.to_str()?.to_owned()),
                None => Ok("None".to_owned()),
            }
        };
        Ok(format!(
            "Part(index={}, name={}, filename={}, content_type={})",
            self.d.index,
            r(self.name.as_ref().map(|n| n.bind(py).clone()))?,
            r(self.d.filename.as_deref().map(|f| PyString::new(py, f)))?,
            r(self.content_type(py))?,
        ))
    }
}

/// One event, without borrows or Python objects (collected without the GIL).
enum Ev {
    Part(PartData),
    Data(usize, usize),
    Held(Vec<u8>),
    PartEnd,
    End,
    /// `buffer_fields`: a whole text field: raw name bytes `arena[a..b]`, value `arena[b..c]`.
    Field(usize, usize, usize),
}

/// `field_errors`: a buffered field that is not valid UTF-8 comes as `(str, str)` with U+FFFD for
/// invalid sequences (MP-H-10, MP-F-01), or as its raw `(bytes, bytes)`, so that a caller with
/// its own decoding rule (a framework's fallback charset) applies it without losing bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FieldErrors {
    Replace,
    Bytes,
}

impl FieldErrors {
    fn parse(s: &str) -> PyResult<FieldErrors> {
        match s {
            "replace" => Ok(FieldErrors::Replace),
            "bytes" => Ok(FieldErrors::Bytes),
            _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "field_errors must be \"replace\" or \"bytes\", not {s:?}"
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            FieldErrors::Replace => "replace",
            FieldErrors::Bytes => "bytes",
        }
    }
}

struct Core {
    /// Boxed: the parser's SIMD searcher needs 32-byte alignment, and a
    /// pyclass lives in memory the Python allocator aligns to 16 only.
    parser: Box<Parser>,
    buffer_fields: bool,
    /// `buffer_fields`: how a field whose name or value is not valid UTF-8 is handed out.
    field_errors: FieldErrors,
    /// `buffer_fields`: the text field being read, `(name start, name end)` in `arena`; its value
    /// follows the name there.
    field: Option<(usize, usize)>,
    /// `buffer_fields`: a part without a name is being read; its events are dropped (MP-F-05: no
    /// `(name, value)` tuple can hold it; the parser counted it as a field for every limit).
    nameless: bool,
    /// Names and values of buffered fields, reused from chunk to chunk (no allocation per field).
    arena: Vec<u8>,
    parts: u64,
}

impl Core {
    /// Runs one chunk (or the end of input) and collects its events.
    fn run(&mut self, chunk: &[u8], eof: bool, out: &mut Vec<Ev>) -> Result<(), formwire::Error> {
        // The previous chunk's fields were handed out: keep only a field still being read.
        match &mut self.field {
            Some((a, b)) => {
                self.arena.drain(..*a);
                *b -= *a;
                *a = 0;
            }
            None => self.arena.clear(),
        }
        let base = chunk.as_ptr() as usize;
        let mut feed = if eof { self.parser.finish() } else { self.parser.feed(chunk) };
        while let Some(ev) = feed.next() {
            match ev? {
                Event::PartStart(p) => {
                    let index = self.parts;
                    self.parts += 1;
                    if self.buffer_fields && !p.has_name() {
                        self.nameless = true;
                    } else if self.buffer_fields && !p.is_file() {
                        let a = self.arena.len();
                        self.arena.extend_from_slice(p.name_bytes());
                        self.field = Some((a, self.arena.len()));
                    } else {
                        out.push(Ev::Part(PartData::from_part(index, &p)));
                    }
                }
                Event::Data(_) | Event::HeldData(_) if self.nameless => {}
                Event::Data(d) => match &self.field {
                    Some(_) => self.arena.extend_from_slice(d),
                    None => {
                        let a = d.as_ptr() as usize - base;
                        out.push(Ev::Data(a, a + d.len()));
                    }
                },
                Event::HeldData(d) => match &self.field {
                    Some(_) => self.arena.extend_from_slice(d),
                    None => out.push(Ev::Held(d.to_vec())),
                },
                Event::PartEnd if self.nameless => self.nameless = false,
                Event::PartEnd => match self.field.take() {
                    Some((a, b)) => out.push(Ev::Field(a, b, self.arena.len())),
                    None => out.push(Ev::PartEnd),
                },
                Event::End => out.push(Ev::End),
            }
        }
        Ok(())
    }
}

/// The multipart push parser (`formwire.multipart.Parser` subclasses it).
#[pyclass(module = "formwire._formwire", name = "MultipartParser", subclass)]
pub struct MultipartParser {
    core: Core,
}

/// Builds core options from the keyword arguments (None = unlimited).
#[allow(clippy::too_many_arguments)]
fn options(
    allow_preamble: bool,
    allow_lf: bool,
    allow_obs_fold: bool,
    allow_quoted_pairs: bool,
    allow_missing_disposition: bool,
    allow_any_disposition_type: bool,
    allow_junk_after_close: bool,
    allow_utf8_header_names: bool,
    allow_cr: bool,
    allow_near_delimiters: bool,
    allow_8bit_parameter_names: bool,
    allow_rfc2231_continuations: bool,
    max_boundary_bytes: Option<i128>,
    max_parts: Option<i128>,
    max_files: Option<i128>,
    max_fields: Option<i128>,
    max_headers: Option<i128>,
    max_header_bytes: Option<i128>,
    max_field_bytes: Option<i128>,
    max_total_field_bytes: Option<i128>,
    max_file_bytes: Option<i128>,
    max_total_bytes: Option<i128>,
) -> PyResult<Options> {
    // By the registry's names (spec/registry.json), through the core's own setters.
    let mut o = Options::default();
    let flags = [
        ("allow_preamble", allow_preamble),
        ("allow_lf", allow_lf),
        ("allow_obs_fold", allow_obs_fold),
        ("allow_quoted_pairs", allow_quoted_pairs),
        ("allow_missing_disposition", allow_missing_disposition),
        ("allow_any_disposition_type", allow_any_disposition_type),
        ("allow_junk_after_close", allow_junk_after_close),
        ("allow_utf8_header_names", allow_utf8_header_names),
        ("allow_cr", allow_cr),
        ("allow_near_delimiters", allow_near_delimiters),
        ("allow_8bit_parameter_names", allow_8bit_parameter_names),
        ("allow_rfc2231_continuations", allow_rfc2231_continuations),
    ];
    for (name, on) in flags {
        let known = o.set_flag(name, on);
        debug_assert!(known, "{name}");
    }
    let limits = [
        ("max_boundary_bytes", max_boundary_bytes),
        ("max_parts", max_parts),
        ("max_files", max_files),
        ("max_fields", max_fields),
        ("max_headers", max_headers),
        ("max_header_bytes", max_header_bytes),
        ("max_field_bytes", max_field_bytes),
        ("max_total_field_bytes", max_total_field_bytes),
        ("max_file_bytes", max_file_bytes),
        ("max_total_bytes", max_total_bytes),
    ];
    for (name, v) in limits {
        let known = o.set_limit(name, Some(util::limit(v, name)?));
        debug_assert!(known, "{name}");
    }
    Ok(o)
}

fn boundary_bytes(b: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = b.cast::<PyString>() {
        return Ok(util::usv(s)?.as_bytes().to_vec());
    }
    Ok(Buf::get(b)?.as_slice().to_vec())
}

fn opt_limit(py: Python<'_>, v: u64) -> Py<PyAny> {
    if v == u64::MAX {
        py.None()
    } else {
        v.into_pyobject(py).map(|x| x.into_any().unbind()).unwrap_or_else(|_| py.None())
    }
}

impl MultipartParser {
    fn run_py<'py>(
        &mut self,
        py: Python<'py>,
        data: Option<&Bound<'py, PyAny>>,
        spans: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let raw = self.core.field_errors == FieldErrors::Bytes;
        let mut evs = Vec::new();
        let (r, chunk_len) = match data {
            None => (self.core.run(&[], true, &mut evs), 0),
            Some(obj) => {
                let buf = Buf::get(obj)?;
                let slice = buf.as_slice();
                let n = slice.len();

                let r = if n >= GIL_RELEASE_BYTES && buf.readonly() {
                    let core = &mut self.core;
                    let evs = &mut evs;
                    py.detach(move || core.run(slice, false, evs))
                } else {
                    self.core.run(slice, false, &mut evs)
                };
                drop(buf);
                (r, n)
            }
        };
        if let Err(e) = r {
            let err = errors::core(py, e);
            if !evs.is_empty() {
                // The events of this chunk before the error, for callers whose own checks (a
                // Starlette limit) come first in stream order; the parse's result is still the error.
                let before = events_to_py(py, evs, &self.core.arena, data, chunk_len, spans, raw)?;
                err.value(py).setattr("events", before)?;
            }
            return Err(err);
        }
        events_to_py(py, evs, &self.core.arena, data, chunk_len, spans, raw)
    }
}

fn events_to_py<'py>(
    py: Python<'py>,
    evs: Vec<Ev>,
    arena: &[u8],
    data: Option<&Bound<'py, PyAny>>,
    chunk_len: usize,
    spans: bool,
    raw_invalid: bool,
) -> PyResult<Bound<'py, PyList>> {
    let mut mv: Option<Bound<'py, PyAny>> = None;
    let mut items: Vec<Bound<'py, PyAny>> = Vec::with_capacity(evs.len());
    for ev in evs {
        let item = match ev {
            Ev::Part(d) => Bound::new(py, Part::new(py, d))?.into_any(),
            Ev::Data(a, b) => {
                if spans {
                    PyTuple::new(py, [a, b])?.into_any()
                } else {
                    let obj = data.expect("data events come from a chunk");
                    if mv.is_none() {
                        // SAFETY: a new memoryview over an object that supports the buffer protocol.
                        let mut m =
                            unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyMemoryView_FromObject(obj.as_ptr()))? };
                        if !obj.is_instance_of::<PyBytes>() && !obj.is_instance_of::<PyByteArray>() {
                            // Offsets are in bytes: view other exporters (an `array('I')`, a 2-D
                            // memoryview) as one flat run of unsigned bytes first.
                            let itemsize: usize = m.getattr("itemsize")?.extract()?;
                            let ndim: usize = m.getattr("ndim")?.extract()?;
                            if itemsize != 1 || ndim != 1 {
                                m = m.call_method1("cast", ("B",))?;
                            }
                        }
                        mv = Some(m);
                    }
                    let m = mv.as_ref().expect("set above");
                    if a == 0 && b == chunk_len {
                        m.clone()
                    } else {
                        // SAFETY: slicing a memoryview shares its buffer (no copy).
                        unsafe {
                            Bound::from_owned_ptr_or_err(
                                py,
                                ffi::PySequence_GetSlice(m.as_ptr(), a as isize, b as isize),
                            )?
                        }
                    }
                }
            }
            Ev::Held(b) => PyBytes::new(py, &b).into_any(),
            Ev::PartEnd => part_end(py).bind(py).clone().into_any(),
            Ev::End => end(py).bind(py).clone().into_any(),
            Ev::Field(a, b, c) => {
                // Name (MP-H-10) and value (MP-F-01): UTF-8, U+FFFD for invalid sequences, or
                // both raw with `field_errors="bytes"`.
                match (std::str::from_utf8(&arena[a..b]), std::str::from_utf8(&arena[b..c])) {
                    (Ok(n), Ok(v)) => util::str_pair(py, n, v),
                    _ if raw_invalid => {
                        PyTuple::new(py, [PyBytes::new(py, &arena[a..b]), PyBytes::new(py, &arena[b..c])])?.into_any()
                    }
                    _ => util::str_pair(
                        py,
                        &String::from_utf8_lossy(&arena[a..b]),
                        &String::from_utf8_lossy(&arena[b..c]),
                    ),
                }
            }
        };
        items.push(item);
    }
    util::list_of(py, items)
}

#[pymethods]
impl MultipartParser {
    #[new]
    #[pyo3(
        signature = (boundary, *, allow_preamble=false, allow_lf=false, allow_obs_fold=false,
                     allow_quoted_pairs=false, allow_missing_disposition=false,
                     allow_any_disposition_type=false, allow_junk_after_close=false,
                     allow_utf8_header_names=false, allow_cr=false, allow_near_delimiters=false,
                     allow_8bit_parameter_names=false, allow_rfc2231_continuations=false, max_boundary_bytes=Some(256), max_parts=Some(1000),
                     max_files=Some(1000), max_fields=Some(1000), max_headers=Some(8), max_header_bytes=Some(8192), max_field_bytes=Some(1048576),
                     max_total_field_bytes=Some(10485760), max_file_bytes=Some(10737418240),
                     max_total_bytes=Some(21474836480), buffer_fields=false, field_errors="replace"),
        text_signature = "(boundary, *, allow_preamble=False, allow_lf=False, allow_obs_fold=False, allow_quoted_pairs=False, allow_missing_disposition=False, allow_any_disposition_type=False, allow_junk_after_close=False, allow_utf8_header_names=False, allow_cr=False, allow_near_delimiters=False, allow_8bit_parameter_names=False, allow_rfc2231_continuations=False, max_boundary_bytes=256, max_parts=1000, max_files=1000, max_fields=1000, max_headers=8, max_header_bytes=8192, max_field_bytes=1048576, max_total_field_bytes=10485760, max_file_bytes=10737418240, max_total_bytes=21474836480, buffer_fields=False, field_errors=\"replace\")"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        boundary: &Bound<'_, PyAny>,
        allow_preamble: bool,
        allow_lf: bool,
        allow_obs_fold: bool,
        allow_quoted_pairs: bool,
        allow_missing_disposition: bool,
        allow_any_disposition_type: bool,
        allow_junk_after_close: bool,
        allow_utf8_header_names: bool,
        allow_cr: bool,
        allow_near_delimiters: bool,
        allow_8bit_parameter_names: bool,
        allow_rfc2231_continuations: bool,
        max_boundary_bytes: Option<i128>,
        max_parts: Option<i128>,
        max_files: Option<i128>,
        max_fields: Option<i128>,
        max_headers: Option<i128>,
        max_header_bytes: Option<i128>,
        max_field_bytes: Option<i128>,
        max_total_field_bytes: Option<i128>,
        max_file_bytes: Option<i128>,
        max_total_bytes: Option<i128>,
        buffer_fields: bool,
        field_errors: &str,
    ) -> PyResult<MultipartParser> {
        let py = boundary.py();
        let o = options(
            allow_preamble,
            allow_lf,
            allow_obs_fold,
            allow_quoted_pairs,
            allow_missing_disposition,
            allow_any_disposition_type,
            allow_junk_after_close,
            allow_utf8_header_names,
            allow_cr,
            allow_near_delimiters,
            allow_8bit_parameter_names,
            allow_rfc2231_continuations,
            max_boundary_bytes,
            max_parts,
            max_files,
            max_fields,
            max_headers,
            max_header_bytes,
            max_field_bytes,
            max_total_field_bytes,
            max_file_bytes,
            max_total_bytes,
        )?;
        let b = boundary_bytes(boundary)?;
        let parser = Parser::new(&b, o).map_err(|e| errors::core(py, e))?;
        Ok(MultipartParser {
            core: Core {
                parser: Box::new(parser),
                buffer_fields,
                field_errors: FieldErrors::parse(field_errors)?,
                field: None,
                nameless: false,
                arena: Vec::new(),
                parts: 0,
            },
        })
    }

    /// Feeds one chunk (any bytes-like object); returns its events in order.
    fn feed<'py>(&mut self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.run_py(py, Some(data), false)
    }

    /// As `feed`, but body data of this chunk comes as `(start, end)` offsets into `data`.
    fn feed_spans<'py>(&mut self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.run_py(py, Some(data), true)
    }

    /// Ends the input: the remaining events, or `MultipartError` (`MP_TRUNCATED`) unless the form was complete.
    fn close<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.run_py(py, None, false)
    }

    /// The boundary `B` (the bytes after `--`).
    #[getter]
    fn boundary<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.core.parser.boundary())
    }

    /// Bytes consumed so far.
    #[getter]
    fn offset(&self) -> u64 {
        self.core.parser.offset()
    }

    /// `True` once the close delimiter line is complete.
    #[getter]
    fn done(&self) -> bool {
        self.core.parser.is_done()
    }

    /// Whether text fields come as one `(name, value)` tuple each.
    #[getter]
    fn buffer_fields(&self) -> bool {
        self.core.buffer_fields
    }

    /// How buffered fields that are not valid UTF-8 come: `"replace"` or `"bytes"`.
    #[getter]
    fn field_errors(&self) -> &'static str {
        self.core.field_errors.name()
    }

    /// `buffer_fields`: `True` while a text field is open: its headers were read, its
    /// `(name, value)` tuple is not out yet (also after an error inside its body). Also while a part
    /// without a name is read (`allow_missing_disposition`): a field whose tuple never comes (MP-F-05).
    #[getter]
    fn in_field(&self) -> bool {
        self.core.field.is_some() || self.core.nameless
    }

    /// The lenient flags and limits in force (`None` = unlimited).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let o = self.core.parser.options();
        let d = PyDict::new(py);
        d.set_item("allow_preamble", o.allow_preamble)?;
        d.set_item("allow_lf", o.allow_lf)?;
        d.set_item("allow_obs_fold", o.allow_obs_fold)?;
        d.set_item("allow_quoted_pairs", o.allow_quoted_pairs)?;
        d.set_item("allow_missing_disposition", o.allow_missing_disposition)?;
        d.set_item("allow_any_disposition_type", o.allow_any_disposition_type)?;
        d.set_item("allow_junk_after_close", o.allow_junk_after_close)?;
        d.set_item("allow_utf8_header_names", o.allow_utf8_header_names)?;
        d.set_item("allow_cr", o.allow_cr)?;
        d.set_item("allow_near_delimiters", o.allow_near_delimiters)?;
        d.set_item("allow_8bit_parameter_names", o.allow_8bit_parameter_names)?;
        d.set_item("allow_rfc2231_continuations", o.allow_rfc2231_continuations)?;
        d.set_item("max_boundary_bytes", opt_limit(py, o.max_boundary_bytes))?;
        d.set_item("max_parts", opt_limit(py, o.max_parts))?;
        d.set_item("max_files", opt_limit(py, o.max_files))?;
        d.set_item("max_fields", opt_limit(py, o.max_fields))?;
        d.set_item("max_headers", opt_limit(py, o.max_headers))?;
        d.set_item("max_header_bytes", opt_limit(py, o.max_header_bytes))?;
        d.set_item("max_field_bytes", opt_limit(py, o.max_field_bytes))?;
        d.set_item("max_total_field_bytes", opt_limit(py, o.max_total_field_bytes))?;
        d.set_item("max_file_bytes", opt_limit(py, o.max_file_bytes))?;
        d.set_item("max_total_bytes", opt_limit(py, o.max_total_bytes))?;
        Ok(d)
    }
}

/// MP-B-01..03: the boundary of a request Content-Type (`str`, or bytes isomorphic-decoded).
#[pyfunction]
pub fn boundary_from_content_type<'py>(
    py: Python<'py>,
    content_type: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let ct = util::header_str(content_type)?;
    let b = formwire::multipart::boundary_from_content_type(&ct).map_err(|e| errors::core(py, e))?;
    Ok(PyBytes::new(py, &b))
}

/// Reads a Content-Disposition value with the parser's own grammar (MP-H-07..10, the core's
/// `ContentDisposition::parse_with`): `(name, filename, name_star, filename_star)` as raw bytes, or
/// `None` when it is not valid. `allow_quoted_pairs`, `allow_any_disposition_type`,
/// `allow_8bit_parameter_names` and `allow_rfc2231_continuations` as the parser options of those
/// names.
#[pyfunction]
#[pyo3(signature = (value, *, allow_quoted_pairs=false, allow_any_disposition_type=false,
                    allow_8bit_parameter_names=false, allow_rfc2231_continuations=false))]
pub fn parse_disposition<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    allow_quoted_pairs: bool,
    allow_any_disposition_type: bool,
    allow_8bit_parameter_names: bool,
    allow_rfc2231_continuations: bool,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let v = util::text_or_bytes(value)?;
    let mut o = Options::default();
    o.allow_quoted_pairs = allow_quoted_pairs;
    o.allow_any_disposition_type = allow_any_disposition_type;
    o.allow_8bit_parameter_names = allow_8bit_parameter_names;
    o.allow_rfc2231_continuations = allow_rfc2231_continuations;
    let Some(d) = formwire::multipart::ContentDisposition::parse_with(v.as_bytes(), &o) else {
        return Ok(None);
    };
    let b = |x: Option<Vec<u8>>| x.map(|x| PyBytes::new(py, &x).into_any());
    Ok(Some(PyTuple::new(
        py,
        [Some(PyBytes::new(py, &d.name).into_any()), b(d.filename), b(d.name_star), b(d.filename_star)],
    )?))
}

/// The WHATWG MIME type parser (MIME Sniffing §4.4): `(type, subtype, [(name, value), ...])`
/// lowercased type/subtype/names, or `None` when the input does not parse.
#[pyfunction]
pub fn parse_mime<'py>(py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let s = util::header_str(value)?;
    let Some(m) = formwire::mime::MimeType::parse(&s) else {
        return Ok(None);
    };
    let params: Vec<Bound<'py, PyTuple>> =
        m.params().map(|(k, v)| PyTuple::new(py, [k, v])).collect::<PyResult<_>>()?;
    let params = PyList::new(py, params)?;
    Ok(Some(PyTuple::new(
        py,
        [PyString::new(py, m.type_()).into_any(), PyString::new(py, m.subtype()).into_any(), params.into_any()],
    )?))
}
