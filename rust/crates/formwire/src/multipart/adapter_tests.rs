//! The I/O adapters ([`read`], `stream`) against the sans-IO parser: same
//! parts under every chunking, errors with their codes and offsets, skipped
//! parts, slow consumers and bounded read-ahead.

use std::io::{self, BufRead, Read};

use super::tests::{P, run};
use super::*;
use crate::error::ErrorCode;

const B: &str = "XyZ-boundary";

/// Deterministic bytes full of delimiter look-alikes (`\r\n--XyZ-bo...`)
/// so that chunk edges land inside near-delimiters.
fn tricky(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = crate::test_rng::Rng(seed);
    let mut next = move || rng.next();
    let near = format!("\r\n--{B}");
    let mut out = Vec::with_capacity(n + near.len());
    while out.len() < n {
        let r = next();
        match r % 5 {
            0 => out.extend_from_slice(&near.as_bytes()[..(r >> 8) as usize % near.len()]),
            1 => out.extend_from_slice(b"\r\n"),
            _ => out.extend_from_slice(&r.to_le_bytes()[..1 + (r >> 16) as usize % 7]),
        }
    }
    out.truncate(n);
    out
}

/// A form with fields, files, an empty part and near-delimiters in bodies.
fn sample() -> (Vec<u8>, Vec<P>) {
    let file1 = tricky(1, 200_000);
    let file2 = tricky(2, 3_000);
    let mut enc = Encoder::with_boundary(B).unwrap();
    enc.text("title", "hello \u{e9}t\u{e9}");
    enc.file("upload", "big.bin", "application/octet-stream", &file1[..])
        .unwrap();
    enc.text("empty", "");
    enc.file("small", "s.txt", "text/plain", &file2[..])
        .unwrap();
    enc.text("last", "bye");
    let body = enc.encode_to_vec().unwrap();
    let want = run(B.as_bytes(), &Options::default(), &body, &[]).unwrap();
    assert_eq!(want.len(), 5);
    (body, want)
}

fn owned(part: Part<'_>, body: Vec<u8>) -> P {
    P {
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
        body,
    }
}

// ---------------------------------------------------------------------------
// FormData

/// An entry, owned: name, then text or (filename, type, bytes).
type Owned = (String, Result<String, (String, String, Vec<u8>)>);

/// The entries a browser's `formData()` gives for the reference parts.
fn entries(parts: &[P]) -> Vec<Owned> {
    parts
        .iter()
        .map(|p| {
            let v = match &p.filename {
                None => Ok(String::from_utf8_lossy(&p.body).into_owned()),
                Some(f) => Err((f.clone(), p.mime.clone(), p.body.clone())),
            };
            (p.name.clone(), v)
        })
        .collect()
}

fn form_entries(form: &FormData) -> Vec<Owned> {
    form.iter()
        .map(|e| {
            let v = match e.value {
                Value::Text(t) => Ok(t.to_owned()),
                Value::File {
                    filename,
                    content_type,
                    bytes,
                } => Err((filename.to_owned(), content_type.to_owned(), bytes.to_vec())),
            };
            (e.name.to_owned(), v)
        })
        .collect()
}

#[test]
fn form_data_matches_the_parts_at_every_cut() {
    let body = format!(
        "--{B}\r\nContent-Disposition: form-data; name=\"caf\u{e9}\"\r\n\r\n\u{e9}\u{20ac}\u{1f600}x\r\n\
         --{B}\r\nContent-Disposition: form-data; name=\"bad\"\r\n\r\nA\u{1}\u{2}\u{20ac}B\u{3}\r\n\
         --{B}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"r\u{e9}.txt\"\r\n\
         Content-Type: Text/Plain; charset=UTF-8\r\n\r\n\u{1}\u{2}\r\n\
         --{B}\r\nContent-Disposition: form-data; name=\"g\"; filename=\"\"\r\n\r\n\r\n\
         --{B}\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n\
         --{B}\r\nContent-Disposition: form-data; name=\"tail\"\r\n\r\n\u{e9}\u{4}\r\n--{B}--\r\n"
    );
    // Invalid UTF-8: a lone continuation byte, a cut sequence, a bad lead.
    let body: Vec<u8> = body
        .into_bytes()
        .into_iter()
        .flat_map(|b| match b {
            1 => vec![0x80],
            2 => vec![0xE2, 0x82],
            3 => vec![0xFF],
            4 => vec![0xC3],
            b => vec![b],
        })
        .collect();
    let o = Options::default();
    let want = entries(&run(B.as_bytes(), &o, &body, &[]).unwrap());
    assert_eq!(
        want[1].1,
        Ok("A\u{fffd}\u{fffd}\u{20ac}B\u{fffd}".to_owned())
    );
    assert_eq!(
        want[2].1,
        Err((
            "r\u{e9}.txt".to_owned(),
            "text/plain;charset=UTF-8".to_owned(),
            vec![0x80, 0xE2, 0x82]
        ))
    );
    let mut parser = Parser::new(B.as_bytes(), o).unwrap();
    let mut form = FormData::parse(&mut parser, &body).unwrap();
    assert_eq!(form_entries(&form), want);
    let cuts: Vec<Vec<usize>> = (1..body.len())
        .map(|i| vec![i])
        .chain([(1..body.len()).collect()])
        .collect();
    for cut in cuts {
        form.clear();
        parser.reset();
        let mut last = 0;
        for &c in cut.iter().chain([body.len()].iter()) {
            let mut feed = parser.feed(&body[last..c]);
            while let Some(ev) = feed.next() {
                form.add(&ev.unwrap());
            }
            last = c;
        }
        let mut feed = parser.finish();
        while let Some(ev) = feed.next() {
            form.add(&ev.unwrap());
        }
        assert_eq!(
            form_entries(&form),
            want,
            "cut at {:?}",
            &cut[..cut.len().min(3)]
        );
    }
    assert_eq!(form.get_text("tail"), Some("\u{e9}\u{fffd}"));
    assert_eq!(form.fields().count(), 4);
    assert_eq!(form.get(9), None);
}

