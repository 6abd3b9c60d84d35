//! Rule-by-rule tests (`spec/multipart.md`), a naive whole-buffer reference
//! compared under random chunking, and encode→parse round trips.

use super::*;
use crate::error::ErrorCode::{self, *};

/// One parsed part, owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct P {
    pub name: String,
    /// [`Part::has_name`]: `false` for a nameless part (MP-H-06).
    pub named: bool,
    pub filename: Option<String>,
    pub name_star: Option<Vec<u8>>,
    pub filename_star: Option<Vec<u8>>,
    pub content_type: Option<Vec<u8>>,
    pub mime: String,
    pub headers: Vec<(String, Vec<u8>)>,
    /// [`Header::name_as_written`] of each header.
    pub written: Vec<Vec<u8>>,
    pub body: Vec<u8>,
}

/// Parses `input` cut at `cuts`, checking the event order on the way.
pub(crate) fn run(
    boundary: &[u8],
    opts: &Options,
    input: &[u8],
    cuts: &[usize],
) -> Result<Vec<P>, Error> {
    let mut parser = Parser::new(boundary, opts.clone())?;
    let mut parts: Vec<P> = Vec::new();
    let mut open = false;
    let mut ended = false;
    let mut last = 0;
    let mut bounds: Vec<usize> = cuts.to_vec();
    bounds.push(input.len());
    let mut handle = |ev: Event<'_, '_>| {
        assert!(!ended, "event after End: {ev:?}");
        match ev {
            Event::PartStart(part) => {
                assert!(!open, "PartStart inside a part");
                open = true;
                parts.push(P {
                    name: part.name().into_owned(),
                    named: part.has_name(),
                    filename: part.filename().map(|f| f.into_owned()),
                    name_star: part.name_star().map(<[u8]>::to_vec),
                    filename_star: part.filename_star().map(<[u8]>::to_vec),
                    content_type: part.content_type().map(<[u8]>::to_vec),
                    mime: part.mime_type(),
                    headers: part
                        .headers()
                        .map(|h| (h.name().to_owned(), h.value().to_vec()))
                        .collect(),
                    written: part
                        .headers()
                        .map(|h| h.name_as_written().to_vec())
                        .collect(),
                    body: Vec::new(),
                });
            }
            Event::Data(d) | Event::HeldData(d) => {
                assert!(open, "data outside a part");
                assert!(!d.is_empty(), "empty data event");
                parts.last_mut().unwrap().body.extend_from_slice(d);
            }
            Event::PartEnd => {
                assert!(open, "PartEnd outside a part");
                open = false;
            }
            Event::End => {
                assert!(!open, "End inside a part");
                ended = true;
            }
        }
    };
    for &b in &bounds {
        let mut feed = parser.feed(&input[last..b]);
        while let Some(ev) = feed.next() {
            handle(ev?);
        }
        last = b;
    }
    let mut feed = parser.finish();
    while let Some(ev) = feed.next() {
        handle(ev?);
    }
    assert!(ended, "finish succeeded without End");
    Ok(parts)
}

/// Runs every chunking worth trying and asserts they all agree.
pub(crate) fn run_all(boundary: &[u8], opts: &Options, input: &[u8]) -> Result<Vec<P>, Error> {
    let whole = run(boundary, opts, input, &[]);
    let n = input.len();
    let bytes: Vec<usize> = (1..n).collect();
    assert_eq!(
        run(boundary, opts, input, &bytes),
        whole,
        "byte by byte: {:?}",
        String::from_utf8_lossy(input)
    );
    for i in 1..n {
        assert_eq!(
            run(boundary, opts, input, &[i]),
            whole,
            "cut at {i}: {:?}",
            String::from_utf8_lossy(input)
        );
    }
    if n <= 160 {
        for i in 1..n {
            for j in i + 1..n {
                assert_eq!(run(boundary, opts, input, &[i, j]), whole, "cuts {i},{j}");
            }
        }
    }
    whole
}

fn strict() -> Options {
    Options::default()
}

fn ok(input: &str) -> Vec<P> {
    ok_with(&strict(), input.as_bytes())
}

fn ok_with(opts: &Options, input: &[u8]) -> Vec<P> {
    match run_all(b"b", opts, input) {
        Ok(p) => p,
        Err(e) => panic!("{e} for {:?}", String::from_utf8_lossy(input)),
    }
}

fn err(input: &str) -> Error {
    err_with(&strict(), input.as_bytes())
}

fn err_with(opts: &Options, input: &[u8]) -> Error {
    match run_all(b"b", opts, input) {
        Ok(p) => panic!("accepted {:?}: {p:?}", String::from_utf8_lossy(input)),
        Err(e) => e,
    }
}

/// The offset of the `nth` occurrence (0-based) of `needle`.
fn at(input: &str, needle: &str, nth: usize) -> u64 {
    input
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} not in {input:?}"))
        .0 as u64
}

fn e(code: ErrorCode, offset: u64) -> Error {
    Error::new(code, offset)
}

const CD: &str = "Content-Disposition: form-data; name=\"a\"\r\n";

fn one(headers: &str, body: &str) -> String {
    format!("--b\r\n{headers}\r\n{body}\r\n--b--\r\n")
}

// ---------------------------------------------------------------------------
// MP-B: boundary

#[test]
fn mp_b_content_type() {
    let ct = |s: &str| boundary_from_content_type(s).map_err(|e| e.code);
    assert_eq!(ct("multipart/form-data; boundary=abc"), Ok(b"abc".to_vec()));
    assert_eq!(
        ct("MULTIPART/FORM-DATA;BOUNDARY=\"a b\""),
        Ok(b"a b".to_vec())
    );
    assert_eq!(
        ct("multipart/form-data; boundary=\"a.b(c)\""),
        Ok(b"a.b(c)".to_vec())
    );
    assert_eq!(
        ct("multipart/form-data; boundary=\"b\u{e9}\""),
        Ok(vec![0x62, 0xC3, 0xA9])
    );
    assert_eq!(
        ct("multipart/form-data; boundary=x; boundary=y"),
        Ok(b"x".to_vec())
    );
    assert_eq!(
        ct("multipart/form-data; boundary=\"a\\\"b\""),
        Ok(b"a\"b".to_vec())
    );
    assert_eq!(ct("text/plain; boundary=x"), Err(MpContentType));
    assert_eq!(ct("multipart/form-data boundary=x"), Err(MpContentType));
    assert_eq!(ct(""), Err(MpContentType));
    assert_eq!(ct("multipart/form-data"), Err(MpBoundary));
    assert_eq!(ct("multipart/form-data; boundary="), Err(MpBoundary));
    assert_eq!(ct("multipart/form-data; boundary=\"\""), Err(MpBoundary));
    assert_eq!(
        ct("multipart/form-data; boundary=\u{20ac}"),
        Err(MpBoundary)
    );
    // MP-B-03 vs MP-B-04 order, and the limit itself.
    // MP-B-04: default 256, so the 71+ byte boundaries of werkzeug's test
    // client parse.
    let long = format!("multipart/form-data; boundary={}", "x".repeat(257));
    assert_eq!(
        Parser::from_content_type(&long, strict()).unwrap_err(),
        e(MpLimitBoundary, 0)
    );
    for n in [70, 71, 256] {
        let ok = format!("multipart/form-data; boundary={}", "x".repeat(n));
        assert!(Parser::from_content_type(&ok, strict()).is_ok(), "{n}");
    }
    assert_eq!(
        Parser::new(b"a\rb", strict()).unwrap_err(),
        e(MpBoundary, 0)
    );
    assert_eq!(
        Parser::new(&[b'a'; 300][..], strict()).unwrap_err(),
        e(MpLimitBoundary, 0)
    );
    let mut o = strict();
    o.max_boundary_bytes = UNLIMITED;
    assert!(Parser::new(&[b'a'; 300][..], o).is_ok());
}

