//! A part's headers: the borrowed [`Part`] view and the Content-Disposition
//! grammar (MP-H-07..11).

use std::borrow::Cow;

use super::Parser;
use crate::mime;
use crate::tables::{NAME_UTF8, TOKEN};

/// Where one header sits in the parser's header buffer (names lowercased,
/// values OWS-trimmed and obs-folds joined).
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeaderSpan {
    pub(crate) name_start: usize,
    pub(crate) name_end: usize,
    /// The name as written.
    pub(crate) raw_name: RawName,
    pub(crate) value_start: usize,
    pub(crate) value_end: usize,
    /// Absolute offset of the header line's first byte.
    pub(crate) line_start: u64,
}

type Span = (usize, usize);

/// A header name as written: the spelling browsers send, matched whole
/// (no copy), or a span of the header buffer.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RawName {
    Known(&'static [u8]),
    Span(usize, usize),
}

/// The parameters of a valid Content-Disposition, as spans of the buffer.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Disposition {
    pub(crate) name: Span,
    pub(crate) filename: Option<Span>,
    pub(crate) name_star: Option<Span>,
    pub(crate) filename_star: Option<Span>,
}

#[inline]
fn skip_ows(v: &[u8], mut i: usize) -> usize {
    while i < v.len() && matches!(v[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

#[inline]
fn token_end(v: &[u8], i: usize) -> usize {
    run_end(v, i, &TOKEN)
}

#[inline]
fn run_end(v: &[u8], mut i: usize, table: &[bool; 256]) -> usize {
    while i < v.len() && table[v[i] as usize] {
        i += 1;
    }
    i
}

/// The options that decide how a Content-Disposition value reads (MP-H-07,
/// MP-H-09), taken from [`Options`](super::Options).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CdRead {
    /// `allow_quoted_pairs`: the quoted-pair reading first.
    pub(crate) qp_first: bool,
    /// `allow_any_disposition_type`: any token as the type.
    pub(crate) any_type: bool,
    /// `allow_8bit_parameter_names`: names may hold bytes 80-FF.
    pub(crate) eight_bit: bool,
    /// `allow_rfc2231_continuations`: `filename*N` joined into a filename.
    pub(crate) rfc2231: bool,
}

impl CdRead {
    #[inline]
    pub(crate) fn of(o: &super::Options) -> CdRead {
        CdRead {
            qp_first: o.allow_quoted_pairs,
            any_type: o.allow_any_disposition_type,
            eight_bit: o.allow_8bit_parameter_names,
            rfc2231: o.allow_rfc2231_continuations,
        }
    }
}

/// One RFC 2231 continuation `filename*N` / `filename*N*` (MP-H-09): the
/// digits of N and the value, as spans of the value being parsed.
#[derive(Clone, Copy, Debug)]
struct Segment {
    n: Span,
    value: Span,
    extended: bool,
}

/// MP-H-07..09: parses `buf[start..end]` as
/// `disposition-type *( OWS ";" OWS [ parameter ] ) OWS` with
/// `parameter = token OWS "=" OWS ( token / quoted-string )`.
///
/// A quoted-string is read literally first (a backslash is an ordinary byte:
/// the WHATWG serializer never escapes `\`), and with quoted-pairs only when
/// the literal reading fails (Go's `multipart.Writer` writes `\"`); with
/// `allow_quoted_pairs` the other way round (MP-H-07). A quoted-pair reading
/// writes the unescaped values after the end of `buf` and points `d` there.
/// Returns `None` when the value does not match either way, the type is not
/// `form-data` (with `any_type`, `allow_any_disposition_type`: not a
/// token), `name` is missing, or `name`, `filename`, `name*` or
/// `filename*` is repeated. With `rfc2231`, a filename joined from
/// continuations is written after the end of `buf` too.
#[cfg(test)]
pub(crate) fn parse_disposition(
    buf: &mut Vec<u8>,
    start: usize,
    end: usize,
    how: CdRead,
) -> Option<Disposition> {
    let mut d = Disposition::default();
    parse_disposition_into(buf, start, end, &mut d, how).then_some(d)
}

/// [`parse_disposition`] writing into `d` (no large return value on the
/// per-part path); `false` is failure, `d` then holds no valid result.
pub(crate) fn parse_disposition_into(
    buf: &mut Vec<u8>,
    start: usize,
    end: usize,
    d: &mut Disposition,
    how: CdRead,
) -> bool {
    if how.eight_bit || how.rfc2231 {
        return parse_lenient(buf, start, end, d, how);
    }
    let parse = |buf: &[u8], d: &mut Disposition, qp: bool| {
        parse_into(buf, start, end, d, qp, how, None).is_some()
    };
    if !how.qp_first {
        if browser_form(buf, start, end, d) || parse(buf, d, false) {
            return true;
        }
        return parse(buf, d, true) && unescape_spans(buf, d);
    }
    // Without a backslash both readings are the same one.
    if memchr::memchr(b'\\', &buf[start..end]).is_none() {
        return browser_form(buf, start, end, d) || parse(buf, d, false);
    }
    if parse(buf, d, true) {
        return unescape_spans(buf, d);
    }
    parse(buf, d, false)
}

/// [`parse_disposition_into`] with `allow_8bit_parameter_names` or
/// `allow_rfc2231_continuations`: the same two readings in the same order
/// (MP-H-07), each one also joining continuations (MP-H-09); a join that
/// fails fails its reading. Kept apart so the strict path does not carry
/// the segment list.
#[cold]
fn parse_lenient(
    buf: &mut Vec<u8>,
    start: usize,
    end: usize,
    d: &mut Disposition,
    how: CdRead,
) -> bool {
    let mut segs = Vec::new();
    let mut reading = |buf: &mut Vec<u8>, d: &mut Disposition, qp: bool| {
        segs.clear();
        let seg_list = how.rfc2231.then_some(&mut segs);
        if parse_into(buf, start, end, d, qp, how, seg_list).is_none() {
            return false;
        }
        if qp && !unescape_spans(buf, d) {
            return false;
        }
        join_continuations(buf, &mut segs, qp, d)
    };
    let backslash = memchr::memchr(b'\\', &buf[start..end]).is_some();
    if !how.qp_first || !backslash {
        // Without a backslash both readings are the same one.
        reading(buf, d, false) || (backslash && reading(buf, d, true))
    } else {
        reading(buf, d, true) || reading(buf, d, false)
    }
}

/// MP-H-09 with `allow_rfc2231_continuations`: for a value without
/// `filename`, the segments `filename*0`, `filename*1`, ... up to the first
/// missing N, joined after the end of `buf` into `d.filename` (none without
/// `filename*0`). `false` for two segments with one N, wherever they are
/// (beside a `filename` too), or, when joining, a `filename*0*` without
/// `charset'language'`.
fn join_continuations(
    buf: &mut Vec<u8>,
    segs: &mut [Segment],
    qp: bool,
    d: &mut Disposition,
) -> bool {
    if segs.is_empty() {
        return true;
    }
    // N has no leading zeros, so (length, digits) orders numerically.
    let key = |s: &Segment| (s.n.1 - s.n.0, s.n.0);
    segs.sort_unstable_by(|a, b| {
        let (la, lb) = (key(a).0, key(b).0);
        la.cmp(&lb)
            .then_with(|| buf[a.n.0..a.n.1].cmp(&buf[b.n.0..b.n.1]))
    });
    if segs
        .windows(2)
        .any(|w| buf[w[0].n.0..w[0].n.1] == buf[w[1].n.0..w[1].n.1])
    {
        return false;
    }
    // A present filename wins: nothing to join.
    if d.filename.is_some() {
        return true;
    }
    let number = |s: &Segment| -> Option<u64> {
        core::str::from_utf8(&buf[s.n.0..s.n.1]).ok()?.parse().ok()
    };
    let run = segs
        .iter()
        .enumerate()
        .take_while(|&(i, s)| number(s) == Some(i as u64))
        .count();
    if run == 0 {
        return true;
    }
    let mut out = Vec::new();
    for (i, s) in segs[..run].iter().enumerate() {
        let mut v = &buf[s.value.0..s.value.1];
        let unescaped;
        if qp && memchr::memchr(b'\\', v).is_some() {
            unescaped = unescape(v);
            v = &unescaped;
        }
        if !s.extended {
            out.extend_from_slice(v);
            continue;
        }
        if i == 0 {
            // RFC 2231 `charset'language'` goes first; the charset is not
            // used (MP-H-10 reads every filename as UTF-8).
            let Some(q1) = memchr::memchr(b'\'', v) else {
                return false;
            };
            let Some(q2) = memchr::memchr(b'\'', &v[q1 + 1..]) else {
                return false;
            };
            v = &v[q1 + q2 + 2..];
        }
        percent_decode_into(v, &mut out);
    }
    let a = buf.len();
    buf.extend_from_slice(&out);
    d.filename = Some((a, buf.len()));
    true
}

/// `\x` is `x` (RFC 9110 §5.6.4 quoted-pair).
fn unescape(v: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while i < v.len() {
        if v[i] == b'\\' && i + 1 < v.len() {
            i += 1;
        }
        out.push(v[i]);
        i += 1;
    }
    out
}

/// MP-H-09: `%` and two hex digits is that byte; any other `%` stays.
fn percent_decode_into(v: &[u8], out: &mut Vec<u8>) {
    let hex = |b: u8| (b as char).to_digit(16).map(|x| x as u8);
    let mut i = 0;
    while i < v.len() {
        if v[i] == b'%' && i + 2 < v.len() {
            if let (Some(h), Some(l)) = (hex(v[i + 1]), hex(v[i + 2])) {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(v[i]);
        i += 1;
    }
}

/// A Content-Disposition header value read on its own, with the grammar the
/// parser applies to a part's header (MP-H-07..10): the raw bytes of `name`,
/// `filename`, `name*` and `filename*`. For frameworks that read a header
/// themselves (python-multipart's `parse_options_header`, say).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentDisposition {
    /// `name` (MP-H-08), unescaped when the quoted-pair reading was taken.
    pub name: Vec<u8>,
    /// `filename`, when present.
    pub filename: Option<Vec<u8>>,
    /// `name*` as sent (RFC 8187 syntax, not decoded).
    pub name_star: Option<Vec<u8>>,
    /// `filename*` as sent (RFC 8187 syntax, not decoded).
    pub filename_star: Option<Vec<u8>>,
}

impl ContentDisposition {
    /// Reads `value` as the parser reads a part's Content-Disposition value:
    /// OWS around it trimmed (MP-H-11), NUL, CR and LF never part of a value
    /// (MP-H-02), then MP-H-07's grammar with `allow_quoted_pairs` as the
    /// parser option of that name. `None` when the parser would reject the
    /// part with `MP_DISPOSITION`.
    pub fn parse(value: &[u8], allow_quoted_pairs: bool) -> Option<ContentDisposition> {
        let how = CdRead {
            qp_first: allow_quoted_pairs,
            ..CdRead::default()
        };
        ContentDisposition::read(value, how)
    }

    /// [`ContentDisposition::parse`] under the parser options that decide a
    /// Content-Disposition value: `allow_quoted_pairs`,
    /// `allow_any_disposition_type` (any token as the disposition type,
    /// MP-H-07), `allow_8bit_parameter_names` (MP-H-07) and
    /// `allow_rfc2231_continuations` (the filename joined from
    /// `filename*0`, `filename*1*`, ..., MP-H-09). An empty value is `None` here: with
    /// `allow_missing_disposition` the parser reads it as a part without a
    /// name (MP-H-06), which has no parameters to return.
    pub fn parse_with(value: &[u8], options: &super::Options) -> Option<ContentDisposition> {
        ContentDisposition::read(value, CdRead::of(options))
    }

    fn read(value: &[u8], how: CdRead) -> Option<ContentDisposition> {
        if memchr::memchr3(0, b'\r', b'\n', value).is_some() {
            return None;
        }
        let ows = |b: &u8| matches!(b, b' ' | b'\t');
        let start = value.iter().position(|b| !ows(b)).unwrap_or(value.len());
        let end = value.iter().rposition(|b| !ows(b)).map_or(start, |i| i + 1);
        let mut buf = value[start..end].to_vec();
        let n = buf.len();
        let mut d = Disposition::default();
        if !parse_disposition_into(&mut buf, 0, n, &mut d, how) {
            return None;
        }
        let get = |(a, b): Span| buf[a..b].to_vec();
        Some(ContentDisposition {
            name: get(d.name),
            filename: d.filename.map(get),
            name_star: d.name_star.map(get),
            filename_star: d.filename_star.map(get),
        })
    }
}

/// The quoted-pair reading's values: each span holding a backslash is
/// copied unescaped (`\x` is `x`, RFC 9110 §5.6.4) to the end of `buf`.
/// Token values hold no backslash (not a token byte), so they stay put.
fn unescape_spans(buf: &mut Vec<u8>, d: &mut Disposition) -> bool {
    let one = |buf: &mut Vec<u8>, (a, b): Span| -> Span {
        if memchr::memchr(b'\\', &buf[a..b]).is_none() {
            return (a, b);
        }
        let out = buf.len();
        let mut i = a;
        while i < b {
            // A quoted-pair reading never ends a value on a lone backslash.
            let c = if buf[i] == b'\\' {
                i += 1;
                buf[i]
            } else {
                buf[i]
            };
            buf.push(c);
            i += 1;
        }
        (out, buf.len())
    };
    d.name = one(buf, d.name);
    d.filename = d.filename.map(|s| one(buf, s));
    d.name_star = d.name_star.map(|s| one(buf, s));
    d.filename_star = d.filename_star.map(|s| one(buf, s));
    true
}

/// The exact shapes browsers send, `form-data; name="N"` and
/// `form-data; name="N"; filename="F"` (WHATWG's serializer, MP-S-04), as a
/// shortcut: `true` when `buf[start..end]` has one of them and `d` is set
/// just as [`parse_into`] would set it; `false` (and `d` untouched) for
/// anything else, which the full grammar then decides.
#[inline]
fn browser_form(buf: &[u8], start: usize, end: usize, d: &mut Disposition) -> bool {
    const NAME: &[u8] = b"form-data; name=\"";
    const FILENAME: &[u8] = b"; filename=\"";
    let v = &buf[start..end];
    // Fixed-size compares: inline, no memcmp call.
    if v.first_chunk::<17>() != Some(b"form-data; name=\"") {
        return false;
    }
    let rest = &v[NAME.len()..];
    // Names are short: a plain loop beats a memchr call.
    let Some(q) = rest.iter().position(|&b| b == b'"') else {
        return false;
    };
    let name = (start + NAME.len(), start + NAME.len() + q);
    let after = &rest[q + 1..];
    let filename = if after.is_empty() {
        None
    } else {
        if after.first_chunk::<12>() != Some(b"; filename=\"") {
            return false;
        }
        let f = &after[FILENAME.len()..];
        // The filename's closing quote must end the value.
        if f.last() != Some(&b'"') || memchr::memchr(b'"', f) != Some(f.len() - 1) {
            return false;
        }
        let a = end - f.len();
        Some((a, end - 1))
    };
    d.name = name;
    d.filename = filename;
    d.name_star = None;
    d.filename_star = None;
    true
}

/// The grammar, with quoted-strings read literally or (`qp`) with
/// quoted-pairs; a `qp` span is still escaped (see [`unescape_spans`]).
/// The disposition type is `form-data`, or with `any_type`
/// (`allow_any_disposition_type`, MP-H-07) any non-empty token. With
/// `segs` (`allow_rfc2231_continuations`) the `filename*N` parameters are
/// collected there (MP-H-09).
fn parse_into(
    buf: &[u8],
    start: usize,
    end: usize,
    d: &mut Disposition,
    qp: bool,
    how: CdRead,
    mut segs: Option<&mut Vec<Segment>>,
) -> Option<()> {
    let v = &buf[start..end];
    let span = |a: usize, b: usize| (start + a, start + b);
    // MP-H-07: with `allow_8bit_parameter_names`, bytes 80-FF in names too.
    let names = if how.eight_bit { &NAME_UTF8 } else { &TOKEN };
    let t = token_end(v, 0);
    let type_ok = if how.any_type {
        t > 0
    } else {
        v[..t].eq_ignore_ascii_case(b"form-data")
    };
    if !type_ok {
        return None;
    }
    let mut i = t;
    let mut has_name = false;
    d.filename = None;
    d.name_star = None;
    d.filename_star = None;
    loop {
        i = skip_ows(v, i);
        if i == v.len() {
            break;
        }
        if v[i] != b';' {
            return None;
        }
        i = skip_ows(v, i + 1);
        if i == v.len() {
            break;
        }
        if v[i] == b';' {
            // An empty parameter.
            continue;
        }
        let pn = i;
        i = run_end(v, i, names);
        if i == pn {
            return None;
        }
        let pname = &v[pn..i];
        i = skip_ows(v, i);
        if i == v.len() || v[i] != b'=' {
            return None;
        }
        i = skip_ows(v, i + 1);
        let value = if i < v.len() && v[i] == b'"' {
            let close = if qp {
                qp_close(v, i + 1)?
            } else {
                memchr::memchr(b'"', &v[i + 1..])? + i + 1
            };
            let s = span(i + 1, close);
            i = close + 1;
            s
        } else {
            let vs = i;
            i = token_end(v, i);
            if i == vs {
                return None;
            }
            span(vs, i)
        };
        // MP-H-07: a name holding a byte 80-FF is no known parameter.
        if how.eight_bit && !pname.is_ascii() {
            continue;
        }
        // MP-H-08, MP-H-09: case-insensitive names, no repeats. (`name` is
        // written straight into `d`: no Option round trip on the hot path.)
        if pname.eq_ignore_ascii_case(b"name") {
            if has_name {
                return None;
            }
            has_name = true;
            d.name = value;
            continue;
        }
        let slot = if pname.eq_ignore_ascii_case(b"filename") {
            &mut d.filename
        } else if pname.eq_ignore_ascii_case(b"name*") {
            &mut d.name_star
        } else if pname.eq_ignore_ascii_case(b"filename*") {
            &mut d.filename_star
        } else {
            if let Some(segs) = segs.as_deref_mut() {
                if let Some((n, extended)) = continuation(pname) {
                    let n = span(pn + n.0, pn + n.1);
                    segs.push(Segment { n, value, extended });
                }
            }
            continue;
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(value);
    }
    has_name.then_some(())
}

/// MP-H-09: `filename*N` or `filename*N*` (ASCII case-insensitive, N
/// decimal without leading zeros): where N sits in `pname`, and whether the
/// segment is percent-encoded (`*N*`).
fn continuation(pname: &[u8]) -> Option<(Span, bool)> {
    const PREFIX: usize = b"filename*".len();
    if pname.len() <= PREFIX || !pname[..PREFIX].eq_ignore_ascii_case(b"filename*") {
        return None;
    }
    let rest = &pname[PREFIX..];
    let (digits, extended) = match rest.strip_suffix(b"*") {
        Some(d) => (d, true),
        None => (rest, false),
    };
    let ok = !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
        && (digits == b"0" || digits[0] != b'0');
    ok.then_some(((PREFIX, PREFIX + digits.len()), extended))
}

/// The index of the `"` that closes a quoted-string read with quoted-pairs
/// (a backslash takes the next byte whatever it is), from `i` on.
fn qp_close(v: &[u8], mut i: usize) -> Option<usize> {
    while i < v.len() {
        match v[i] {
            b'"' => return Some(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    None
}

/// The headers of the current part, borrowed from the parser.
///
/// Valid from [`Event::PartStart`](super::Event::PartStart) on; also
/// available through [`Parser::part`](super::Parser::part) while the body is
/// being read.
#[derive(Clone, Copy)]
pub struct Part<'a> {
    /// One pointer: events that carry a part stay small.
    parser: &'a Parser,
}

/// UTF-8 with U+FFFD for invalid sequences (MP-H-10), borrowing when valid.
fn lossy(b: &[u8]) -> Cow<'_, str> {
    match core::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(String::from_utf8_lossy(b).into_owned()),
    }
}

impl<'a> Part<'a> {
    pub(crate) fn new(parser: &'a Parser) -> Part<'a> {
        Part { parser }
    }

    fn get(&self, (a, b): Span) -> &'a [u8] {
        &self.parser.hbuf[a..b]
    }

    /// The `name` parameter as UTF-8 with U+FFFD for invalid bytes, not
    /// percent-decoded (MP-H-10). Empty for a part without a name (see
    /// [`Part::has_name`]).
    pub fn name(&self) -> Cow<'a, str> {
        lossy(self.name_bytes())
    }

    /// The raw bytes of the `name` parameter (empty for a part without a
    /// name).
    pub fn name_bytes(&self) -> &'a [u8] {
        self.get(self.parser.disp.name)
    }

    /// `false` for a part without a name: with `allow_missing_disposition`,
    /// one with no `Content-Disposition` header or only an empty one
    /// (MP-H-06). Its name is null (where [`Part::name`] and
    /// [`Part::name_bytes`] are empty, which `name=""` also gives), it has
    /// no filename, `name*` or `filename*`, and it is a field for every
    /// limit; name-to-value form layers skip it (MP-F-05). Always `true`
    /// without that option.
    pub fn has_name(&self) -> bool {
        self.parser.named
    }

    /// The `filename` parameter (MP-H-10); `None` for a field. Untrusted:
    /// no path is stripped.
    pub fn filename(&self) -> Option<Cow<'a, str>> {
        self.filename_bytes().map(lossy)
    }

    /// The raw bytes of the `filename` parameter.
    pub fn filename_bytes(&self) -> Option<&'a [u8]> {
        self.parser.disp.filename.map(|s| self.get(s))
    }

    /// `true` when the part has a `filename` (a File entry, MP-F-02).
    pub fn is_file(&self) -> bool {
        self.parser.disp.filename.is_some()
    }

    /// The raw, undecoded `name*` parameter (RFC 8187). It never overrides
    /// `name` (MP-H-09).
    pub fn name_star(&self) -> Option<&'a [u8]> {
        self.parser.disp.name_star.map(|s| self.get(s))
    }

    /// The raw, undecoded `filename*` parameter. It never overrides
    /// `filename` (MP-H-09).
    pub fn filename_star(&self) -> Option<&'a [u8]> {
        self.parser.disp.filename_star.map(|s| self.get(s))
    }

    /// The value of the last `Content-Type` header, OWS-trimmed, as is
    /// (MP-H-11).
    pub fn content_type(&self) -> Option<&'a [u8]> {
        let p = self.parser;
        p.content_type.map(|i| {
            let h = &p.headers[i];
            &p.hbuf[h.value_start..h.value_end]
        })
    }

    /// The `type` a browser's `formData()` gives this part as a File
    /// (MP-F-03): `text/plain` without a Content-Type, else Fetch's "extract
    /// a MIME type" over every Content-Type value, serialized, or `""` when
    /// none parses.
    pub fn mime_type(&self) -> String {
        if self.parser.content_type.is_none() {
            return "text/plain".to_owned();
        }
        let values = self
            .headers()
            .filter(|h| h.name() == "content-type")
            .map(|h| h.value());
        mime::extract(values)
            .map(|m| m.to_string())
            .unwrap_or_default()
    }

    /// Every header in order.
    pub fn headers(&self) -> Headers<'a> {
        Headers {
            buf: &self.parser.hbuf,
            iter: self.parser.headers.iter(),
        }
    }

    /// The absolute offset of the first body byte.
    pub fn body_offset(&self) -> u64 {
        self.parser.body_start
    }
}

