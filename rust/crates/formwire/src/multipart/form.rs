//! [`FormData`]: a whole form in memory in a few reusable buffers, the fast
//! way to get every entry (as a browser's `formData()` would) without one
//! allocation per field.

use super::{Event, Parser, Part};
use crate::error::Error;

type Span = (usize, usize);

#[derive(Clone, Copy, Debug)]
enum Slot {
    /// `text[span]`.
    Text(Span),
    /// Filename and type in `text`, contents in `bytes`.
    File {
        filename: Span,
        mime: Span,
        body: Span,
    },
}

#[derive(Clone, Copy, Debug)]
struct Item {
    name: Span,
    value: Slot,
}

/// The entries of a form, decoded as a browser's `formData()` decodes them
/// (MP-F-01..04), held in one text arena and one byte arena.
///
/// Field values and names are UTF-8 with U+FFFD for invalid bytes
/// (MP-F-01, MP-H-10); files keep their bytes as they are, with their
/// filename and `type` (MP-F-02, MP-F-03). Entries keep body order and
/// duplicate names (MP-F-04). A part without a name
/// (`allow_missing_disposition`) is no entry (MP-F-05): it is skipped, after
/// the parser counted it against every limit. Nothing is allocated per entry: the arenas
/// grow, and [`FormData::clear`] keeps them for the next form.
///
/// Fill it from any feed loop with [`FormData::add`], or parse a body held
/// in memory with [`FormData::parse`]; the entries can be read once the
/// form's [`Event::End`] was added (names and values are decoded then, all
/// in one pass). Every entry is held in memory, files
/// included: the parser's limits bound it (`max_field_bytes`,
/// `max_file_bytes`, `max_parts`, `max_total_bytes`); stream large files
/// instead.
///
/// ```
/// use formwire::multipart::{FormData, Options, Parser, Value};
///
/// let body = b"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n\
///              --b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\xff2\r\n\
///              --b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n\
///              Content-Type: application/octet-stream\r\n\r\n\x00\x01\r\n--b--\r\n";
/// let mut parser = Parser::new(b"b", Options::default())?;
/// let form = FormData::parse(&mut parser, body)?;
/// assert_eq!(form.len(), 3);
/// assert_eq!(form.fields().collect::<Vec<_>>(), [("a", "1"), ("a", "\u{fffd}2")]);
/// assert_eq!(form.get_text("a"), Some("1"));
/// let file = form.iter().nth(2).unwrap();
/// assert_eq!(file.name, "f");
/// match file.value {
///     Value::File { filename, content_type, bytes } => {
///         assert_eq!((filename, content_type, bytes), ("x.bin", "application/octet-stream", &b"\x00\x01"[..]));
///     }
///     Value::Text(_) => unreachable!(),
/// }
///
/// // Chunk by chunk, from any feed loop; the buffers are kept for reuse.
/// let mut form = form;
/// form.clear();
/// parser.reset();
/// for chunk in body.chunks(5) {
///     let mut feed = parser.feed(chunk);
///     while let Some(event) = feed.next() {
///         form.add(&event?);
///     }
/// }
/// let mut feed = parser.finish();
/// while let Some(event) = feed.next() {
///     form.add(&event?);
/// }
/// assert_eq!(form.fields().count(), 2);
/// # Ok::<(), formwire::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct FormData {
    /// Names, field values, filenames and types, decoded (after `End`).
    text: String,
    /// The same, raw, while the form is being added (before `End`).
    raw: Vec<u8>,
    /// File bodies.
    bytes: Vec<u8>,
    items: Vec<Item>,
    /// The current part, while its body is being added.
    open: Option<Open>,
    /// [`Event::End`] was added: `text` holds the entries.
    complete: bool,
}

#[derive(Clone, Copy, Debug)]
struct Open {
    name: Span,
    /// `None` for a field.
    file: Option<(Span, Span)>,
    /// Where the value begins, in `text` (field) or `bytes` (file).
    start: usize,
}

/// One entry of a [`FormData`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The entry's name (MP-H-10).
    pub name: &'a str,
    /// Its value.
    pub value: Value<'a>,
}