// ---------------------------------------------------------------------------
// MP-P: framing

#[test]
fn mp_p_01_basic_and_empty() {
    let p = ok(&one(CD, "hello"));
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].name, "a");
    assert_eq!(p[0].body, b"hello");
    assert_eq!(p[0].filename, None);
    assert_eq!(p[0].mime, "text/plain");
    // MP-P-07: no parts at all is valid.
    assert_eq!(ok("--b--"), []);
    assert_eq!(ok("--b--\r\n"), []);
    // MP-P-06: an empty body.
    assert_eq!(ok(&one(CD, ""))[0].body, b"");
    // The CRLF before a delimiter belongs to it.
    assert_eq!(ok(&one(CD, "\r\n"))[0].body, b"\r\n");
    assert_eq!(ok(&one(CD, "\r"))[0].body, b"\r");
}

#[test]
fn mp_p_02_preamble() {
    assert_eq!(err("x--b--"), e(MpPreamble, 0));
    assert_eq!(err("\r\n--b--"), e(MpPreamble, 0));
    assert_eq!(err("--x"), e(MpPreamble, 2));
    assert_eq!(err("-x"), e(MpPreamble, 1));
    let mut o = strict();
    o.allow_preamble = true;
    let body = format!("junk --b\r\n--bX\r\n-b\r\n--b\r\n{CD}\r\nv\r\n--b--");
    let p = ok_with(&o, body.as_bytes());
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].body, b"v");
    // At offset 0 without CRLF, too.
    assert_eq!(
        ok_with(&o, format!("--b\r\n{CD}\r\nv\r\n--b--").as_bytes()).len(),
        1
    );
    assert_eq!(ok_with(&o, b"--b--"), []);
    assert_eq!(ok_with(&o, b"xx\r\n--b--"), []);
    // `--bX` at offset 0 is skipped, the search goes on.
    assert_eq!(ok_with(&o, b"--bX\r\n--b--"), []);
    // Nothing found: truncated.
    assert_eq!(err_with(&o, b"no delimiter\r\n--"), e(MpTruncated, 16));
    // With allow_lf, `LF--B` also ends a preamble.
    o.allow_lf = true;
    assert_eq!(ok_with(&o, b"pre\n--b--"), []);
}

#[test]
fn mp_p_03_delimiter_line() {
    // WPT: transport padding is accepted in strict mode.
    let body = format!("--b \t \r\n{CD}\r\nv\r\n--b\t\r\n{CD}\r\nw\r\n--b--");
    assert_eq!(ok(&body).len(), 2);
    assert_eq!(err("--bX"), e(MpDelimiter, 3));
    assert_eq!(err("--b-x"), e(MpDelimiter, 4));
    assert_eq!(err("--b -"), e(MpDelimiter, 4));
    assert_eq!(err("--b\rx"), e(MpDelimiter, 4));
    assert_eq!(err("--b\r\r\n"), e(MpDelimiter, 4));
    // Strict: a bare LF is offending; allow_lf accepts it.
    assert_eq!(err("--b\n"), e(MpDelimiter, 3));
    assert_eq!(err("--b \n"), e(MpDelimiter, 4));
    let mut o = strict();
    o.allow_lf = true;
    let lf = "--b \nContent-Disposition: form-data; name=\"a\"\n\nv\n--b--\n";
    let p = ok_with(&o, lf.as_bytes());
    assert_eq!(p[0].body, b"v");
}

#[test]
fn mp_p_04_delimiter_in_body() {
    // `CRLF--BX` is data; `--B` without CRLF is data.
    let p = ok(&one(CD, "x\r\n--bX\r\n--bb--b--b"));
    assert_eq!(p[0].body, b"x\r\n--bX\r\n--bb--b--b");
    // Once a delimiter, MP-P-03 applies to the rest of its line.
    let s = one(CD, "v\r\n--b-x");
    assert_eq!(err(&s), e(MpDelimiter, at(&s, "-x", 0) + 1));
    let s = format!("--b\r\n{CD}\r\nv\r\n--b\n");
    assert_eq!(err(&s), e(MpDelimiter, s.len() as u64 - 1));
}

#[test]
fn mp_p_05_close_delimiter() {
    assert_eq!(ok("--b--  \t"), []);
    assert_eq!(ok("--b-- \r\nepilogue\r\n--b\r\n garbage"), []);
    assert_eq!(err("--b--junk"), e(MpDelimiter, 5));
    assert_eq!(err("--b-- x"), e(MpDelimiter, 6));
    assert_eq!(err("--b--\rx"), e(MpDelimiter, 6));
    assert_eq!(err("--b--\n"), e(MpDelimiter, 5));
    let mut o = strict();
    o.allow_lf = true;
    assert_eq!(ok_with(&o, b"--b--\njunk"), []);
    let s = one(CD, "v").replace("--b--\r\n", "--b--junk");
    assert_eq!(err(&s), e(MpDelimiter, at(&s, "junk", 0)));
}

#[test]
fn mp_p_06_allow_lf_bodies() {
    let mut o = strict();
    o.allow_lf = true;
    // A CR before the LF of `LF--B` belongs to the delimiter.
    let s = "--b\nContent-Disposition: form-data; name=\"a\"\n\nv\r\r\n--b\r\nContent-Disposition: form-data; name=\"c\"\r\n\r\nw\n\n--b--";
    let p = ok_with(&o, s.as_bytes());
    assert_eq!(p[0].body, b"v\r");
    assert_eq!(p[1].body, b"w\n");
    // Mixed line ends in one part header block.
    let s = "--b\r\nContent-Disposition: form-data; name=\"a\"\nX-A: 1\r\n\nv\n--b--";
    let p = ok_with(&o, s.as_bytes());
    assert_eq!(p[0].headers.len(), 2);
    // Strict: the same is a bare LF in a header line.
    assert_eq!(err(s), e(MpHeaderValue, at(s, "\"\n", 0) + 1));
}

