//! A whole form with large files spooled to disk (feature `spool`): what
//! multer, actix-multipart's `tempfile` and Starlette's `UploadFile` users
//! expect from a form extractor.
//!
//! Fields are decoded into memory (bounded by the parser's
//! `max_field_bytes` and `max_total_field_bytes`). A part without a name
//! (`allow_missing_disposition`, MP-H-06) is skipped (MP-F-05): its body is
//! read and dropped, and it still counts for every limit. A file part stays in
//! memory while it is at most [`SpoolOptions::memory_threshold`] bytes;
//! once it grows past that, what was held and everything after it goes to
//! a temp file, created owner-only (mode 0600 on Unix) in
//! [`SpoolOptions::dir`]. The number of files is the parser's `max_files`
//! (its other limits apply too); the bytes written to disk by one form are
//! bounded by [`SpoolOptions::max_disk_bytes`] (`MP_LIMIT_DISK_BYTES`, 413).
//!
//! Temp files belong to the [`SpooledForm`]: dropping it, or a
//! [`SpooledFile`], removes them; [`SpooledFile::persist`] moves one to a
//! path of the caller's and [`SpooledFile::keep`] leaves it where it is. An
//! error (a limit, a malformed body, a failed read or write, a body that
//! ends early) removes every temp file the form had written before it is
//! returned.
//!
//! Two entry points drive the same collector: [`read_form`] over a
//! blocking [`std::io::Read`] ([`read::Reader`](super::read::Reader), one
//! 64 KiB buffer), and `stream_form` (with the `stream` feature) over a
//! `Stream` of `Bytes` such as a hyper or axum body. Memory stays constant
//! whatever the size of the files: one chunk in flight, plus each file's
//! first `memory_threshold` bytes. Disk writes are plain blocking `write`
//! calls, in the async path too (they land in the page cache); a server
//! that must never block a runtime thread on disk runs it on a blocking
//! pool, as `formwire_axum::SpooledForm` does.
//!
//! # Example
//!
//! ```
//! use std::io::Read;
//! use formwire::multipart::Options;
//! use formwire::multipart::spool::{self, SpoolOptions};
//!
//! let big = vec![7u8; 3 << 20];
//! let mut body = b"--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n\
//!     --XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"big.bin\"\r\n\
//!     Content-Type: application/octet-stream\r\n\r\n".to_vec();
//! body.extend_from_slice(&big);
//! body.extend_from_slice(b"\r\n--XyZ--\r\n");
//!
//! let mut spool_options = SpoolOptions::default(); // files over 1 MiB go to disk
//! spool_options.max_disk_bytes = 100 << 20;
//! let form = spool::read_form(&body[..], "multipart/form-data; boundary=XyZ", Options::default(), &spool_options)?;
//! assert_eq!(form.get_text("title"), Some("hello"));
//! let doc = form.file("doc").expect("a file named doc");
//! assert_eq!((doc.filename(), doc.size()), ("big.bin", 3 << 20));
//! let path = doc.path().expect("3 MiB is past the threshold: on disk").to_owned();
//! let mut back = Vec::new();
//! doc.reader()?.read_to_end(&mut back)?;
//! assert!(back == big);
//! drop(form); // the temp file goes with the form
//! assert!(!path.exists());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

use super::{Options, Part, read};
use crate::error::ErrorCode;

/// How a form is spooled. `Default`: files over 1 MiB go to the system temp
/// dir, at most `max_disk_bytes` (the registry's default) in all.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SpoolOptions {
    /// A file part larger than this many bytes is written to a temp file;
    /// one of at most this size stays in memory. 1 MiB by default (the
    /// `max_size` of Starlette's `SpooledTemporaryFile`). An empty file is
    /// always in memory.
    pub memory_threshold: u64,
    /// `max_disk_bytes` (`spec/limits.md`): the bytes one form may write to
    /// disk, all files together; more is `MP_LIMIT_DISK_BYTES` (413).
    /// [`UNLIMITED`](crate::registry::UNLIMITED) is off.
    pub max_disk_bytes: u64,
    /// Where temp files go: `None` is [`std::env::temp_dir`].
    pub dir: Option<PathBuf>,
}