#[test]
fn form_data_from_the_reader_and_to_fields() {
    let (body, want) = sample();
    for sizes in [&[1usize][..], &[7, 64], &[usize::MAX]] {
        let r = read::Reader::new(Trickle::new(&body, sizes), B.as_bytes(), Options::default())
            .unwrap();
        let form = r.form_data().unwrap();
        assert_eq!(form_entries(&form), entries(&want), "{sizes:?}");
        let fields: Vec<(String, String)> = want
            .iter()
            .filter(|p| p.filename.is_none())
            .map(|p| {
                (
                    p.name.clone(),
                    String::from_utf8_lossy(&p.body).into_owned(),
                )
            })
            .collect();
        assert_eq!(form.to_fields(), fields);
    }
    // After one part was read: the rest only.
    let mut r = read::Reader::new(&body[..], B.as_bytes(), Options::default()).unwrap();
    let mut first = r.next_part().unwrap().unwrap();
    first.read_exact(&mut [0; 3]).unwrap();
    let form = r.form_data().unwrap();
    assert_eq!(form_entries(&form), entries(&want[1..]));
    // Errors come through.
    let r = read::Reader::new(&body[..5000], B.as_bytes(), Options::default()).unwrap();
    assert_eq!(
        Error::from_io(&r.form_data().unwrap_err()),
        Some(Error::new(ErrorCode::MpTruncated, 5000))
    );
}

/// A body of `n` text fields of 1 MiB each, made as it is read; `sent`
/// counts the field bytes handed out.
struct ManyFields {
    n: usize,
    i: usize,
    /// Bytes of the current piece still to hand out.
    piece: Vec<u8>,
    at: usize,
    left: usize,
    sent: std::rc::Rc<std::cell::Cell<u64>>,
}

impl Read for ManyFields {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.piece.len() {
            if self.left > 0 {
                let k = self.left.min(out.len());
                out[..k].fill(b'v');
                self.left -= k;
                self.sent.set(self.sent.get() + k as u64);
                return Ok(k);
            }
            self.piece = if self.i < self.n {
                self.left = 1 << 20;
                let sep = if self.i == 0 { "" } else { "\r\n" };
                format!(
                    "{sep}--B\r\nContent-Disposition: form-data; name=\"f{}\"\r\n\r\n",
                    self.i
                )
                .into_bytes()
            } else if self.i == self.n {
                b"\r\n--B--\r\n".to_vec()
            } else {
                return Ok(0);
            };
            self.i += 1;
            self.at = 0;
        }
        let k = (self.piece.len() - self.at).min(out.len());
        out[..k].copy_from_slice(&self.piece[self.at..self.at + k]);
        self.at += k;
        Ok(k)
    }
}

#[test]
fn form_data_of_a_thousand_1_mib_fields_stops_at_max_total_field_bytes() {
    // MP-L-04, issue #13 item 6: the 11th field's first byte is over 10 MiB.
    let sent = std::rc::Rc::new(std::cell::Cell::new(0));
    let body = |n| ManyFields {
        n,
        i: 0,
        piece: Vec::new(),
        at: 0,
        left: 0,
        sent: sent.clone(),
    };
    let head = |i: usize| {
        format!("--B\r\nContent-Disposition: form-data; name=\"f{i}\"\r\n\r\n").len() as u64
    };
    let at = (0..10).map(|i| head(i) + (1 << 20) + 2).sum::<u64>() + head(10);
    let r = read::Reader::new(body(1000), b"B", Options::default()).unwrap();
    let e = r.form_data().unwrap_err();
    assert_eq!(
        Error::from_io(&e),
        Some(Error::new(ErrorCode::MpLimitTotalFieldBytes, at))
    );
    // One 64 KiB read past the limit at most: the rest of the 1,000 MiB is never produced.
    assert!(
        sent.get() <= (10 << 20) + (64 << 10),
        "{} field bytes read",
        sent.get()
    );
    let form = read::Reader::new(body(10), b"B", Options::default())
        .unwrap()
        .form_data()
        .unwrap();
    assert_eq!(form.len(), 10);
    let o = Options {
        max_total_field_bytes: UNLIMITED,
        ..Options::default()
    };
    let form = read::Reader::new(body(11), b"B", o)
        .unwrap()
        .form_data()
        .unwrap();
    assert_eq!(form.len(), 11);
}