#[test]
fn mp_p_07_truncated() {
    for s in [
        "", "-", "--", "--b", "--b-", "--b ", "--b\r", "--b\r\n", "--b--\r",
    ] {
        assert_eq!(err(s), e(MpTruncated, s.len() as u64), "{s:?}");
    }
    let full = one(CD, "value");
    for cut in [7, 40, 48, 50, 52, 54, full.len() - 3] {
        let s = &full[..cut];
        assert_eq!(err(s), e(MpTruncated, cut as u64), "{s:?}");
    }
    // WPT "no CRLF before close delimiter".
    let s = format!("--b\r\n{CD}\r\nvalue--b--\r\n");
    assert_eq!(err(&s), e(MpTruncated, s.len() as u64));
}

#[test]
fn mp_p_08_held_bytes_are_bounded() {
    // A body that ends every chunk with a delimiter prefix: the held-back
    // bytes never exceed the delimiter length.
    let b = b"0123456789abcdef";
    let mut parser = Parser::new(b, strict()).unwrap();
    let head = b"--0123456789abcdef\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n";
    let mut feed = parser.feed(head);
    while let Some(ev) = feed.next() {
        ev.unwrap();
    }
    for prefix in 1..=20 {
        let chunk = [&b"data"[..], &b"\r\n--0123456789abcdef"[..prefix.min(20)]].concat();
        let mut feed = parser.feed(&chunk);
        while let Some(ev) = feed.next() {
            if let Event::HeldData(h) = ev.unwrap() {
                assert!(h.len() <= 20);
            }
        }
        assert!(parser.held_len() <= 20);
        // Break the match so the next round starts clean.
        let mut feed = parser.feed(b"Z");
        while let Some(ev) = feed.next() {
            ev.unwrap();
        }
    }
}

// ---------------------------------------------------------------------------
// MP-H: headers

#[test]
fn mp_h_01_header_lines() {
    let h = "content-DISPOSITION : form-data; name=\"a\" \t\r\nX-Empty:\r\nX-Sp:  a  b \r\n";
    let p = ok(&one(h, "v"));
    assert_eq!(
        p[0].headers,
        [
            (
                "content-disposition".to_owned(),
                b"form-data; name=\"a\"".to_vec()
            ),
            ("x-empty".to_owned(), b"".to_vec()),
            ("x-sp".to_owned(), b"a  b".to_vec()),
        ]
    );
    // WPT: whitespace before the first header name (CVE-2022-24434).
    let p = ok(&one(&format!(" \t{CD}"), "v"));
    assert_eq!(p[0].name, "a");
}

#[test]
fn mp_h_02_bad_bytes() {
    let s = one("Content-Disposition\r\n", "v");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "\r", 1)));
    let s = one("Content-Disposition form-data\r\n", "v");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "form-data", 0)));
    let s = one("Cont ent-Type: x\r\n", "v");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "ent-", 0)));
    let s = one(": x\r\n", "v");
    assert_eq!(err(&s), e(MpHeaderName, 5));
    let s = one(&format!("{CD}X@Y: z\r\n"), "v");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "@", 0)));
    let s = one(&format!("{CD}X\0Y: z\r\n"), "v");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "\0", 0)));
    let s = one(&format!("{CD}X-Y: a\0b\r\n"), "v");
    assert_eq!(err(&s), e(MpHeaderValue, at(&s, "\0", 0)));
    // Bare CR / LF in a name: the name check fails first. In a value: MP_HEADER_VALUE.
    let s = one(&format!("{CD}X\rY: z\r\n"), "v");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "\rY", 0)));
    let s = one(&format!("{CD}X\nY: z\r\n"), "v");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "\nY", 0)));
    let s = one(&format!("{CD}X \rY: z\r\n"), "v");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "\rY", 0)));
    let s = one(&format!("{CD}X-Y: a\rb\r\n"), "v");
    assert_eq!(err(&s), e(MpHeaderValue, at(&s, "\rb", 0)));
    let s = one(&format!("{CD}X-Y: a\nb\r\n"), "v");
    assert_eq!(err(&s), e(MpHeaderValue, at(&s, "\nb", 0)));
    let s = one(&format!("{CD}X-Y : \r"), "v");
    assert_eq!(err(&s), e(MpHeaderValue, at(&s, " \r\r", 0) + 1));
    // Other control bytes and 80-FF are fine in values.
    let p = ok(&one(&format!("{CD}X-Y: \x01\x7f\u{e9}\r\n"), "v"));
    assert_eq!(p[0].headers[1].1, "\x01\x7f\u{e9}".as_bytes());
    // With allow_lf a line without a colon fails at its LF.
    let mut o = strict();
    o.allow_lf = true;
    let s = one(&format!("{CD}X-Y\n"), "v");
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpHeaderName, at(&s, "Y\n", 0) + 1)
    );
}

#[test]
fn mp_h_03_bare_cr_at_line_start() {
    let s = format!("--b\r\n{CD}\rX\r\n\r\nv\r\n--b--");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "\rX", 0)));
    assert_eq!(err("--b\r\n\rX"), e(MpHeaderName, 5));
    // Strict: a bare LF "empty line" is a name byte.
    let s = format!("--b\r\n{CD}\nv\r\n--b--");
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "\nv", 0)));
}

#[test]
fn mp_h_04_obs_fold() {
    let h = format!("{CD}X-A: one\r\n \t two \r\n\tthree\r\n");
    let s = one(&h, "v");
    assert_eq!(err(&s), e(MpObsFold, at(&s, " \t two", 0)));
    let mut o = strict();
    o.allow_obs_fold = true;
    let p = ok_with(&o, s.as_bytes());
    assert_eq!(p[0].headers[1].1, b"one two three");
    // A folded Content-Disposition is parsed whole.
    let s = one(
        "Content-Disposition: form-data;\r\n name=\"f\";\r\n\tfilename=\"x\"\r\n",
        "v",
    );
    let p = ok_with(&o, s.as_bytes());
    assert_eq!(
        (p[0].name.as_str(), p[0].filename.as_deref()),
        ("f", Some("x"))
    );
    // The first line's leading OWS is not a fold (MP-H-01).
    assert_eq!(ok(&one(&format!(" {CD}"), "v")).len(), 1);
    // Continuations do not count as lines (MP-H-05).
    o.max_headers = 2;
    assert_eq!(ok_with(&o, one(&h, "v").as_bytes()).len(), 1);
}

#[test]
fn mp_h_04_empty_continuation_adds_nothing() {
    let mut o = strict();
    o.allow_obs_fold = true;
    let p = ok_with(
        &o,
        one(&format!("{CD}X-A: a\r\n \r\n\t \r\n"), "v").as_bytes(),
    );
    assert_eq!(p[0].headers[1].1, b"a");
    let p = ok_with(
        &o,
        one(&format!("{CD}X-A: a\r\n \r\n b \r\n"), "v").as_bytes(),
    );
    assert_eq!(p[0].headers[1].1, b"a b");
    let p = ok_with(&o, one(&format!("{CD}X-A:\r\n  \r\n"), "v").as_bytes());
    assert_eq!(p[0].headers[1].1, b"");
    o.allow_lf = true;
    let p = ok_with(&o, one(&format!("{CD}X-A: a\n \n"), "v").as_bytes());
    assert_eq!(p[0].headers[1].1, b"a");
}