impl Default for SpoolOptions {
    fn default() -> SpoolOptions {
        SpoolOptions {
            memory_threshold: 1 << 20,
            max_disk_bytes: crate::registry::multipart::MAX_DISK_BYTES,
            dir: None,
        }
    }
}

/// Why a form could not be collected. Every temp file of the form is
/// removed before the error is returned.
#[derive(Debug)]
pub enum Error<E = io::Error> {
    /// A malformed body or an exceeded limit (the parser's, or
    /// `MP_LIMIT_DISK_BYTES`): the coded error, with its byte offset.
    Form(crate::Error),
    /// The source failed (for [`read_form`] an I/O error of the reader; for
    /// `stream_form` the stream's error): the client went away, say.
    Source(E),
    /// Creating or writing a temp file failed: a server error (500), not the
    /// client's.
    Disk(io::Error),
}

impl<E> Error<E> {
    /// The coded error, for [`Error::Form`].
    pub fn form(&self) -> Option<crate::Error> {
        match self {
            Error::Form(e) => Some(*e),
            _ => None,
        }
    }

    /// The status a server answers with: the registry's `http_status` of the
    /// code (413 for a limit, 400 for a malformed body), 500 for a disk
    /// error, `None` for the source's own error.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            Error::Form(e) => e.code.http_status(),
            Error::Source(_) => None,
            Error::Disk(_) => Some(500),
        }
    }
}

impl<E> From<crate::Error> for Error<E> {
    fn from(e: crate::Error) -> Error<E> {
        Error::Form(e)
    }
}

impl<E: fmt::Display> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Form(e) => e.fmt(f),
            Error::Source(e) => write!(f, "reading the body failed: {e}"),
            Error::Disk(e) => write!(f, "writing a temp file failed: {e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for Error<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Form(e) => Some(e),
            Error::Source(e) => Some(e),
            Error::Disk(e) => Some(e),
        }
    }
}

/// A form whose large files are on disk: its entries in body order
/// (MP-F-04), duplicate names kept.
#[derive(Debug, Default)]
pub struct SpooledForm {
    entries: Vec<SpooledEntry>,
}

/// One entry of a [`SpooledForm`].
#[derive(Debug)]
pub struct SpooledEntry {
    /// The entry's name (MP-H-10).
    pub name: String,
    /// Its value.
    pub value: SpooledValue,
}

/// The value of a [`SpooledEntry`].
#[derive(Debug)]
pub enum SpooledValue {
    /// A part without `filename`: its body as text, UTF-8 with U+FFFD for
    /// invalid bytes (MP-F-01).
    Text(String),
    /// A part with a `filename` (MP-F-02).
    File(SpooledFile),
}

impl SpooledForm {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when the form has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, in body order.
    pub fn entries(&self) -> &[SpooledEntry] {
        &self.entries
    }

    /// The entries, owned (files keep their temp files until dropped).
    pub fn into_entries(self) -> Vec<SpooledEntry> {
        self.entries
    }

    /// The text fields as `(name, value)`, in body order.
    pub fn fields(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.entries.iter().filter_map(|e| match &e.value {
            SpooledValue::Text(v) => Some((e.name.as_str(), v.as_str())),
            SpooledValue::File(_) => None,
        })
    }

    /// The files as `(name, file)`, in body order.
    pub fn files(&self) -> impl Iterator<Item = (&str, &SpooledFile)> + '_ {
        self.entries.iter().filter_map(|e| match &e.value {
            SpooledValue::File(f) => Some((e.name.as_str(), f)),
            SpooledValue::Text(_) => None,
        })
    }

    /// The value of the first text field named `name`.
    pub fn get_text(&self, name: &str) -> Option<&str> {
        self.fields().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The first file named `name`.
    pub fn file(&self, name: &str) -> Option<&SpooledFile> {
        self.files().find(|(n, _)| *n == name).map(|(_, f)| f)
    }

    /// Takes the first file named `name` out of the form (its entry is
    /// removed), e.g. to [`SpooledFile::persist`] it.
    pub fn take_file(&mut self, name: &str) -> Option<SpooledFile> {
        let i = self
            .entries
            .iter()
            .position(|e| e.name == name && matches!(e.value, SpooledValue::File(_)))?;
        match self.entries.remove(i).value {
            SpooledValue::File(f) => Some(f),
            SpooledValue::Text(_) => None,
        }
    }
}