#[test]
fn form_data_of_the_sample_and_errors() {
    let (body, want) = sample();
    let mut parser = Parser::new(B.as_bytes(), Options::default()).unwrap();
    let form = FormData::parse(&mut parser, &body).unwrap();
    assert_eq!(form_entries(&form), entries(&want));
    assert_eq!(form.len(), 5);
    parser.reset();
    let err = FormData::parse(&mut parser, &body[..1000]).unwrap_err();
    assert_eq!(err, Error::new(ErrorCode::MpTruncated, 1000));
}

/// A form with parts without a name (`allow_missing_disposition`): none,
/// then an empty Content-Disposition, between named ones.
fn nameless_body() -> Vec<u8> {
    format!(
        "--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n\
         --{B}\r\nContent-Type: text/plain\r\n\r\nskipped\r\n\
         --{B}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n\r\nfile\r\n\
         --{B}\r\nContent-Disposition:\r\n\r\nalso skipped\r\n\
         --{B}\r\nContent-Disposition: form-data; name=\"\"\r\n\r\nkept\r\n--{B}--\r\n"
    )
    .into_bytes()
}

fn missing_disposition() -> Options {
    Options {
        allow_missing_disposition: true,
        ..Options::default()
    }
}

#[test]
fn form_data_skips_parts_without_a_name_at_every_cut() {
    let body = nameless_body();
    let o = missing_disposition();
    // The parser delivers them (MP-H-06) ...
    let parts = run(B.as_bytes(), &o, &body, &[]).unwrap();
    let named: Vec<bool> = parts.iter().map(|p| p.named).collect();
    assert_eq!(named, [true, false, true, false, true]);
    // ... the form skips them (MP-F-05), whatever the chunking.
    let want: Vec<Owned> = vec![
        ("a".into(), Ok("1".into())),
        (
            "f".into(),
            Err(("x".into(), "text/plain".into(), b"file".to_vec())),
        ),
        ("".into(), Ok("kept".into())),
    ];
    let mut parser = Parser::new(B.as_bytes(), o.clone()).unwrap();
    let mut form = FormData::parse(&mut parser, &body).unwrap();
    assert_eq!(form_entries(&form), want);
    for cut in 1..body.len() {
        form.clear();
        parser.reset();
        for chunk in [&body[..cut], &body[cut..]] {
            let mut feed = parser.feed(chunk);
            while let Some(ev) = feed.next() {
                form.add(&ev.unwrap());
            }
        }
        let mut feed = parser.finish();
        while let Some(ev) = feed.next() {
            form.add(&ev.unwrap());
        }
        assert_eq!(form_entries(&form), want, "cut at {cut}");
    }
    assert_eq!(
        form.to_fields(),
        [("a".into(), "1".into()), ("".into(), "kept".into())]
    );
    // Through the reader too; a skipped part still counts for every limit.
    let form = read::Reader::new(&body[..], B.as_bytes(), o.clone())
        .unwrap()
        .form_data()
        .unwrap();
    assert_eq!(form_entries(&form), want);
    let total = Options {
        max_total_field_bytes: 1 + 7 + 12 + 3,
        ..o.clone()
    };
    let err = read::Reader::new(&body[..], B.as_bytes(), total)
        .unwrap()
        .form_data()
        .unwrap_err();
    let at = body.windows(4).position(|w| w == b"kept").unwrap() as u64 + 3;
    assert_eq!(
        crate::Error::from_io(&err),
        Some(Error::new(ErrorCode::MpLimitTotalFieldBytes, at))
    );
    let fields = Options {
        max_fields: 2,
        ..o.clone()
    };
    let mut parser = Parser::new(B.as_bytes(), fields).unwrap();
    assert_eq!(
        FormData::parse(&mut parser, &body).unwrap_err().code,
        ErrorCode::MpLimitFields
    );
    // Strict: the first part without a Content-Disposition is an error.
    let mut parser = Parser::new(B.as_bytes(), Options::default()).unwrap();
    assert_eq!(
        FormData::parse(&mut parser, &body).unwrap_err().code,
        ErrorCode::MpNoDisposition
    );
}