#[test]
fn mp_h_05_limits() {
    let mut o = strict();
    o.max_headers = 2;
    let h = format!("{CD}X-A: 1\r\nX-B: 2\r\n");
    let s = one(&h, "v");
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitHeaders, at(&s, "X-B", 0))
    );
    o.max_headers = 3;
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 1);
    // Header bytes: every header line with its CRLF, not the empty line.
    let block = h.len() as u64;
    o.max_header_bytes = block;
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 1);
    o.max_header_bytes = block - 1;
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitHeaderBytes, 5 + block - 1)
    );
    o.max_header_bytes = 10;
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitHeaderBytes, 15));
    o.max_header_bytes = 0;
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitHeaderBytes, 5));
    // A part without headers at all passes the limits, then fails MP-H-06.
    assert_eq!(
        err_with(&o, b"--b\r\n\r\nv\r\n--b--"),
        e(MpNoDisposition, 5)
    );
    // Limit order: bytes first, then count.
    o.max_headers = 1;
    o.max_header_bytes = CD.len() as u64;
    let s = one(&format!("{CD}X: y\r\n"), "v");
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitHeaderBytes, 5 + CD.len() as u64)
    );
    o.max_header_bytes = 8192;
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitHeaders, 5 + CD.len() as u64)
    );
    // The CR of a line-start CRLF at the limit is the empty line: fine.
    o.max_headers = 8;
    o.max_header_bytes = CD.len() as u64;
    assert_eq!(ok_with(&o, one(CD, "v").as_bytes()).len(), 1);
}

#[test]
fn mp_h_06_disposition_presence() {
    assert_eq!(err("--b\r\n\r\nv\r\n--b--"), e(MpNoDisposition, 5));
    let s = one("Content-Type: text/plain\r\n", "v");
    assert_eq!(err(&s), e(MpNoDisposition, at(&s, "\r\n\r\n", 0) + 2));
    let s = one(&format!("X: y\r\n{CD}{CD}"), "v");
    assert_eq!(err(&s), e(MpDisposition, at(&s, "Content-Disposition", 1)));
    let s = one("X: y\r\nContent-Disposition: form-data; name=\"a\r\n", "v");
    assert_eq!(err(&s), e(MpDisposition, at(&s, "Content-Disposition", 0)));
    // A second one is reported even when the first is invalid.
    let s = one(
        "Content-Disposition: attachment\r\nContent-Disposition: x\r\n",
        "v",
    );
    assert_eq!(err(&s), e(MpDisposition, at(&s, "Content-Disposition", 1)));
}

#[test]
fn mp_h_07_to_10_parameters() {
    let cd = |v: &str| format!("Content-Disposition: {v}\r\n");
    let p = ok(&one(&cd("form-data; name=\"a\\\"; filename=\"b\\\""), "v"));
    assert_eq!(
        (p[0].name.as_str(), p[0].filename.as_deref()),
        ("a\\", Some("b\\"))
    );
    let p = ok(&one(&cd("form-data; name=\"%22a%0A\"; filename=\"\""), "v"));
    assert_eq!(
        (p[0].name.as_str(), p[0].filename.as_deref()),
        ("%22a%0A", Some(""))
    );
    let raw = b"--b\r\nContent-Disposition: form-data; name=\"\xff\"\r\n\r\nv\r\n--b--".to_vec();
    assert_eq!(ok_with(&strict(), &raw)[0].name, "\u{fffd}");
    // name* / filename* are raw and never override (CVE-2026-53537).
    let p = ok(&one(
        &cd(
            "form-data; name=\"comment\"; name*=utf-8''role; filename=\"safe.txt\"; filename*=UTF-8''evil.php",
        ),
        "v",
    ));
    assert_eq!(p[0].name, "comment");
    assert_eq!(p[0].filename.as_deref(), Some("safe.txt"));
    assert_eq!(p[0].name_star.as_deref(), Some(&b"utf-8''role"[..]));
    assert_eq!(p[0].filename_star.as_deref(), Some(&b"UTF-8''evil.php"[..]));
    for bad in [
        "form-data; name=a; name=b",
        "form-data; name=a; filename=x; FILENAME=y",
        "form-data; name*=x",
        "form-data; name=\"a\".html",
        "attachment; name=a",
        "form-data; name=a b",
    ] {
        let s = one(&cd(bad), "v");
        assert_eq!(err(&s), e(MpDisposition, 5), "{bad}");
    }
}

#[test]
fn header_names_as_written() {
    let names = |p: &P| -> Vec<String> {
        p.written
            .iter()
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect()
    };
    // The one-pass path: the browsers' spellings and any other name.
    let s = one(
        &format!("{CD}Content-Type: text/plain\r\nX-Trace-ID: 1\r\n"),
        "v",
    );
    let p = &ok(&s)[0];
    assert_eq!(
        names(p),
        ["Content-Disposition", "Content-Type", "X-Trace-ID"]
    );
    let lower: Vec<&str> = p.headers.iter().map(|h| h.0.as_str()).collect();
    assert_eq!(lower, ["content-disposition", "content-type", "x-trace-id"]);
    // The byte-at-a-time path (OWS before the colon, obs-fold, leading OWS),
    // split at every byte by `ok`.
    let mut o = strict();
    o.allow_obs_fold = true;
    let s = one(
        " cOnTeNt-DiSpOsItIoN : form-data; name=a\r\nX-A\t:\r\n b\r\n",
        "v",
    );
    let p = &ok_with(&o, s.as_bytes())[0];
    assert_eq!(names(p), ["cOnTeNt-DiSpOsItIoN", "X-A"]);
    assert_eq!(p.headers[0].0, "content-disposition");
    assert_eq!(p.name, "a");
    // Bytes 80-FF as sent, where the shown name has U+FFFD.
    let mut o = strict();
    o.allow_utf8_header_names = true;
    let mut raw = format!("--b\r\n{CD}X-\u{d8}").into_bytes();
    raw.extend_from_slice(b"\xff: v\r\n\r\nvalue\r\n--b--");
    let p = &ok_with(&o, &raw)[0];
    assert_eq!(p.written[1], b"X-\xc3\x98\xff");
    assert_eq!(p.headers[1].0, "x-\u{d8}\u{fffd}");
}

#[test]
fn mp_h_11_content_type() {
    let h = format!("{CD}Content-Type: text/html\r\ncontent-type:  TEXT/Plain ;charset=x  \r\n");
    let p = ok(&one(&h, "v"));
    assert_eq!(
        p[0].content_type.as_deref(),
        Some(&b"TEXT/Plain ;charset=x"[..])
    );
    assert_eq!(p[0].mime, "text/plain;charset=x");
    // Content-Transfer-Encoding is ignored.
    let p = ok(&one(
        &format!("{CD}Content-Transfer-Encoding: base64\r\n"),
        "aGk=",
    ));
    assert_eq!(p[0].body, b"aGk=");
}