impl core::fmt::Debug for Part<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Part")
            .field("name", &self.has_name().then(|| self.name()))
            .field("filename", &self.filename())
            .field("content_type", &self.content_type().map(lossy))
            .field("headers", &self.headers().len())
            .finish()
    }
}

/// One part header: lowercased name, OWS-trimmed value (MP-H-11).
#[derive(Clone, Copy, Debug)]
pub struct Header<'a> {
    name: &'a [u8],
    written: &'a [u8],
    value: &'a [u8],
}

impl<'a> Header<'a> {
    /// The name, ASCII-lowercased (MP-H-11). A token, so ASCII, unless
    /// `allow_utf8_header_names` let bytes 80-FF in: those are shown decoded
    /// as UTF-8 with U+FFFD for invalid sequences (`X-FØØ` is `x-fØØ`).
    pub fn name(&self) -> &'a str {
        core::str::from_utf8(self.name).unwrap_or_default()
    }

    /// The name's bytes exactly as written in the header line (case kept,
    /// bytes 80-FF as sent), for callers that show names as the client
    /// spelled them; [`Header::name`] is the form to compare.
    pub fn name_as_written(&self) -> &'a [u8] {
        self.written
    }

    /// The raw value bytes (obs-fold continuations joined by one SP).
    pub fn value(&self) -> &'a [u8] {
        self.value
    }

    /// The value as UTF-8 with U+FFFD for invalid bytes, for display.
    pub fn value_str(&self) -> Cow<'a, str> {
        lossy(self.value)
    }
}