#[test]
fn read_hands_out_parts_without_a_name() {
    let body = nameless_body();
    let mut r = read::Reader::new(&body[..], B.as_bytes(), missing_disposition()).unwrap();
    let mut seen = Vec::new();
    while let Some(mut part) = r.next_part().unwrap() {
        let mut v = String::new();
        part.read_to_string(&mut v).unwrap();
        seen.push((part.has_name(), part.name().into_owned(), v));
    }
    let n = |named, name: &str, v: &str| (named, name.to_owned(), v.to_owned());
    assert_eq!(
        seen,
        [
            n(true, "a", "1"),
            n(false, "", "skipped"),
            n(true, "f", "file"),
            n(false, "", "also skipped"),
            n(true, "", "kept"),
        ]
    );
}

// ---------------------------------------------------------------------------
// read::Reader

/// A source giving at most the next size of `sizes` (cycled) per read,
/// with an `Interrupted` error before every third read.
struct Trickle<'a> {
    data: &'a [u8],
    pos: usize,
    sizes: &'a [usize],
    reads: usize,
    interrupt: bool,
}

impl<'a> Trickle<'a> {
    fn new(data: &'a [u8], sizes: &'a [usize]) -> Trickle<'a> {
        Trickle {
            data,
            pos: 0,
            sizes,
            reads: 0,
            interrupt: false,
        }
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.reads += 1;
        if self.reads % 3 == 0 && !self.interrupt {
            self.interrupt = true;
            return Err(io::ErrorKind::Interrupted.into());
        }
        self.interrupt = false;
        let size = self.sizes[self.reads % self.sizes.len()];
        let n = size.min(out.len()).min(self.data.len() - self.pos);
        out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Reads every part with reads of `out` bytes (cycled).
fn read_all<R: Read>(r: &mut read::Reader<R>, outs: &[usize]) -> io::Result<Vec<P>> {
    let mut parts = Vec::new();
    let mut k = 0;
    while let Some(mut part) = r.next_part()? {
        let mut body = Vec::new();
        let mut buf = vec![0; outs.iter().copied().max().unwrap_or(1)];
        loop {
            let want = outs[k % outs.len()];
            k += 1;
            let n = part.read(&mut buf[..want])?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&buf[..n]);
        }
        parts.push(owned(part.part(), body));
    }
    Ok(parts)
}

#[test]
fn read_matches_the_parser_under_every_chunking() {
    let (body, want) = sample();
    let sizes: [&[usize]; 7] = [
        &[1],
        &[2, 3],
        &[7],
        &[63, 64, 65],
        &[4096],
        &[usize::MAX],
        &[1, 70_000, 5],
    ];
    let outs: [&[usize]; 4] = [&[1], &[3, 1000], &[65_536], &[100_000]];
    for s in sizes {
        for o in outs {
            // Byte-sized reads of a 200 KB body are slow in debug builds:
            // pair them with big ones only.
            if s == [1] && o[0] < 1000 {
                continue;
            }
            let mut r = read::Reader::new(Trickle::new(&body, s), B.as_bytes(), Options::default())
                .unwrap();
            assert_eq!(
                read_all(&mut r, o).unwrap(),
                want,
                "source sizes {s:?}, reads {o:?}"
            );
            assert!(r.parser().is_done());
            assert!(r.next_part().unwrap().is_none(), "stays at the end");
        }
    }
}

#[test]
fn read_bufread_lines_and_read_to_end() {
    let mut enc = Encoder::with_boundary(B).unwrap();
    enc.text("lines", "one\ntwo\nthree");
    enc.text("blob", "x".repeat(150_000).as_str());
    let body = enc.encode_to_vec().unwrap();
    let mut r =
        read::Reader::from_content_type(&body[..], &enc_type(), Options::default()).unwrap();
    let part = r.next_part().unwrap().unwrap();
    assert_eq!(part.name(), "lines");
    let lines: Vec<String> = part.lines().map(Result::unwrap).collect();
    assert_eq!(lines, ["one", "two", "three"]);
    let mut part = r.next_part().unwrap().unwrap();
    let mut all = Vec::new();
    part.read_to_end(&mut all).unwrap();
    assert_eq!(all.len(), 150_000);
    assert!(r.next_part().unwrap().is_none());
}

fn enc_type() -> String {
    format!("multipart/form-data; boundary={B}")
}