#[test]
fn mp_f_03_file_type() {
    let f = "Content-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n";
    let ty = |ct: &str| ok(&one(&format!("{f}{ct}"), "v"))[0].mime.clone();
    assert_eq!(ty(""), "text/plain");
    assert_eq!(ty("Content-Type: TEXT/HTML\r\n"), "text/html");
    assert_eq!(ty("Content-Type: text/html;;x=\"y\"\r\n"), "text/html;x=y");
    assert_eq!(ty("Content-Type: text/html, text/plain\r\n"), "text/plain");
    assert_eq!(ty("Content-Type: text\r\n"), "");
    assert_eq!(ty("Content-Type: text/\u{e9}\r\n"), "");
    assert_eq!(ty("Content-Type: \r\n"), "");
    assert_eq!(ty("Content-Type: text/\x01\r\n"), "");
}

// ---------------------------------------------------------------------------
// MP-L: body limits and counts

#[test]
fn mp_l_01_parts() {
    let part = format!("--b\r\n{CD}\r\nv\r\n");
    let s = format!("{part}{part}{part}--b--");
    let mut o = strict();
    o.max_parts = 3;
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 3);
    o.max_parts = 2;
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitParts, 2 * part.len() as u64 + 5)
    );
    o.max_parts = 0;
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitParts, 5));
    assert_eq!(ok_with(&o, b"--b--"), []);
}

#[test]
fn mp_l_05_file_and_field_counts() {
    let field = format!("--b\r\n{CD}\r\nv\r\n");
    let file = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\"\r\n\r\nx\r\n";
    let star = "--b\r\nContent-Disposition: form-data; name=\"s\"; filename*=utf-8''x\r\n\r\ny\r\n";
    let s = format!("{field}{file}{star}{file}--b--");
    let mut o = strict();
    o.max_files = 2;
    o.max_fields = 2; // the filename* part is a field (MP-L-02's rule)
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 4);
    o.max_files = 1;
    let second_file = (field.len() + file.len() + star.len() + 5) as u64;
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitFiles, second_file));
    o.max_files = 2;
    o.max_fields = 1;
    let star_at = (field.len() + file.len() + 5) as u64;
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitFields, star_at));
    // max_parts fires first (at its delimiter line), at the same offset
    o.max_parts = 2;
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitParts, star_at));
    // the counts start over after reset()
    let mut o = strict();
    o.max_files = 1;
    let one = format!("{file}--b--");
    let mut p = Parser::new(b"b", o).unwrap();
    for _ in 0..2 {
        let mut f = p.feed(one.as_bytes());
        while let Some(ev) = f.next() {
            ev.unwrap();
        }
        p.reset();
    }
}

#[test]
fn mp_l_02_body_bytes() {
    let file = "Content-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n";
    let mut o = strict();
    o.max_field_bytes = 5;
    o.max_file_bytes = 3;
    // Exactly the limit passes whatever the chunking (the CRLF of the next
    // delimiter is not body).
    assert_eq!(ok_with(&o, one(CD, "12345").as_bytes())[0].body, b"12345");
    assert_eq!(
        ok_with(&o, one(CD, "123\r\n").as_bytes())[0].body,
        b"123\r\n"
    );
    let s = one(CD, "123456");
    let start = at(&s, "123456", 0);
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitFieldBytes, start + 5));
    let s = one(CD, "1234\r\n--bX");
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitFieldBytes, at(&s, "1234", 0) + 5)
    );
    assert_eq!(ok_with(&o, one(file, "123").as_bytes())[0].body, b"123");
    let s = one(file, "1234");
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitFileBytes, at(&s, "1234", 0) + 3)
    );
    o.max_file_bytes = 0;
    assert_eq!(ok_with(&o, one(file, "").as_bytes())[0].body, b"");
}

#[test]
fn mp_l_04_total_field_bytes() {
    let file = "Content-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n";
    let form = |bodies: &[(&str, &str)]| {
        let mut s = String::new();
        for (h, b) in bodies {
            s += &format!("--b\r\n{h}\r\n{b}\r\n");
        }
        s + "--b--\r\n"
    };
    let mut o = strict();
    o.max_field_bytes = 4;
    o.max_total_field_bytes = 6;
    // Files do not count; fields summing to exactly the limit pass.
    let s = form(&[(CD, "123"), (file, "fffffffff"), (CD, "4\r\n"), (CD, "")]);
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 4);
    // The byte that makes the sum 7.
    let s = form(&[(CD, "1234"), (file, "ff"), (CD, "567")]);
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitTotalFieldBytes, at(&s, "567", 0) + 2)
    );
    // A CR that is not a delimiter is a body byte (MP-L-02).
    let s = form(&[(CD, "12"), (CD, "3456\r\n--bX")]);
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitFieldBytes, at(&s, "3456", 0) + 4)
    );
    let s = form(&[(CD, "123"), (CD, "456\r\n--bX")]);
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitTotalFieldBytes, at(&s, "456", 0) + 3)
    );
    // Both at the same byte: MP_LIMIT_FIELD_BYTES wins.
    o.max_total_field_bytes = 8;
    let s = form(&[(CD, "1234"), (CD, "56789")]);
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitFieldBytes, at(&s, "56789", 0) + 4)
    );
    // One byte earlier the total one fires.
    o.max_total_field_bytes = 7;
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitTotalFieldBytes, at(&s, "56789", 0) + 3)
    );
    // MP_LIMIT_TOTAL_BYTES at that byte wins over both (MP-L-03).
    o.max_total_bytes = at(&s, "56789", 0) + 3;
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitTotalBytes, at(&s, "56789", 0) + 3)
    );
    // Off, and zero.
    let mut o = strict();
    o.max_total_field_bytes = UNLIMITED;
    assert_eq!(
        ok_with(&o, form(&[(CD, "x"), (CD, "y")]).as_bytes()).len(),
        2
    );
    o.max_total_field_bytes = 0;
    assert_eq!(
        ok_with(&o, form(&[(CD, ""), (file, "z")]).as_bytes()).len(),
        2
    );
    let s = form(&[(CD, ""), (CD, "y")]);
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpLimitTotalFieldBytes, at(&s, "y\r\n--b--", 0))
    );
    // reset() starts a new count.
    let mut o = strict();
    o.max_total_field_bytes = 3;
    let s = form(&[(CD, "12"), (CD, "3")]);
    let mut p = Parser::new(b"b", o).unwrap();
    for _ in 0..2 {
        let mut feed = p.feed(s.as_bytes());
        while let Some(ev) = feed.next() {
            ev.unwrap();
        }
        let mut fin = p.finish();
        while let Some(ev) = fin.next() {
            ev.unwrap();
        }
        p.reset();
    }
}