/// Iterator over a part's headers, from [`Part::headers`].
#[derive(Clone, Debug)]
pub struct Headers<'a> {
    buf: &'a [u8],
    iter: core::slice::Iter<'a, HeaderSpan>,
}

impl<'a> Iterator for Headers<'a> {
    type Item = Header<'a>;

    fn next(&mut self) -> Option<Header<'a>> {
        self.iter.next().map(|h| Header {
            name: &self.buf[h.name_start..h.name_end],
            written: match h.raw_name {
                RawName::Known(w) => w,
                RawName::Span(a, b) => &self.buf[a..b],
            },
            value: &self.buf[h.value_start..h.value_end],
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl ExactSizeIterator for Headers<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    type Params = (String, Option<String>, Option<String>, Option<String>);

    fn cd_with(v: &str, qp_first: bool) -> Option<Params> {
        let mut b = v.as_bytes().to_vec();
        let how = CdRead {
            qp_first,
            ..CdRead::default()
        };
        let d = parse_disposition(&mut b, 0, v.len(), how)?;
        let s = |(a, e): Span| String::from_utf8_lossy(&b[a..e]).into_owned();
        Some((
            s(d.name),
            d.filename.map(s),
            d.name_star.map(s),
            d.filename_star.map(s),
        ))
    }

    fn cd(v: &str) -> Option<Params> {
        cd_with(v, false)
    }

    #[test]
    fn content_disposition_parse_reads_one_value_as_the_parser_does() {
        let d =
            ContentDisposition::parse(b" form-data; name=\"a\"; filename=\"a\\\"b.txt\"\t", false)
                .unwrap();
        assert_eq!(d.name, b"a");
        assert_eq!(d.filename.as_deref(), Some(&b"a\"b.txt"[..]));
        let d = ContentDisposition::parse(b"form-data; name=\"a\\\\b\"", false).unwrap();
        assert_eq!(d.name, b"a\\\\b"); // literal reading by default (MP-H-07)
        let d = ContentDisposition::parse(b"form-data; name=\"a\\\\b\"", true).unwrap();
        assert_eq!(d.name, b"a\\b");
        let d =
            ContentDisposition::parse(b"form-data; name=x; name*=utf-8''%C3%A9", false).unwrap();
        assert_eq!(d.name_star.as_deref(), Some(&b"utf-8''%C3%A9"[..]));
        assert_eq!(
            ContentDisposition::parse(b"attachment; name=x", false),
            None
        );
        assert_eq!(
            ContentDisposition::parse(b"form-data; name=\"a\r\nb\"", false),
            None
        );
        assert_eq!(
            ContentDisposition::parse(b"form-data; name=a; name=b", false),
            None
        );
    }

    #[test]
    fn quoted_pairs_when_the_literal_reading_fails() {
        let f = |n: &str, f: &str| Some((n.to_owned(), Some(f.to_owned()), None, None));
        // Go's multipart.Writer: `"` written as `\"`.
        assert_eq!(
            cd(r#"form-data; name="f"; filename="a\"b.txt""#),
            f("f", "a\"b.txt")
        );
        assert_eq!(
            cd(r#"form-data; name="a\"b""#),
            Some(("a\"b".into(), None, None, None))
        );
        // Literal-valid: backslashes stay (browser output `a\` is `"a\"`).
        assert_eq!(
            cd(r#"form-data; name="f"; filename="a\\b""#),
            f("f", r"a\\b")
        );
        assert_eq!(cd(r#"form-data; name="f"; filename="a\""#), f("f", "a\\"));
        // Both readings fail.
        assert_eq!(cd(r#"form-data; name="a\"; filename="b\"c""#), None);
        assert_eq!(cd(r#"form-data; name="a\"b"#), None);
        // One reading for the whole value: `\\` next to `\"` is one backslash.
        assert_eq!(
            cd(r#"form-data; name="x\\y"; filename="a\"b""#),
            f("x\\y", "a\"b")
        );
        assert_eq!(
            cd(r#"form-data; name="n"; name*="u\"v""#),
            Some(("n".into(), None, Some("u\"v".into()), None))
        );
    }

    #[test]
    fn allow_quoted_pairs_reads_them_first() {
        let f = |n: &str, f: &str| Some((n.to_owned(), Some(f.to_owned()), None, None));
        assert_eq!(
            cd_with(r#"form-data; name="f"; filename="a\\b""#, true),
            f("f", r"a\b")
        );
        assert_eq!(
            cd_with(r#"form-data; name="f"; filename="a\"b.txt""#, true),
            f("f", "a\"b.txt")
        );
        // The quoted-pair reading fails (no closing quote): literal.
        assert_eq!(
            cd_with(r#"form-data; name="f"; filename="a\""#, true),
            f("f", "a\\")
        );
        assert_eq!(
            cd_with(r#"form-data; name="f"; filename="x.txt""#, true),
            f("f", "x.txt")
        );
        assert_eq!(
            cd_with(r#"form-data; name="a\"; filename="b\"c""#, true),
            None
        );
    }

    #[test]
    fn disposition_grammar() {
        let n = |x: &str| Some((x.to_owned(), None, None, None));
        assert_eq!(cd("form-data; name=\"a\""), n("a"));
        assert_eq!(cd("FORM-DATA;NAME=a"), n("a"));
        assert_eq!(cd("form-data ; name = \"a\" ;"), n("a"));
        assert_eq!(cd("form-data;;name=\"\";;"), n(""));
        assert_eq!(cd("form-data; name=\"a\\\""), n("a\\"));
        assert_eq!(cd("form-data; name=\"a;b\""), n("a;b"));
        assert_eq!(cd("form-data; name=\"%22\""), n("%22"));
        assert_eq!(cd("form-data; size=3; name=a"), n("a"));
        assert_eq!(cd("form-data; filename*0=x; name=a"), n("a"));
        assert_eq!(
            cd("form-data; name=a; filename=\"\"; name*=utf-8''b; filename*=utf-8''c"),
            Some((
                "a".into(),
                Some("".into()),
                Some("utf-8''b".into()),
                Some("utf-8''c".into())
            ))
        );
    }

    #[test]
    fn browser_shapes_take_the_shortcut_with_the_same_result() {
        for v in [
            "form-data; name=\"a\"",
            "form-data; name=\"\"",
            "form-data; name=\"a b;c=\\\"",
            "form-data; name=\"f\"; filename=\"x.txt\"",
            "form-data; name=\"f\"; filename=\"\"",
            "form-data; name=\"f\"; filename=\"a;b=c\"",
        ] {
            let b = v.as_bytes();
            let mut fast = Disposition::default();
            assert!(browser_form(b, 0, b.len(), &mut fast), "{v}");
            let mut full = Disposition::default();
            parse_into(b, 0, b.len(), &mut full, false, CdRead::default(), None).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{full:?}"), "{v}");
        }
        // Near misses go to the full grammar (which may accept or reject).
        for v in [
            "form-data; name=\"a\" ",
            "form-data; name=\"a\";",
            "form-data; name=\"a\"; filename=\"x\"\"",
            "form-data; name=\"a\"; filename=\"x",
            "form-data; name=\"a\"; filename=x",
            "form-data; name=\"a\"; name=\"b\"",
            "form-data; name=\"a",
            "Form-data; name=\"a\"",
            "form-data;name=\"a\"",
        ] {
            let b = v.as_bytes();
            assert!(
                !browser_form(b, 0, b.len(), &mut Disposition::default()),
                "{v}"
            );
        }
    }

    #[test]
    fn any_disposition_type_takes_any_token() {
        let any = |v: &str| {
            let mut b = v.as_bytes().to_vec();
            let how = CdRead {
                any_type: true,
                ..CdRead::default()
            };
            parse_disposition(&mut b, 0, v.len(), how).map(|d| {
                let s = |(a, e): Span| String::from_utf8_lossy(&b[a..e]).into_owned();
                (s(d.name), d.filename.map(s))
            })
        };
        assert_eq!(any("form-field; name=a"), Some(("a".into(), None)));
        assert_eq!(any("FORM-DATA; name=a"), Some(("a".into(), None)));
        assert_eq!(
            any("attachment;name=\"f\";filename=\"x\""),
            Some(("f".into(), Some("x".into())))
        );
        assert_eq!(any("x ; name=a ;"), Some(("a".into(), None)));
        for bad in [
            "",
            "; name=a",
            "\"form-data\"; name=a",
            "form/data; name=a",
            "form data; name=a",
            "form-field",
            "form-field; name=a; name=b",
        ] {
            assert_eq!(any(bad), None, "{bad:?}");
            // Never accepted where the strict type check fails either.
            assert!(cd(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn disposition_rejects() {
        for bad in [
            "",
            "attachment; name=a",
            "form-data",
            "form-data; filename=a",
            "form-data name=a",
            "form-data; name",
            "form-data; name=",
            "form-data; name=\"a",
            "form-data; name=\"a\"x",
            "form-data; name=\"a\" x",
            "form-data; name=a b",
            "form-data; name=a/b",
            "form-data; =a",
            "form-data; name=a; name=b",
            "form-data; name=a; NAME=b",
            "form-data; name=a; filename=b; filename=c",
            "form-data; name=a; name*=b; name*=c",
            "form-data; name=a; filename*=b; filename*=c",
            "form-data; name=\"a\".html",
            "form-data; name=\"a\\\"x",
            "form-data; name=\"a\\\"; filename=\"b\\\"c\"",
            "form-data-x; name=a",
        ] {
            assert!(cd(bad).is_none(), "{bad:?}");
        }
    }
}