#[test]
fn read_skips_unread_and_half_read_parts() {
    let (body, want) = sample();
    for skip_after in [0usize, 1, 5, 70_000] {
        let mut r = read::Reader::new(
            Trickle::new(&body, &[1000, 17]),
            B.as_bytes(),
            Options::default(),
        )
        .unwrap();
        let mut names = Vec::new();
        let mut i = 0;
        while let Some(mut part) = r.next_part().unwrap() {
            names.push(part.name().into_owned());
            if i % 2 == 1 {
                // Read a little (or nothing) and leave the rest.
                let mut buf = vec![0; skip_after];
                let n = part.read(&mut buf).unwrap();
                assert_eq!(&buf[..n], &want[i].body[..n]);
            } else {
                let mut all = Vec::new();
                part.read_to_end(&mut all).unwrap();
                assert_eq!(all, want[i].body);
            }
            i += 1;
        }
        assert_eq!(
            names,
            want.iter().map(|p| p.name.clone()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn read_errors_carry_code_and_offset() {
    let (body, _) = sample();
    let o = Options::default();
    // Cut inside the big file: MP_TRUNCATED at the input length, while reading.
    let cut = &body[..100_000];
    let mut r = read::Reader::new(cut, B.as_bytes(), o.clone()).unwrap();
    r.next_part()
        .unwrap()
        .unwrap()
        .read_to_end(&mut Vec::new())
        .unwrap();
    let mut part = r.next_part().unwrap().unwrap();
    let err = part.read_to_end(&mut Vec::new()).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    let want = Error::new(ErrorCode::MpTruncated, 100_000);
    assert_eq!(Error::from_io(&err), Some(want));
    // Poisoned: the same error again, from next_part too.
    assert_eq!(
        Error::from_io(&part.read(&mut [0; 8]).unwrap_err()),
        Some(want)
    );
    assert_eq!(Error::from_io(&r.next_part().unwrap_err()), Some(want));

    // A field over max_field_bytes: at body start + limit.
    let small = Options {
        max_field_bytes: 4,
        ..o.clone()
    };
    let mut r = read::Reader::new(&body[..], B.as_bytes(), small).unwrap();
    let mut part = r.next_part().unwrap().unwrap();
    let start = part.part().body_offset();
    let err = part.read_to_string(&mut String::new()).unwrap_err();
    assert_eq!(
        Error::from_io(&err),
        Some(Error::new(ErrorCode::MpLimitFieldBytes, start + 4))
    );

    // Bad headers surface from next_part.
    let bad = format!("--{B}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--{B}--");
    let mut r = read::Reader::new(bad.as_bytes(), B.as_bytes(), o.clone()).unwrap();
    let err = r.next_part().unwrap_err();
    let line = bad.find("Content-Disposition").unwrap() as u64;
    assert_eq!(
        Error::from_io(&err),
        Some(Error::new(ErrorCode::MpDisposition, line))
    );

    // An empty source: MP_TRUNCATED at 0.
    let mut r = read::Reader::new(&b""[..], B.as_bytes(), o).unwrap();
    assert_eq!(
        Error::from_io(&r.next_part().unwrap_err()),
        Some(Error::new(ErrorCode::MpTruncated, 0))
    );
}

/// Fails once with `BrokenPipe` at byte `fail_at`, then goes on.
struct Flaky<'a> {
    data: &'a [u8],
    pos: usize,
    fail_at: usize,
    failed: bool,
}

impl Read for Flaky<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.fail_at && !self.failed {
            self.failed = true;
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let end = if self.failed {
            self.data.len()
        } else {
            self.fail_at
        };
        let n = out.len().min(end - self.pos).min(1000);
        out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[test]
fn read_source_errors_pass_through_and_can_be_retried() {
    let (body, want) = sample();
    let mut r = read::Reader::new(
        Flaky {
            data: &body,
            pos: 0,
            fail_at: 50_000,
            failed: false,
        },
        B.as_bytes(),
        Options::default(),
    )
    .unwrap();
    let mut parts = Vec::new();
    let mut errors = 0;
    while let Some(mut part) = r.next_part().unwrap() {
        let mut got = Vec::new();
        loop {
            let mut buf = [0; 4096];
            match part.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) => {
                    assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
                    assert_eq!(Error::from_io(&e), None);
                    errors += 1;
                }
            }
        }
        parts.push(owned(part.part(), got));
    }
    assert_eq!(errors, 1);
    assert_eq!(parts, want);
}

/// Counts the bytes handed out, so a test can bound the read-ahead.
struct Counting<'a> {
    data: &'a [u8],
    pos: std::rc::Rc<std::cell::Cell<usize>>,
}

impl Read for Counting<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let pos = self.pos.get();
        let n = out.len().min(self.data.len() - pos);
        out[..n].copy_from_slice(&self.data[pos..pos + n]);
        self.pos.set(pos + n);
        Ok(n)
    }
}