#[test]
fn mp_l_03_total_bytes() {
    let s = one(CD, "value");
    let n = s.len() as u64;
    let mut o = strict();
    o.max_total_bytes = n;
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 1);
    o.max_total_bytes = n - 1;
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitTotalBytes, n - 1));
    o.max_total_bytes = 0;
    assert_eq!(err_with(&o, s.as_bytes()), e(MpLimitTotalBytes, 0));
    assert_eq!(err_with(&o, b""), e(MpTruncated, 0));
    // The epilogue counts.
    o.max_total_bytes = 7;
    assert_eq!(ok_with(&o, b"--b--\r\n"), []);
    assert_eq!(err_with(&o, b"--b--\r\nepilogue"), e(MpLimitTotalBytes, 7));
    // An earlier error wins.
    o.max_total_bytes = 4;
    assert_eq!(err_with(&o, b"--x------"), e(MpPreamble, 2));
    assert_eq!(err_with(&o, b"--b-x---"), e(MpLimitTotalBytes, 4));
}

#[test]
fn poisoned_after_error() {
    let mut p = Parser::new(b"b", strict()).unwrap();
    let mut feed = p.feed(b"xx");
    assert_eq!(feed.next().unwrap().unwrap_err(), e(MpPreamble, 0));
    assert!(feed.next().is_none());
    let mut feed = p.feed(b"--b--");
    assert_eq!(feed.next().unwrap().unwrap_err(), e(MpPreamble, 0));
    let mut feed = p.finish();
    assert_eq!(feed.next().unwrap().unwrap_err(), e(MpPreamble, 0));
    assert_eq!(p.error(), Some(e(MpPreamble, 0)));
}

#[test]
fn reset_reuses_the_parser() {
    let mut p = Parser::new(b"b", strict()).unwrap();
    let mut feed = p.feed(b"junk");
    assert!(feed.next().unwrap().is_err());
    for body in [one(CD, "first"), one(CD, "second")] {
        p.reset();
        let mut got = Vec::new();
        let mut feed = p.feed(body.as_bytes());
        while let Some(ev) = feed.next() {
            if let Some(d) = ev.unwrap().data() {
                got.extend_from_slice(d);
            }
        }
        let mut feed = p.finish();
        while let Some(ev) = feed.next() {
            ev.unwrap();
        }
        assert!(p.is_done());
        assert_eq!(p.offset(), body.len() as u64);
        assert_eq!(
            got,
            body.as_bytes()[at(&body, "\r\n\r\n", 0) as usize + 4..body.len() - 9]
        );
    }
}

#[test]
fn backpressure_by_dropping_a_feed() {
    let s = one(CD, "hello");
    let mut p = Parser::new(b"b", strict()).unwrap();
    let mut rest = s.as_bytes().to_vec();
    let mut body = Vec::new();
    let mut events = 0;
    // Take one event per feed, then feed the remainder again.
    while !rest.is_empty() {
        let mut feed = p.feed(&rest);
        match feed.next() {
            Some(ev) => {
                events += 1;
                if let Some(d) = ev.unwrap().data() {
                    body.extend_from_slice(d);
                }
            }
            None => break,
        }
        rest = feed.remaining().to_vec();
    }
    let mut feed = p.finish();
    while let Some(ev) = feed.next() {
        ev.unwrap();
    }
    assert!(p.is_done());
    assert_eq!(body, b"hello");
    assert_eq!(events, 4);
}

#[test]
fn data_events_are_views_of_the_chunk() {
    let s = one(CD, "some body bytes");
    let mut p = Parser::new(b"b", strict()).unwrap();
    let mut feed = p.feed(s.as_bytes());
    let mut ranges = Vec::new();
    while let Some(ev) = feed.next() {
        if let Event::Data(d) = ev.unwrap() {
            ranges.push(feed.chunk_range(d).unwrap());
        }
    }
    let want = at(&s, "some", 0) as usize..at(&s, "\r\n--b--", 0) as usize;
    assert_eq!(ranges, vec![want]);
    assert_eq!(feed.chunk_range(b"elsewhere"), None);
}

#[test]
fn part_view_during_body() {
    let s = one(
        "Content-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n",
        "BODY",
    );
    let mut p = Parser::new(b"b", strict()).unwrap();
    let mut feed = p.feed(s.as_bytes());
    let mut saw = false;
    while let Some(ev) = feed.next() {
        if let Event::Data(_) = ev.unwrap() {
            let part = feed.parser().part().unwrap();
            assert!(part.is_file());
            assert_eq!(part.filename().as_deref(), Some("x.bin"));
            assert_eq!(part.body_offset(), at(&s, "BODY", 0));
            saw = true;
        }
    }
    assert!(saw);
    assert!(p.part().is_none());
}

// ---------------------------------------------------------------------------
// Linear time on hostile inputs (lesson 2): byte-by-byte feeding of dense
// near-delimiters must finish fast.

#[test]
fn dense_near_delimiters_are_linear() {
    let boundary = [b'-'; 70];
    let mut body = b"--".to_vec();
    body.extend_from_slice(&boundary);
    body.extend_from_slice(b"\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n");
    let mut near = b"\r\n--".to_vec();
    near.extend_from_slice(&boundary[..69]);
    while body.len() < 400_000 {
        body.extend_from_slice(&near);
        body.extend_from_slice(b"\r\r\n-");
    }
    body.extend_from_slice(b"\r\n--");
    body.extend_from_slice(&boundary);
    body.extend_from_slice(b"--");
    let mut o = strict();
    o.max_field_bytes = UNLIMITED;
    let t = std::time::Instant::now();
    let whole = run(&boundary, &o, &body, &[]).unwrap();
    let cuts: Vec<usize> = (1..body.len()).collect();
    let bytes = run(&boundary, &o, &body, &cuts).unwrap();
    assert_eq!(whole, bytes);
    assert!(t.elapsed().as_secs() < 20, "too slow: {:?}", t.elapsed());
}

/// The same with `allow_cr` and `allow_near_delimiters` (MP-P-08): dense
/// `CR--B` prefixes, `CR--BX` and lookalikes `CRLF--B-x`, `CR--B-x`, each
/// held back and then released, byte by byte.
#[test]
fn dense_lenient_near_delimiters_are_linear() {
    let boundary = [b'-'; 70];
    let mut dash_b = b"--".to_vec();
    dash_b.extend_from_slice(&boundary);
    let mut body = dash_b.clone();
    body.extend_from_slice(b"\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n");
    let mut expect = Vec::new();
    while expect.len() < 400_000 {
        for (lead, tail) in [
            (&b"\r"[..], &b"X"[..]),
            (b"\r\n", b"-x"),
            (b"\r", b"-y"),
            (b"\r", &b"\r"[..0]),
        ] {
            expect.extend_from_slice(lead);
            let k = if tail.is_empty() { 40 } else { dash_b.len() };
            expect.extend_from_slice(&dash_b[..k]);
            expect.extend_from_slice(tail);
        }
        expect.push(b'z');
    }
    body.extend_from_slice(&expect);
    body.extend_from_slice(b"\r--");
    body.extend_from_slice(&boundary);
    body.extend_from_slice(b"--");
    let mut o = strict();
    o.allow_cr = true;
    o.allow_near_delimiters = true;
    o.max_field_bytes = UNLIMITED;
    let t = std::time::Instant::now();
    let whole = run(&boundary, &o, &body, &[]).unwrap();
    assert_eq!(whole[0].body, expect);
    let cuts: Vec<usize> = (1..body.len()).collect();
    let bytes = run(&boundary, &o, &body, &cuts).unwrap();
    assert_eq!(whole, bytes);
    assert!(t.elapsed().as_secs() < 20, "too slow: {:?}", t.elapsed());
}