/// The value of an [`Entry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// A part without `filename`: its body as text (MP-F-01).
    Text(&'a str),
    /// A part with a `filename` (MP-F-02).
    File {
        /// The `filename` parameter (untrusted: no path is stripped).
        filename: &'a str,
        /// The File's `type` (MP-F-03).
        content_type: &'a str,
        /// The body, as it was.
        bytes: &'a [u8],
    },
}

/// Appends `raw[a..b]` to `out` as UTF-8 with U+FFFD for invalid bytes
/// and returns where it went.
fn push_lossy(out: &mut String, raw: &[u8], (a, b): Span) -> Span {
    let start = out.len();
    out.push_str(&String::from_utf8_lossy(&raw[a..b]));
    (start, out.len())
}

impl FormData {
    /// An empty form.
    pub fn new() -> FormData {
        FormData::default()
    }

    /// Parses a whole body held in memory with `parser` (at the start of a
    /// body; see [`Parser::reset`]), in one feed. The parser's errors.
    pub fn parse(parser: &mut Parser, body: &[u8]) -> Result<FormData, Error> {
        let mut form = FormData::new();
        form.parse_more(parser, body)?;
        Ok(form)
    }

    /// Like [`FormData::parse`], adding to this form (e.g. after
    /// [`FormData::clear`], to reuse its buffers).
    pub fn parse_more(&mut self, parser: &mut Parser, body: &[u8]) -> Result<(), Error> {
        let mut feed = parser.feed(body);
        while let Some(event) = feed.next() {
            self.add(&event?);
        }
        let mut feed = parser.finish();
        while let Some(event) = feed.next() {
            self.add(&event?);
        }
        Ok(())
    }

    /// Adds one parser event (events of one parser, in order): a part's
    /// headers at [`Event::PartStart`], its body from the data events, the
    /// entry at [`Event::PartEnd`].
    ///
    /// The entries can be read once [`Event::End`] was added; before, the
    /// form reads as empty.
    #[inline]
    pub fn add(&mut self, event: &Event<'_, '_>) {
        match event {
            Event::PartStart(part) => self.start(part),
            Event::Data(d) | Event::HeldData(d) => self.data(d),
            Event::PartEnd => self.end(),
            Event::End => self.complete(),
        }
    }

    /// Appends raw text bytes; returns their span.
    #[inline]
    fn push_raw(&mut self, b: &[u8]) -> Span {
        let a = self.raw.len();
        self.raw.extend_from_slice(b);
        (a, self.raw.len())
    }

    pub(crate) fn start(&mut self, part: &Part<'_>) {
        if self.complete {
            // A new form after a complete one: start over.
            self.clear();
        }
        if !part.has_name() {
            // MP-F-05: a part without a name (allow_missing_disposition) is
            // no entry; its body is read past (the parser counted it).
            self.open = None;
            return;
        }
        let name = self.push_raw(part.name_bytes());
        let file = part.filename_bytes().map(|f| {
            let filename = self.push_raw(f);
            let mime = match part.content_type() {
                // MP-F-03 without a Content-Type: no MIME parsing needed.
                None => self.push_raw(b"text/plain"),
                Some(_) => self.push_raw(part.mime_type().as_bytes()),
            };
            (filename, mime)
        });
        let start = if file.is_some() {
            self.bytes.len()
        } else {
            self.raw.len()
        };
        self.open = Some(Open { name, file, start });
    }

    #[inline]
    pub(crate) fn data(&mut self, d: &[u8]) {
        match self.open {
            Some(Open { file: None, .. }) => self.raw.extend_from_slice(d),
            Some(_) => self.bytes.extend_from_slice(d),
            None => {}
        }
    }

    pub(crate) fn end(&mut self) {
        let Some(open) = self.open.take() else { return };
        let value = match open.file {
            None => Slot::Text((open.start, self.raw.len())),
            Some((filename, mime)) => Slot::File {
                filename,
                mime,
                body: (open.start, self.bytes.len()),
            },
        };
        self.items.push(Item {
            name: open.name,
            value,
        });
    }