/// A file part: its filename, type and bytes, in memory or in a temp file
/// that is removed when this is dropped.
pub struct SpooledFile {
    filename: String,
    content_type: String,
    size: u64,
    data: Data,
    dir: Option<PathBuf>,
}

enum Data {
    Memory(Vec<u8>),
    Disk(tempfile::NamedTempFile),
}

impl fmt::Debug for SpooledFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpooledFile")
            .field("filename", &self.filename)
            .field("content_type", &self.content_type)
            .field("size", &self.size)
            .field("path", &self.path())
            .finish()
    }
}

/// A reader of a [`SpooledFile`]'s bytes, from [`SpooledFile::reader`].
#[derive(Debug)]
pub enum SpooledReader<'a> {
    /// The bytes held in memory.
    Memory(&'a [u8]),
    /// The temp file, opened anew (its own cursor, at the start).
    Disk(std::fs::File),
}

impl Read for SpooledReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            SpooledReader::Memory(m) => m.read(buf),
            SpooledReader::Disk(f) => f.read(buf),
        }
    }
}

impl SpooledFile {
    /// The `filename` parameter (untrusted: no path is stripped).
    pub fn filename(&self) -> &str {
        &self.filename
    }

    /// The File's `type` (MP-F-03): the part's MIME type, `text/plain`
    /// without a Content-Type header.
    pub fn content_type(&self) -> &str {
        &self.content_type
    }

    /// The body's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The temp file's path, when the body is on disk.
    pub fn path(&self) -> Option<&Path> {
        match &self.data {
            Data::Disk(f) => Some(f.path()),
            Data::Memory(_) => None,
        }
    }

    /// The body, when it is in memory.
    pub fn in_memory(&self) -> Option<&[u8]> {
        match &self.data {
            Data::Memory(m) => Some(m),
            Data::Disk(_) => None,
        }
    }

    /// The body as a [`Read`], from its start (a temp file is opened anew).
    pub fn reader(&self) -> io::Result<SpooledReader<'_>> {
        match &self.data {
            Data::Memory(m) => Ok(SpooledReader::Memory(m)),
            Data::Disk(f) => Ok(SpooledReader::Disk(f.reopen()?)),
        }
    }

    /// Moves the body to `path` (replacing a file there): a rename when the
    /// temp file is on the same filesystem, else a copy; a body in memory is
    /// written there. On error the temp file is still removed.
    pub fn persist(self, path: impl AsRef<Path>) -> io::Result<()> {
        let path = path.as_ref();
        match self.data {
            Data::Memory(m) => std::fs::write(path, m),
            Data::Disk(f) => match f.persist(path) {
                Ok(_) => Ok(()),
                // Another filesystem (EXDEV): copy, then the temp file goes on drop.
                Err(e) => {
                    std::fs::copy(e.file.path(), path)?;
                    Ok(())
                }
            },
        }
    }

    /// Keeps the temp file where it is, for the caller to remove, and
    /// returns its path; a body in memory is first written to a new temp
    /// file (owner-only, in the spool dir).
    pub fn keep(self) -> io::Result<PathBuf> {
        let file = match self.data {
            Data::Disk(f) => f,
            Data::Memory(m) => {
                let mut f = new_temp(self.dir.as_deref())?;
                f.write_all(&m)?;
                f
            }
        };
        file.keep().map(|(_, path)| path).map_err(|e| e.error)
    }
}