// ---------------------------------------------------------------------------
// A naive whole-buffer reference, compared under random chunking.

pub(crate) use crate::test_rng::Rng;

/// The simplest correct splitter for a valid strict body: find each
/// `CRLF--B` + follower by brute force; with `cr` (`allow_cr`) a body also
/// ends at `CR--B` + follower (MP-P-06).
fn naive(boundary: &[u8], input: &[u8], cr: bool) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut delim = b"\r\n--".to_vec();
    delim.extend_from_slice(boundary);
    let follows = |i: usize| matches!(input.get(i), Some(b'-' | b' ' | b'\t' | b'\r' | b'\n'));
    let cr_delim = [&b"\r"[..], &delim[2..]].concat();
    let delim_at = |i: usize| {
        if input[i..].starts_with(&delim) && follows(i + delim.len()) {
            Some(delim.len())
        } else if cr && input[i..].starts_with(&cr_delim) && follows(i + cr_delim.len()) {
            Some(cr_delim.len())
        } else {
            None
        }
    };
    assert!(input.starts_with(&delim[2..]));
    let mut pos = delim.len() - 2;
    let mut parts = Vec::new();
    loop {
        if input[pos..].starts_with(b"--") {
            return parts;
        }
        assert!(input[pos..].starts_with(b"\r\n"));
        pos += 2;
        let hend = (pos..)
            .find(|&i| input[i..].starts_with(b"\r\n\r\n"))
            .unwrap();
        let (headers, body_start) = (input[pos..hend + 2].to_vec(), hend + 4);
        let (d, len) = (body_start..input.len())
            .find_map(|i| delim_at(i).map(|len| (i, len)))
            .unwrap();
        parts.push((headers, input[body_start..d].to_vec()));
        pos = d + len;
    }
}

fn random_bytes(rng: &mut Rng, boundary: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    while out.len() < len {
        match rng.below(8) {
            0 => out.extend_from_slice(b"\r\n"),
            1 => out.push(b'\r'),
            2 => out.push(b'\n'),
            3 => out.push(b'-'),
            4 => {
                let lead: &[u8] = if rng.below(3) == 0 {
                    b"\r--"
                } else {
                    b"\r\n--"
                };
                out.extend_from_slice(lead);
                let k = rng.below(boundary.len() + 1);
                out.extend_from_slice(&boundary[..k]);
                if k == boundary.len() {
                    out.push(b'X');
                }
            }
            5 => {
                let k = rng.below(boundary.len() + 1);
                out.extend_from_slice(&boundary[..k]);
            }
            _ => out.push(rng.next() as u8),
        }
    }
    out
}

/// Cuts `body` so that the delimiter appended after it is the first one
/// (with `cr`, no `CR--B` + follower either).
fn sanitize(boundary: &[u8], mut body: Vec<u8>, cr: bool) -> Vec<u8> {
    let mut delim = b"\r\n--".to_vec();
    delim.extend_from_slice(boundary);
    let cr_delim = [&b"\r"[..], &delim[2..]].concat();
    let follower = |b: u8| matches!(b, b'-' | b' ' | b'\t' | b'\r' | b'\n');
    loop {
        let mut t = body.clone();
        t.extend_from_slice(&delim);
        t.extend_from_slice(b"\r\n");
        let first = (0..t.len())
            .find(|&i| {
                (t[i..].starts_with(&delim) && follower(t[i + delim.len()]))
                    || (cr && t[i..].starts_with(&cr_delim) && follower(t[i + cr_delim.len()]))
            })
            .unwrap();
        if first == body.len() {
            return body;
        }
        body.truncate(first);
    }
}

#[test]
fn streaming_matches_naive_under_random_chunking() {
    let mut rng = Rng(0x5EED);
    for case in 0..300 {
        let blen = 1 + rng.below(if case % 5 == 0 { 70 } else { 8 });
        let boundary: Vec<u8> = (0..blen).map(|_| b"-ab'()_ .x"[rng.below(10)]).collect();
        let boundary = if boundary.iter().all(|&b| b == b' ') {
            b"z".to_vec()
        } else {
            boundary
        };
        // Odd cases: with allow_cr, bodies end at `CR--B` too.
        let cr = case % 2 == 1;
        let mut input = b"--".to_vec();
        input.extend_from_slice(&boundary);
        let nparts = rng.below(5);
        for i in 0..nparts {
            input.extend_from_slice(b"\r\nContent-Disposition: form-data; name=\"n");
            input.extend_from_slice(i.to_string().as_bytes());
            input.extend_from_slice(b"\"");
            if rng.below(2) == 0 {
                input
                    .extend_from_slice(b"; filename=\"f.bin\"\r\nContent-Type: application/x-test");
            }
            input.extend_from_slice(b"\r\n\r\n");
            let len = rng.below(300);
            let body = sanitize(&boundary, random_bytes(&mut rng, &boundary, len), cr);
            input.extend_from_slice(&body);
            input.extend_from_slice(b"\r\n--");
            input.extend_from_slice(&boundary);
        }
        input.extend_from_slice(b"--\r\n");
        let expect = naive(&boundary, &input, cr);
        let mut o = strict();
        o.max_boundary_bytes = 200;
        o.allow_cr = cr;
        // Options that only change rejections read a valid body the same
        // (MP-R-02); allow_near_delimiters keeps one more byte held.
        let mut more = o.clone();
        more.allow_near_delimiters = true;
        more.allow_8bit_parameter_names = true;
        more.allow_rfc2231_continuations = true;
        for round in 0..20 {
            let mut cuts: Vec<usize> = match round {
                0 => vec![],
                1 => (1..input.len()).collect(),
                _ => (0..1 + rng.below(12))
                    .map(|_| 1 + rng.below(input.len() - 1))
                    .collect(),
            };
            cuts.sort_unstable();
            cuts.dedup();
            let got = run(&boundary, &o, &input, &cuts).unwrap_or_else(|e| {
                panic!("case {case}: {e} {:?}", String::from_utf8_lossy(&input))
            });
            assert_eq!(got.len(), expect.len(), "case {case}");
            assert_eq!(
                run(&boundary, &more, &input, &cuts).as_ref(),
                Ok(&got),
                "case {case}"
            );
            for (g, (h, b)) in got.iter().zip(&expect) {
                assert_eq!(&g.body, b, "case {case} cuts {cuts:?}");
                assert!(h.starts_with(b"Content-Disposition"));
                assert_eq!(
                    g.headers.len(),
                    h.windows(2).filter(|w| w == b"\r\n").count()
                );
            }
        }
    }
}