    /// The form is complete: decode every name and value. All of them at
    /// once, the usual case, when the raw text is valid UTF-8 and every span
    /// begins and ends on a character boundary (then each span is valid on
    /// its own); else one by one with U+FFFD (MP-F-01, MP-H-10).
    pub(crate) fn complete(&mut self) {
        let raw = core::mem::take(&mut self.raw);
        let raw = match String::from_utf8(raw) {
            Ok(text) => {
                let on = |(a, b): Span| text.is_char_boundary(a) && text.is_char_boundary(b);
                let spans_ok = self.items.iter().all(|item| {
                    on(item.name)
                        && match item.value {
                            Slot::Text(v) => on(v),
                            Slot::File { filename, mime, .. } => on(filename) && on(mime),
                        }
                });
                if spans_ok {
                    self.text = text;
                    self.complete = true;
                    return;
                }
                text.into_bytes()
            }
            Err(e) => e.into_bytes(),
        };
        let mut text = core::mem::take(&mut self.text);
        text.clear();
        for item in &mut self.items {
            item.name = push_lossy(&mut text, &raw, item.name);
            match &mut item.value {
                Slot::Text(v) => *v = push_lossy(&mut text, &raw, *v),
                Slot::File { filename, mime, .. } => {
                    *filename = push_lossy(&mut text, &raw, *filename);
                    *mime = push_lossy(&mut text, &raw, *mime);
                }
            }
        }
        self.text = text;
        self.raw = raw;
        self.complete = true;
    }

    /// `true` once the form's [`Event::End`] was added: then, and only then,
    /// the entries can be read.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Empties the form, keeping its buffers.
    pub fn clear(&mut self) {
        // Keep the larger buffer as the raw one.
        if self.text.capacity() > self.raw.capacity() {
            self.raw = core::mem::take(&mut self.text).into_bytes();
        }
        self.raw.clear();
        self.text.clear();
        self.bytes.clear();
        self.items.clear();
        self.open = None;
        self.complete = false;
    }

    /// The number of entries (0 until the form is complete).
    pub fn len(&self) -> usize {
        if self.complete { self.items.len() } else { 0 }
    }

    /// `true` when there is no entry (or the form is not complete yet).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn items(&self) -> &[Item] {
        if self.complete { &self.items } else { &[] }
    }

    fn entry(&self, item: &Item) -> Entry<'_> {
        let t = |(a, b): Span| &self.text[a..b];
        let value = match item.value {
            Slot::Text(s) => Value::Text(t(s)),
            Slot::File {
                filename,
                mime,
                body: (a, b),
            } => Value::File {
                filename: t(filename),
                content_type: t(mime),
                bytes: &self.bytes[a..b],
            },
        };
        Entry {
            name: t(item.name),
            value,
        }
    }

    /// Entry number `i` (0-based), in body order.
    pub fn get(&self, i: usize) -> Option<Entry<'_>> {
        self.items().get(i).map(|item| self.entry(item))
    }

    /// Every entry in body order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Entry<'_>> + '_ {
        self.items().iter().map(|item| self.entry(item))
    }

    /// The text fields as `(name, value)`, in body order (files left out).
    pub fn fields(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.items().iter().filter_map(|item| match item.value {
            Slot::Text((a, b)) => Some((&self.text[item.name.0..item.name.1], &self.text[a..b])),
            Slot::File { .. } => None,
        })
    }

    /// The text fields as owned `(name, value)` pairs, in body order: the
    /// vector sized once, one allocation of the exact size per string.
    pub fn to_fields(&self) -> Vec<(String, String)> {
        let n = self
            .items()
            .iter()
            .filter(|item| matches!(item.value, Slot::Text(_)))
            .count();
        let mut out = Vec::with_capacity(n);
        out.extend(
            self.fields()
                .map(|(name, value)| (name.to_owned(), value.to_owned())),
        );
        out
    }

    /// The value of the first text field named `name`.
    pub fn get_text(&self, name: &str) -> Option<&str> {
        self.fields().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}