#[test]
fn read_buffers_at_most_one_buffer_ahead_of_a_slow_consumer() {
    let (body, want) = sample();
    let pulled = std::rc::Rc::new(std::cell::Cell::new(0));
    let src = Counting {
        data: &body,
        pos: pulled.clone(),
    };
    let mut r = read::Reader::new(src, B.as_bytes(), Options::default()).unwrap();
    let mut i = 0;
    let mut max_ahead = 0;
    while let Some(mut part) = r.next_part().unwrap() {
        let start = part.part().body_offset() as usize;
        let mut got = Vec::new();
        let mut buf = [0; 100];
        loop {
            let n = part.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
            // The source is never more than one buffer ahead of the byte just read.
            let ahead = pulled.get() - (start + got.len());
            assert!(ahead <= read::BUF_SIZE, "{ahead} bytes read ahead");
            max_ahead = max_ahead.max(ahead);
        }
        assert_eq!(got, want[i].body);
        i += 1;
    }
    assert!(max_ahead > 1000, "the buffer is used: {max_ahead}");
    // The epilogue is not parsed: the parser stops after the close delimiter line.
    let epilogue = [&body[..], b"epilogue bytes"].concat();
    let mut r = read::Reader::new(&epilogue[..], B.as_bytes(), Options::default()).unwrap();
    while r.next_part().unwrap().is_some() {}
    assert_eq!(r.parser().offset(), body.len() as u64);
}

// ---------------------------------------------------------------------------
// stream::Multipart

#[cfg(feature = "stream")]
mod stream_tests {
    use std::cell::Cell;
    use std::pin::Pin;
    use std::rc::Rc;
    use std::task::{Context, Poll};

    use bytes::Bytes;
    use futures_core::Stream;
    use futures_util::StreamExt;

    use super::*;
    use crate::multipart::stream::{Error as SError, Multipart};

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    /// A socket-like source: `Pending` (waking itself) before every chunk,
    /// counting what it handed out; fails with `fail` at chunk `fail_at`.
    struct Source {
        chunks: Vec<Bytes>,
        next: usize,
        pending: bool,
        pulled: Rc<Cell<usize>>,
        fail_at: Option<usize>,
    }

    impl Source {
        fn new(body: &[u8], sizes: &[usize]) -> Source {
            let mut chunks = Vec::new();
            let mut at = 0;
            let mut k = 0;
            while at < body.len() {
                let n = sizes[k % sizes.len()].min(body.len() - at);
                chunks.push(Bytes::copy_from_slice(&body[at..at + n]));
                at += n;
                k += 1;
            }
            Source {
                chunks,
                next: 0,
                pending: false,
                pulled: Rc::new(Cell::new(0)),
                fail_at: None,
            }
        }
    }

    impl Stream for Source {
        type Item = Result<Bytes, io::Error>;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            if !self.pending {
                self.pending = true;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            self.pending = false;
            if self.fail_at == Some(self.next) {
                self.fail_at = None;
                return Poll::Ready(Some(Err(io::ErrorKind::ConnectionReset.into())));
            }
            let Some(chunk) = self.chunks.get(self.next).cloned() else {
                return Poll::Ready(None);
            };
            self.next += 1;
            self.pulled.set(self.pulled.get() + chunk.len());
            Poll::Ready(Some(Ok(chunk)))
        }
    }

    async fn collect<S>(form: &mut Multipart<S>) -> Result<Vec<P>, SError<io::Error>>
    where
        S: Stream<Item = Result<Bytes, io::Error>>,
    {
        let mut parts = Vec::new();
        while let Some(mut part) = form.next_part().await? {
            let mut body = Vec::new();
            while let Some(chunk) = part.next().await {
                let chunk = chunk?;
                assert!(!chunk.is_empty());
                body.extend_from_slice(&chunk);
            }
            parts.push(owned(part.part(), body));
        }
        Ok(parts)
    }

    #[test]
    fn stream_hands_out_parts_without_a_name_and_form_data_skips_them() {
        let body = nameless_body();
        let want = run(B.as_bytes(), &missing_disposition(), &body, &[]).unwrap();
        for sizes in [&[1usize][..], &[7], &[usize::MAX]] {
            let mut form =
                Multipart::new(Source::new(&body, sizes), B, missing_disposition()).unwrap();
            let got = block_on(collect(&mut form)).unwrap();
            assert_eq!(got, want, "chunk sizes {sizes:?}");
            let form = Multipart::new(Source::new(&body, sizes), B, missing_disposition()).unwrap();
            let fd = block_on(form.form_data()).unwrap();
            let names: Vec<&str> = fd.iter().map(|e| e.name).collect();
            assert_eq!(names, ["a", "f", ""], "chunk sizes {sizes:?}");
        }
        let mut form = Multipart::new(Source::new(&body, &[64]), B, missing_disposition()).unwrap();
        let named = block_on(form.next_part()).unwrap().unwrap().has_name();
        assert!(named);
        let named = block_on(form.next_part()).unwrap().unwrap().has_name();
        assert!(!named);
    }