/// Chunking invariance on broken inputs: mutated forms under random options
/// give the same parts, or the same error code and offset, for every
/// chunking tried (MP-P-08 on error paths too).
#[test]
fn mutated_inputs_are_chunking_invariant() {
    let mut rng = Rng(0xF0F0);
    let seeds: Vec<Vec<u8>> = vec![
        one(CD, "hello\r\n--bX").into_bytes(),
        one("Content-Disposition: form-data; name=\"f\"; filename=\"a\"\r\nContent-Type: text/plain\r\nX: y\r\n", "\r\r\n\n--b").into_bytes(),
        format!("pre\r\n--b \t\r\n{CD}\r\nv\r\n--b\r\n {CD}X:\r\n folded\r\n\r\n\r\n--b-- \r\nepi").into_bytes(),
        b"--b\nContent-Disposition: form-data; name=a\n\nv\n--b--\n".to_vec(),
        // For the options of issues #16, #17: no or an empty disposition, any
        // type, a UTF-8 header name, junk after the close delimiter.
        "--b\r\nContent-Type: x\r\n\r\nv\r\n--b\r\nContent-Disposition:\r\n\r\n\r\n--b\r\nContent-Disposition: form-field; name=a\r\nF\u{f8}: 1\r\n\r\nw\r\n--b--junk"
            .as_bytes()
            .to_vec(),
        // For allow_cr, allow_near_delimiters, allow_8bit_parameter_names and
        // allow_rfc2231_continuations: CR-ended lines, delimiter lookalikes,
        // a parameter name with a byte A0, filename continuations.
        b"--b\rContent-Disposition: form-data; name=a;\xa0x=1; filename*0*=''a%20; filename*1=b\r\r1\r\n--b-x\r\n--b\rz\r--b\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r--b--"
            .to_vec(),
    ];
    let tokens: &[&[u8]] = &[
        b"\r", b"\n", b"\r\n", b"-", b"--b", b"\r\n--b", b" ", b"\t", b":", b"\0", b"\"", b";",
        b"x", b"\xc3", b"\xf8", b"\r--b", b"*0", b"%2",
    ];
    let mut outcomes = [0usize; 1];
    let mut codes = std::collections::BTreeMap::new();
    for round in 0..1500 {
        let mut input = seeds[rng.below(seeds.len())].clone();
        for _ in 0..rng.below(3) {
            let at = rng.below(input.len() + 1);
            match rng.below(3) {
                0 => {
                    let t = tokens[rng.below(tokens.len())];
                    input.splice(at..at, t.iter().copied());
                }
                1 if at < input.len() => {
                    input.remove(at);
                }
                _ if at < input.len() => input[at] = tokens[rng.below(tokens.len())][0],
                _ => {}
            }
        }
        let mut o = strict();
        o.allow_preamble = rng.below(2) == 0;
        o.allow_lf = rng.below(2) == 0;
        o.allow_obs_fold = rng.below(2) == 0;
        o.allow_quoted_pairs = rng.below(2) == 0;
        o.allow_missing_disposition = rng.below(2) == 0;
        o.allow_any_disposition_type = rng.below(2) == 0;
        o.allow_junk_after_close = rng.below(2) == 0;
        o.allow_utf8_header_names = rng.below(2) == 0;
        o.allow_cr = rng.below(2) == 0;
        o.allow_near_delimiters = rng.below(2) == 0;
        o.allow_8bit_parameter_names = rng.below(2) == 0;
        o.allow_rfc2231_continuations = rng.below(2) == 0;
        if rng.below(3) == 0 {
            o.max_header_bytes = rng.below(120) as u64;
            o.max_headers = rng.below(4) as u64;
            o.max_field_bytes = rng.below(12) as u64;
            o.max_file_bytes = rng.below(12) as u64;
            o.max_parts = rng.below(3) as u64;
            o.max_fields = rng.below(3) as u64;
            o.max_files = rng.below(2) as u64;
            o.max_total_field_bytes = rng.below(16) as u64;
            o.max_total_bytes = rng.below(input.len() + 2) as u64;
        }
        let whole = run(b"b", &o, &input, &[]);
        match &whole {
            Ok(_) => outcomes[0] += 1,
            Err(e) => *codes.entry(e.code.as_str()).or_insert(0) += 1,
        }
        let n = input.len();
        let bytes: Vec<usize> = (1..n).collect();
        assert_eq!(
            run(b"b", &o, &input, &bytes),
            whole,
            "round {round} bytes {:?} {o:?}",
            String::from_utf8_lossy(&input)
        );
        for _ in 0..8 {
            let count = if n > 1 { 1 + rng.below(4) } else { 0 };
            let mut cuts: Vec<usize> = (0..count).map(|_| 1 + rng.below(n - 1)).collect();
            cuts.sort_unstable();
            cuts.dedup();
            assert_eq!(
                run(b"b", &o, &input, &cuts),
                whole,
                "round {round} cuts {cuts:?} {:?} {o:?}",
                String::from_utf8_lossy(&input)
            );
        }
    }
    // The mutations reach both outcomes and many error codes.
    assert!(outcomes[0] > 100, "{outcomes:?} {codes:?}");
    assert!(codes.len() >= 10, "{outcomes:?} {codes:?}");
}

/// The one-pass header block path (whole block in one chunk) against the
/// byte-at-a-time path (byte-by-byte feeding), at every header-bytes limit
/// and header count around a browser block, with and without trailing OWS,
/// an obs-fold, unusual names and bare LFs.
#[test]
fn header_fast_path_agrees_at_every_limit() {
    let blocks = [
        "Content-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n",
        "Content-Disposition: form-data; name=\"f\" \t\r\nContent-Type:text/plain  \r\n",
        "content-disposition:form-data; name=f\r\nX-Y: z\r\n fold\r\n",
        "Content-Type: a/b\r\nContent-Disposition: form-data; name=\"f\"\r\nContent-Type: c/d\r\n",
        "Content-Disposition : form-data; name=\"f\"\r\n",
        "Content-Disposition: form-data; name=\"f\"\nContent-Type: x/y\r\n",
    ];
    let (mut oks, mut limited) = (0, 0);
    for block in blocks {
        let input = one(block, "body");
        let size = block.len() as u64;
        for limit in (0..=size + 2).chain([8192]) {
            for max_headers in [0, 1, 2, 3, 8] {
                for (fold, lf) in [(false, false), (true, true)] {
                    let o = Options {
                        max_header_bytes: limit,
                        max_headers,
                        allow_obs_fold: fold,
                        allow_lf: lf,
                        ..strict()
                    };
                    let whole = run(b"b", &o, input.as_bytes(), &[]);
                    match &whole {
                        Ok(_) => oks += 1,
                        Err(e) if matches!(e.code, MpLimitHeaderBytes | MpLimitHeaders) => {
                            limited += 1
                        }
                        Err(_) => {}
                    }
                    let cuts: Vec<usize> = (1..input.len()).collect();
                    assert_eq!(
                        run(b"b", &o, input.as_bytes(), &cuts),
                        whole,
                        "{block:?} {limit} {max_headers} {fold}"
                    );
                }
            }
        }
    }
    assert!(oks > 20 && limited > 100, "{oks} {limited}");
}

mod encoder;
mod lenient;