/// An owner-only temp file (tempfile creates it with mode 0600 on Unix).
fn new_temp(dir: Option<&Path>) -> io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix("formwire-");
    match dir {
        Some(d) => b.tempfile_in(d),
        None => b.tempfile(),
    }
}

/// The current part while its body arrives.
enum Open {
    Field {
        name: String,
        raw: Vec<u8>,
    },
    File {
        name: String,
        file: SpooledFile,
        /// The part's body begins at this byte offset.
        body_start: u64,
        /// The bytes other files had written to disk before this one.
        disk_before: u64,
    },
}

/// The sans-async core of both entry points: part starts, body bytes and
/// part ends in, entries (and temp files) out. Dropping it removes every
/// temp file it made.
struct Collector<'o> {
    options: &'o SpoolOptions,
    form: SpooledForm,
    open: Option<Open>,
    disk_bytes: u64,
}

impl<'o> Collector<'o> {
    fn new(options: &'o SpoolOptions) -> Collector<'o> {
        Collector {
            options,
            form: SpooledForm::default(),
            open: None,
            disk_bytes: 0,
        }
    }

    /// A part's headers are complete; its body begins at `body_start`.
    fn start(&mut self, part: &Part<'_>, body_start: u64) {
        if !part.has_name() {
            // MP-F-05: a part without a name (allow_missing_disposition) is
            // no entry: its body is read and dropped, never spooled (it is a
            // field, so the parser's field limits counted it).
            self.open = None;
            return;
        }
        let name = part.name().into_owned();
        self.open = Some(match part.filename() {
            None => Open::Field {
                name,
                raw: Vec::new(),
            },
            Some(filename) => Open::File {
                name,
                file: SpooledFile {
                    filename: filename.into_owned(),
                    // MP-F-03: without a Content-Type, text/plain.
                    content_type: match part.content_type() {
                        None => "text/plain".to_owned(),
                        Some(_) => part.mime_type(),
                    },
                    size: 0,
                    data: Data::Memory(Vec::new()),
                    dir: self.options.dir.clone(),
                },
                body_start,
                disk_before: self.disk_bytes,
            },
        });
    }

    fn data<E>(&mut self, d: &[u8]) -> Result<(), Error<E>> {
        match &mut self.open {
            None => Ok(()),
            Some(Open::Field { raw, .. }) => {
                raw.extend_from_slice(d);
                Ok(())
            }
            Some(Open::File {
                file,
                body_start,
                disk_before,
                ..
            }) => {
                let size = file.size + d.len() as u64;
                file.size = size;
                if size <= self.options.memory_threshold {
                    if let Data::Memory(m) = &mut file.data {
                        m.extend_from_slice(d);
                    }
                    return Ok(());
                }
                // Past the threshold: the whole file goes to disk, so its whole size counts.
                let budget = self.options.max_disk_bytes.saturating_sub(*disk_before);
                if size > budget {
                    // The offset of the file's first byte past the budget: chunking cannot change it.
                    let at = body_start.saturating_add(budget);
                    return Err(Error::Form(crate::Error::new(
                        ErrorCode::MpLimitDiskBytes,
                        at,
                    )));
                }
                if let Data::Memory(m) = &file.data {
                    let mut f = new_temp(self.options.dir.as_deref()).map_err(Error::Disk)?;
                    f.write_all(m).map_err(Error::Disk)?;
                    file.data = Data::Disk(f);
                }
                if let Data::Disk(f) = &mut file.data {
                    f.write_all(d).map_err(Error::Disk)?;
                }
                self.disk_bytes = disk_before.saturating_add(size);
                Ok(())
            }
        }
    }

    fn end<E>(&mut self) -> Result<(), Error<E>> {
        let (name, value) = match self.open.take() {
            None => return Ok(()),
            Some(Open::Field { name, raw }) => {
                let text = match String::from_utf8(raw) {
                    Ok(s) => s,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                };
                (name, SpooledValue::Text(text))
            }
            Some(Open::File { name, mut file, .. }) => {
                // Written through to the OS: a reader opened now sees every byte.
                if let Data::Disk(f) = &mut file.data {
                    f.flush().map_err(Error::Disk)?;
                }
                (name, SpooledValue::File(file))
            }
        };
        self.form.entries.push(SpooledEntry { name, value });
        Ok(())
    }
}

/// Collects the form read from a blocking `source` for a request
/// `Content-Type`: fields in memory, files past
/// [`SpoolOptions::memory_threshold`] in temp files. Errors: the parser's
/// (construction and body) and `MP_LIMIT_DISK_BYTES` as [`Error::Form`],
/// the source's as [`Error::Source`], temp file failures as
/// [`Error::Disk`]; no temp file is left behind then.
pub fn read_form<R: Read>(
    source: R,
    content_type: &str,
    options: Options,
    spool: &SpoolOptions,
) -> Result<SpooledForm, Error> {
    let mut reader = read::Reader::from_content_type(source, content_type, options)?;
    let mut c = Collector::new(spool);
    // A coded error travels inside the io::Error (read's convention); anything else is the source's.
    let split = |e: io::Error| match crate::Error::from_io(&e) {
        Some(coded) => Error::Form(coded),
        None => Error::Source(e),
    };
    while let Some(mut part) = reader.next_part().map_err(split)? {
        c.start(&part.part(), part.body_offset());
        loop {
            let buf = part.fill_buf().map_err(split)?;
            if buf.is_empty() {
                break;
            }
            let n = buf.len();
            c.data(buf)?;
            part.consume(n);
        }
        c.end()?;
    }
    Ok(c.form)
}

/// Collects the form of a body that arrives as a `Stream` of `Bytes` (a
/// hyper or axum body), as [`read_form`] does for a `Read`. The source's
/// errors are [`Error::Source`].
#[cfg(feature = "stream")]
pub async fn stream_form<S, E>(
    source: S,
    content_type: &str,
    options: Options,
    spool: &SpoolOptions,
) -> Result<SpooledForm, Error<E>>
where
    S: futures_core::Stream<Item = Result<bytes::Bytes, E>>,
{
    use super::stream;
    let split = |e: stream::Error<E>| match e {
        stream::Error::Form(e) => Error::Form(e),
        stream::Error::Stream(e) => Error::Source(e),
    };
    let mut form = stream::Multipart::from_content_type(source, content_type, options)?;
    let mut c = Collector::new(spool);
    while let Some(mut part) = form.next_part().await.map_err(split)? {
        c.start(&part.part(), part.body_offset());
        while let Some(chunk) = part.chunk().await.map_err(split)? {
            c.data(&chunk)?;
        }
        c.end()?;
    }
    Ok(c.form)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CT: &str = "multipart/form-data; boundary=B";

    /// A body of `(name, filename, bytes)` parts.
    fn body(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, filename, bytes) in parts {
            out.extend_from_slice(b"--B\r\nContent-Disposition: form-data; name=\"");
            out.extend_from_slice(name.as_bytes());
            out.push(b'"');
            if let Some(f) = filename {
                out.extend_from_slice(b"; filename=\"");
                out.extend_from_slice(f.as_bytes());
                out.extend_from_slice(b"\"\r\nContent-Type: application/x-test");
            }
            out.extend_from_slice(b"\r\n\r\n");
            out.extend_from_slice(bytes);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"--B--\r\n");
        out
    }