    #[test]
    fn stream_matches_the_parser_under_every_chunking() {
        let (body, want) = sample();
        for sizes in [
            &[1usize][..],
            &[2, 3],
            &[7],
            &[63, 64, 65],
            &[4096],
            &[65_536],
            &[usize::MAX],
            &[1, 70_000, 5],
        ] {
            let mut form =
                Multipart::new(Source::new(&body, sizes), B, Options::default()).unwrap();
            let got = block_on(collect(&mut form)).unwrap();
            assert_eq!(got, want, "chunk sizes {sizes:?}");
            assert!(form.parser().is_done());
            assert!(
                block_on(form.next_part()).unwrap().is_none(),
                "stays at the end"
            );
        }
    }

    #[test]
    fn stream_body_chunks_are_slices_of_the_source_chunks() {
        let (body, want) = sample();
        let src = Source::new(&body, &[10_000, 333]);
        let ranges: Vec<(usize, usize)> = src
            .chunks
            .iter()
            .map(|c| (c.as_ptr() as usize, c.as_ptr() as usize + c.len()))
            .collect();
        let delim = B.len() + 4;
        let mut form = Multipart::new(src, B, Options::default()).unwrap();
        let (mut copied, mut sliced) = (0, 0);
        block_on(async {
            let mut i = 0;
            while let Some(mut part) = form.next_part().await.unwrap() {
                let mut got = Vec::new();
                while let Some(chunk) = part.chunk().await.unwrap() {
                    let p = chunk.as_ptr() as usize;
                    if ranges.iter().any(|&(a, b)| a <= p && p + chunk.len() <= b) {
                        sliced += chunk.len();
                    } else {
                        // Only held-back bytes are copied.
                        assert!(
                            chunk.len() <= delim,
                            "a copied chunk of {} bytes",
                            chunk.len()
                        );
                        copied += chunk.len();
                    }
                    got.extend_from_slice(&chunk);
                }
                assert_eq!(got, want[i].body);
                i += 1;
            }
        });
        assert!(
            sliced > 200_000 && copied < 2_000,
            "sliced {sliced}, copied {copied}"
        );
    }

    #[test]
    fn stream_a_slow_consumer_holds_the_source_back() {
        let (body, want) = sample();
        for chunk in [100usize, 4096, 65_536] {
            let src = Source::new(&body, &[chunk]);
            let pulled = src.pulled.clone();
            let mut form = Multipart::new(src, B, Options::default()).unwrap();
            block_on(async {
                let mut i = 0;
                while let Some(mut part) = form.next_part().await.unwrap() {
                    let start = part.part().body_offset() as usize;
                    let mut got = 0;
                    while let Some(c) = part.next().await {
                        got += c.unwrap().len();
                        // Slow: give the runtime a turn between chunks.
                        tokio::task::yield_now().await;
                        // At most the current chunk beyond the byte just
                        // delivered (plus held-back bytes not yet body).
                        let ahead = pulled.get() - (start + got);
                        assert!(
                            ahead <= chunk + B.len() + 4,
                            "{ahead} bytes ahead with {chunk}-byte chunks"
                        );
                    }
                    assert_eq!(got, want[i].body.len());
                    i += 1;
                }
            });
        }
    }