    fn spool_in(dir: &Path, threshold: u64, max_disk: u64) -> SpoolOptions {
        SpoolOptions {
            memory_threshold: threshold,
            max_disk_bytes: max_disk,
            dir: Some(dir.to_owned()),
        }
    }

    fn files_in(dir: &Path) -> usize {
        std::fs::read_dir(dir).unwrap().count()
    }

    /// A `Read` that gives at most `n` bytes a call.
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn small_files_stay_in_memory_large_ones_go_to_owner_only_files_removed_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let big: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
        let b = body(&[
            ("t", None, b"caf\xc3\xa9 \xff"),
            ("small", Some("s.txt"), b"0123456789"),
            ("big", Some("b.bin"), &big),
            ("empty", Some(""), b""),
        ]);
        let form = read_form(
            &b[..],
            CT,
            Options::default(),
            &spool_in(dir.path(), 10, 1 << 20),
        )
        .unwrap();
        assert_eq!(form.len(), 4);
        assert_eq!(form.get_text("t"), Some("café \u{fffd}"));
        let small = form.file("small").unwrap();
        assert_eq!(small.in_memory(), Some(&b"0123456789"[..]));
        assert_eq!((small.size(), small.path()), (10, None));
        assert_eq!(small.content_type(), "application/x-test");
        let f = form.file("big").unwrap();
        assert_eq!(
            (f.filename(), f.size(), f.in_memory()),
            ("b.bin", 5000, None)
        );
        let path = f.path().unwrap().to_owned();
        assert_eq!(path.parent(), Some(dir.path()));
        assert_eq!(std::fs::read(&path).unwrap(), big);
        let mut back = Vec::new();
        f.reader().unwrap().read_to_end(&mut back).unwrap();
        assert_eq!(back, big);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        }
        assert_eq!(form.file("empty").unwrap().in_memory(), Some(&b""[..]));
        assert_eq!(files_in(dir.path()), 1);
        drop(form);
        assert_eq!(files_in(dir.path()), 0);
    }

    #[test]
    fn parts_without_a_name_are_skipped_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let big = vec![b'x'; 3000];
        let mut b = b"--B\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
        b.extend_from_slice(&big);
        b.extend_from_slice(b"\r\n--B\r\nContent-Disposition: \r\n\r\nv\r\n");
        b.extend_from_slice(&body(&[("t", None, b"text"), ("f", Some("f.bin"), &big)]));
        let o = Options {
            allow_missing_disposition: true,
            ..Options::default()
        };
        let spool = spool_in(dir.path(), 100, 1 << 20);
        let form = read_form(&b[..], CT, o.clone(), &spool).unwrap();
        let names: Vec<&str> = form.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["t", "f"]);
        assert_eq!(form.get_text("t"), Some("text"));
        // Only the named file went to disk: a nameless part is never spooled.
        assert_eq!(files_in(dir.path()), 1);
        drop(form);
        // Still a field for the limits (MP-F-05): 3000 bytes over max_field_bytes.
        let small = Options {
            max_field_bytes: 2999,
            ..o.clone()
        };
        let err = read_form(&b[..], CT, small, &spool).unwrap_err();
        let body_start = b.windows(4).position(|w| w == b"\r\n\r\n").unwrap() as u64 + 4;
        assert_eq!(
            err.form().map(|e| (e.code, e.offset)),
            Some((ErrorCode::MpLimitFieldBytes, body_start + 2999))
        );
        assert_eq!(files_in(dir.path()), 0);
        // Strict: MP_NO_DISPOSITION.
        let err = read_form(&b[..], CT, Options::default(), &spool).unwrap_err();
        assert_eq!(err.form().map(|e| e.code), Some(ErrorCode::MpNoDisposition));
        #[cfg(feature = "stream")]
        {
            let chunks: Vec<Result<bytes::Bytes, io::Error>> = b
                .chunks(7)
                .map(|c| Ok(bytes::Bytes::copy_from_slice(c)))
                .collect();
            let rt = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            let form = rt
                .block_on(stream_form(
                    futures_util::stream::iter(chunks),
                    CT,
                    o,
                    &spool,
                ))
                .unwrap();
            let names: Vec<&str> = form.entries().iter().map(|e| e.name.as_str()).collect();
            assert_eq!(names, ["t", "f"]);
        }
    }

    #[test]
    fn every_error_removes_the_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let big = vec![b'x'; 3000];
        let b = body(&[("a", Some("a.bin"), &big), ("b", Some("b.bin"), &big)]);
        // Cut inside the second file: MP_TRUNCATED after one file was complete on disk.
        let cut = &b[..b.len() - 100];
        let spool = spool_in(dir.path(), 100, 1 << 20);
        let err = read_form(cut, CT, Options::default(), &spool).unwrap_err();
        assert_eq!(err.form().map(|e| e.code), Some(ErrorCode::MpTruncated));
        assert_eq!(err.http_status(), Some(400));
        assert_eq!(files_in(dir.path()), 0);
        // A parser limit in the middle of a spilled file.
        let o = Options {
            max_file_bytes: 2000,
            ..Options::default()
        };
        let err = read_form(&b[..], CT, o, &spool).unwrap_err();
        assert_eq!(
            err.form().map(|e| e.code),
            Some(ErrorCode::MpLimitFileBytes)
        );
        assert_eq!(err.http_status(), Some(413));
        assert_eq!(files_in(dir.path()), 0);
        // The source fails (a client that went away): its own error, nothing left.
        struct Broken<'a>(&'a [u8]);
        impl Read for Broken<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::ErrorKind::ConnectionReset.into());
                }
                let n = self.0.len().min(buf.len()).min(1000);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let err = read_form(Broken(&b[..4000]), CT, Options::default(), &spool).unwrap_err();
        match err {
            Error::Source(e) => assert_eq!(e.kind(), io::ErrorKind::ConnectionReset),
            other => panic!("{other:?}"),
        }
        assert_eq!(files_in(dir.path()), 0);
        // A dir that cannot hold files: a disk error (500), not the client's fault.
        let missing = dir.path().join("missing");
        let err = read_form(
            &b[..],
            CT,
            Options::default(),
            &spool_in(&missing, 100, 1 << 20),
        )
        .unwrap_err();
        assert!(matches!(err, Error::Disk(_)), "{err:?}");
        assert_eq!(err.http_status(), Some(500));
    }

    #[test]
    fn disk_limit_counts_spooled_files_only_with_a_chunking_independent_offset() {
        let dir = tempfile::tempdir().unwrap();
        let a = vec![b'a'; 600];
        let b = vec![b'b'; 600];
        let small = vec![b's'; 50];
        let bytes = body(&[
            ("m", Some("m"), &small),
            ("a", Some("a"), &a),
            ("b", Some("b"), &b),
        ]);
        // The files in memory (50 bytes) do not count: 600 + 600 fits 1200 exactly.
        let form = read_form(
            &bytes[..],
            CT,
            Options::default(),
            &spool_in(dir.path(), 100, 1200),
        )
        .unwrap();
        assert_eq!(form.files().filter(|(_, f)| f.path().is_some()).count(), 2);
        drop(form);
        // One byte less: the last byte of "b" is the one over, at the same offset for every chunking.
        let last_b = bytes.len() - b"\r\n--B--\r\n".len() - 1;
        for step in [1, 7, 64, 4096, bytes.len()] {
            let spool = spool_in(dir.path(), 100, 1199);
            let err = read_form(Trickle(&bytes, step), CT, Options::default(), &spool).unwrap_err();
            let e = err.form().expect("a coded error");
            assert_eq!(
                (e.code, e.offset),
                (ErrorCode::MpLimitDiskBytes, last_b as u64),
                "step {step}"
            );
            assert_eq!(e.code.as_str(), "MP_LIMIT_DISK_BYTES");
            assert_eq!(err.http_status(), Some(413));
            assert_eq!(files_in(dir.path()), 0);
        }
        // A budget smaller than the threshold: the first file over the threshold fails at its budget byte.
        let err = read_form(
            &bytes[..],
            CT,
            Options::default(),
            &spool_in(dir.path(), 100, 10),
        )
        .unwrap_err();
        let a_start = bytes.windows(600).position(|w| w == &a[..]).unwrap() as u64;
        assert_eq!(err.form().map(|e| e.offset), Some(a_start + 10));
    }

    #[test]
    fn persist_moves_keep_leaves_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let big = vec![9u8; 500];
        let b = body(&[
            ("a", Some("a"), &big),
            ("b", Some("b"), &big),
            ("c", Some("c"), b"tiny"),
        ]);
        let mut form = read_form(
            &b[..],
            CT,
            Options::default(),
            &spool_in(dir.path(), 100, 1 << 20),
        )
        .unwrap();
        let out = tempfile::tempdir().unwrap();
        let a = form.take_file("a").unwrap();
        let tmp = a.path().unwrap().to_owned();
        a.persist(out.path().join("a.bin")).unwrap();
        assert!(!tmp.exists());
        assert_eq!(std::fs::read(out.path().join("a.bin")).unwrap(), big);
        let kept = form.take_file("b").unwrap().keep().unwrap();
        let tiny = form.take_file("c").unwrap().keep().unwrap();
        assert_eq!(tiny.parent(), Some(dir.path()));
        drop(form);
        assert_eq!(std::fs::read(&kept).unwrap(), big);
        assert_eq!(std::fs::read(&tiny).unwrap(), b"tiny");
        std::fs::remove_file(kept).unwrap();
        std::fs::remove_file(tiny).unwrap();
        assert_eq!(files_in(dir.path()), 0);
    }

    #[test]
    fn the_parsers_file_count_bounds_the_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let big = vec![1u8; 300];
        let b = body(&[
            ("a", Some("a"), &big),
            ("b", Some("b"), &big),
            ("c", Some("c"), &big),
        ]);
        let o = Options {
            max_files: 2,
            ..Options::default()
        };
        let err = read_form(&b[..], CT, o, &spool_in(dir.path(), 100, 1 << 20)).unwrap_err();
        assert_eq!(err.form().map(|e| e.code), Some(ErrorCode::MpLimitFiles));
        assert_eq!(files_in(dir.path()), 0);
    }

    #[cfg(feature = "stream")]
    #[test]
    fn the_stream_entry_point_collects_the_same_form_and_cleans_up_on_errors() {
        use bytes::Bytes;
        let dir = tempfile::tempdir().unwrap();
        let big: Vec<u8> = (0..4000u32).map(|i| (i % 253) as u8).collect();
        let b = body(&[("t", None, b"v"), ("f", Some("f.bin"), &big)]);
        let spool = spool_in(dir.path(), 1000, 1 << 20);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for step in [1, 13, 4096] {
            let chunks: Vec<Result<Bytes, io::Error>> = b
                .chunks(step)
                .map(|c| Ok(Bytes::copy_from_slice(c)))
                .collect();
            let form = rt
                .block_on(stream_form(
                    futures_util::stream::iter(chunks),
                    CT,
                    Options::default(),
                    &spool,
                ))
                .unwrap();
            assert_eq!(form.get_text("t"), Some("v"));
            let f = form.file("f").unwrap();
            assert_eq!(std::fs::read(f.path().unwrap()).unwrap(), big);
        }
        assert_eq!(files_in(dir.path()), 0);
        // The body stops with an error of the source in the middle of the spilled file.
        let mut chunks: Vec<Result<Bytes, io::Error>> = b[..3000]
            .chunks(500)
            .map(|c| Ok(Bytes::copy_from_slice(c)))
            .collect();
        chunks.push(Err(io::ErrorKind::ConnectionAborted.into()));
        let err = rt
            .block_on(stream_form(
                futures_util::stream::iter(chunks),
                CT,
                Options::default(),
                &spool,
            ))
            .unwrap_err();
        assert!(matches!(&err, Error::Source(e) if e.kind() == io::ErrorKind::ConnectionAborted));
        assert_eq!(err.http_status(), None);
        assert_eq!(files_in(dir.path()), 0);
        // The body just ends (an aborted upload without an error): MP_TRUNCATED.
        let chunks = vec![Ok::<_, io::Error>(Bytes::copy_from_slice(&b[..3000]))];
        let err = rt
            .block_on(stream_form(
                futures_util::stream::iter(chunks),
                CT,
                Options::default(),
                &spool,
            ))
            .unwrap_err();
        assert_eq!(
            err.form().map(|e| (e.code, e.offset)),
            Some((ErrorCode::MpTruncated, 3000))
        );
        assert_eq!(files_in(dir.path()), 0);
    }
}