    #[test]
    fn stream_skips_unread_and_half_read_parts() {
        let (body, want) = sample();
        let mut form = Multipart::new(Source::new(&body, &[5000]), B, Options::default()).unwrap();
        let names = block_on(async {
            let mut names = Vec::new();
            let mut i = 0;
            while let Some(mut part) = form.next_part().await.unwrap() {
                names.push(part.name().into_owned());
                match i % 3 {
                    0 => {}
                    1 => {
                        if let Some(c) = part.chunk().await.unwrap() {
                            assert!(want[i].body.starts_with(&c));
                        }
                    }
                    _ => assert_eq!(part.bytes().await.unwrap(), want[i].body),
                }
                i += 1;
            }
            names
        });
        assert_eq!(
            names,
            want.iter().map(|p| p.name.clone()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn stream_text_and_bytes() {
        let (body, want) = sample();
        let mut form = Multipart::from_content_type(
            Source::new(&body, &[65_536]),
            &enc_type(),
            Options::default(),
        )
        .unwrap();
        block_on(async {
            let title = form.next_part().await.unwrap().unwrap();
            assert_eq!(title.text().await.unwrap(), "hello \u{e9}t\u{e9}");
            let upload = form.next_part().await.unwrap().unwrap();
            assert!(upload.is_file());
            assert_eq!(upload.filename().as_deref(), Some("big.bin"));
            assert_eq!(
                upload.content_type(),
                Some(&b"application/octet-stream"[..])
            );
            assert_eq!(upload.bytes().await.unwrap(), want[1].body);
            let empty = form.next_part().await.unwrap().unwrap();
            assert_eq!(empty.bytes().await.unwrap(), Bytes::new());
        });
        // Invalid UTF-8 in a field becomes U+FFFD (MP-F-01).
        let raw =
            format!("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\u{0}\r\n--{B}--");
        let mut raw = raw.into_bytes();
        let at = raw.iter().position(|&b| b == 0).unwrap();
        raw[at] = 0xFF;
        let mut form = Multipart::new(Source::new(&raw, &[3]), B, Options::default()).unwrap();
        block_on(async {
            let part = form.next_part().await.unwrap().unwrap();
            assert_eq!(part.text().await.unwrap(), "x\u{fffd}");
        });
    }

    #[test]
    fn stream_errors_carry_code_and_offset() {
        let (body, _) = sample();
        // Truncated inside the big file.
        let mut form = Multipart::new(
            Source::new(&body[..100_000], &[4096]),
            B,
            Options::default(),
        )
        .unwrap();
        let err = block_on(collect(&mut form)).unwrap_err();
        let want = Error::new(ErrorCode::MpTruncated, 100_000);
        assert_eq!(err.form(), Some(want));
        assert!(err.to_string().contains("MP_TRUNCATED"), "{err}");
        // Poisoned.
        assert_eq!(block_on(form.next_part()).unwrap_err().form(), Some(want));

        // text() over max_field_bytes.
        let o = Options {
            max_field_bytes: 3,
            ..Options::default()
        };
        let mut form = Multipart::new(Source::new(&body, &[4096]), B, o).unwrap();
        let (err, start) = block_on(async {
            let part = form.next_part().await.unwrap().unwrap();
            let start = part.part().body_offset();
            (part.text().await.unwrap_err(), start)
        });
        assert_eq!(
            err.form(),
            Some(Error::new(ErrorCode::MpLimitFieldBytes, start + 3))
        );

        // The wrong content type, before any I/O.
        let e = Multipart::from_content_type(
            Source::new(&body, &[1]),
            "text/plain",
            Options::default(),
        )
        .unwrap_err();
        assert_eq!(e, Error::new(ErrorCode::MpContentType, 0));
    }

    #[test]
    fn stream_source_errors_pass_through() {
        let (body, want) = sample();
        let mut src = Source::new(&body, &[4096]);
        src.fail_at = Some(10);
        let mut form = Multipart::new(src, B, Options::default()).unwrap();
        let err = block_on(collect(&mut form)).unwrap_err();
        match &err {
            SError::Stream(e) => assert_eq!(e.kind(), io::ErrorKind::ConnectionReset),
            other => panic!("{other:?}"),
        }
        assert_eq!(err.form(), None);
        assert!(std::error::Error::source(&err).is_some());
        // The source goes on after its error: so does the form (from the
        // part being read, which is the big file).
        let rest = block_on(async {
            let mut part_bytes = 0;
            // The interrupted part is drained by next_part.
            let mut names = Vec::new();
            while let Some(mut part) = form.next_part().await.unwrap() {
                names.push(part.name().into_owned());
                while let Some(c) = part.next().await {
                    part_bytes += c.unwrap().len();
                }
            }
            (names, part_bytes)
        });
        assert_eq!(
            rest.0,
            want[2..].iter().map(|p| p.name.clone()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn stream_form_data() {
        let (body, want) = sample();
        for sizes in [&[1usize][..], &[100, 7], &[65_536]] {
            let form = Multipart::new(Source::new(&body, sizes), B, Options::default()).unwrap();
            let form = block_on(form.form_data()).unwrap();
            assert_eq!(form_entries(&form), entries(&want), "{sizes:?}");
        }
        // After a part half read: the rest only.
        let mut form = Multipart::new(Source::new(&body, &[4096]), B, Options::default()).unwrap();
        let rest = block_on(async {
            let mut title = form.next_part().await.unwrap().unwrap();
            assert!(title.chunk().await.unwrap().is_some());
            form.form_data().await.unwrap()
        });
        assert_eq!(form_entries(&rest), entries(&want[1..]));
        let form =
            Multipart::new(Source::new(&body[..5000], &[4096]), B, Options::default()).unwrap();
        let err = block_on(form.form_data()).unwrap_err();
        assert_eq!(err.form(), Some(Error::new(ErrorCode::MpTruncated, 5000)));
    }

    #[test]
    fn stream_is_send_for_send_sources() {
        fn assert_send<T: Send>(_: &T) {}
        let chunks: Vec<Result<Bytes, io::Error>> = vec![Ok(Bytes::from_static(b"--b--"))];
        let mut form =
            Multipart::new(futures_util::stream::iter(chunks), "b", Options::default()).unwrap();
        let fut = form.next_part();
        assert_send(&fut);
        assert!(block_on(fut).unwrap().is_none());
    }
}
