//! The properties behind formwire's fuzz targets, as plain functions.
//!
//! Each `fuzz_targets/<name>.rs` calls the function of the same name here;
//! the same functions run on stable as a deterministic seeded-mutation test
//! (`tests/seeded.rs` of this crate), so `cargo test` keeps every property
//! alive without nightly. A property
//! panics when it does not hold; inputs it cannot use are ignored.
//!
//! Input layouts (the `*_input` builders write them; `seed-corpus.sh`
//! writes the same layout from the shared vectors):
//!
//! - [`multipart_chunked`]: `flags, nsplits, ctlen, content-type[ctlen],
//!   [more if flags & 64], [4 limit bytes if flags & 8], nsplits x u16le
//!   split points, body`.
//!   flags: 1 `allow_preamble`, 2 `allow_lf`, 4 `allow_obs_fold`, 8 small
//!   limits, 16 also one byte at a time, 32 also with backpressure, 64 a
//!   `more` byte of flags follows, 128 `allow_cr`. more: 1
//!   `allow_quoted_pairs`, 2 `allow_missing_disposition`, 4
//!   `allow_any_disposition_type`, 8 `allow_junk_after_close`, 16
//!   `allow_utf8_header_names`, 32 `allow_near_delimiters`, 64
//!   `allow_8bit_parameter_names`, 128 `allow_rfc2231_continuations`.
//! - [`urlencoded`]: `flags, nsplits, [2 limit bytes if flags & 1],
//!   nsplits x u16le, body`.
//! - [`encode_roundtrip`]: `flags, blen, boundary[blen]`, then entries
//!   `kind, u8 len + name, ...` (see [`encode_input`]).
#![allow(dead_code)]

use formwire::multipart::{self, Encoder, Event, Parser};
use formwire::{Error, ErrorCode, urlencoded};
use std::io::Read;

/// A little-endian cursor over fuzz bytes; reads past the end give `None`.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn u8(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from(self.u8()?) | (u16::from(self.u8()?) << 8))
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// Split points: sorted, deduplicated, each in `0..=len`.
fn cuts(raw: &[u16], len: usize) -> Vec<usize> {
    let mut c: Vec<usize> = raw.iter().map(|&p| p as usize % (len + 1)).collect();
    c.sort_unstable();
    c.dedup();
    c
}

/// A tiny deterministic generator (splitmix64), for backpressure choices.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits (a plain method: the generator is not an iterator).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn seed_of(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

// ---------------------------------------------------------------- multipart

/// What a parse produced, independent of chunking: body bytes of a part are
/// joined, whatever `Data` / `HeldData` events carried them.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum Ev {
    Start {
        name: Vec<u8>,
        /// `Part::has_name` (`false`: a part without a name, MP-H-06).
        named: bool,
        filename: Option<Vec<u8>>,
        name_star: Option<Vec<u8>>,
        filename_star: Option<Vec<u8>>,
        content_type: Option<Vec<u8>>,
        mime: String,
        headers: Vec<(String, Vec<u8>)>,
        body_offset: u64,
    },
    Body(Vec<u8>),
    PartEnd,
    End,
    Err(ErrorCode, u64),
}

struct Log {
    evs: Vec<Ev>,
    /// The longest `HeldData` seen (MP-P-08 bounds it).
    max_held: usize,
}

impl Log {
    fn push(&mut self, ev: Result<Event<'_, '_>, Error>) -> bool {
        match ev {
            Ok(Event::PartStart(p)) => self.evs.push(Ev::Start {
                name: p.name_bytes().to_vec(),
                named: p.has_name(),
                filename: p.filename_bytes().map(<[u8]>::to_vec),
                name_star: p.name_star().map(<[u8]>::to_vec),
                filename_star: p.filename_star().map(<[u8]>::to_vec),
                content_type: p.content_type().map(<[u8]>::to_vec),
                mime: p.mime_type(),
                headers: p
                    .headers()
                    .map(|h| (h.name().to_owned(), h.value().to_vec()))
                    .collect(),
                body_offset: p.body_offset(),
            }),
            Ok(Event::Data(d)) => self.data(d),
            Ok(Event::HeldData(d)) => {
                self.max_held = self.max_held.max(d.len());
                self.data(d)
            }
            Ok(Event::PartEnd) => self.evs.push(Ev::PartEnd),
            Ok(Event::End) => self.evs.push(Ev::End),
            Err(e) => {
                self.evs.push(Ev::Err(e.code, e.offset));
                return false;
            }
        }
        true
    }

    fn data(&mut self, d: &[u8]) {
        if d.is_empty() {
            return;
        }
        if let Some(Ev::Body(b)) = self.evs.last_mut() {
            b.extend_from_slice(d);
        } else {
            self.evs.push(Ev::Body(d.to_vec()));
        }
    }
}

/// How a body is delivered to the parser.
enum Delivery<'a> {
    /// Chunks ending at these split points.
    Cuts(&'a [usize]),
    /// One byte per feed.
    Bytes,
    /// At the cuts, and after some events the feed is dropped and what it
    /// did not consume is fed again (`Feed::remaining`).
    Backpressure(&'a [usize], u64),
}

fn run_multipart(
    content_type: &str,
    opts: &multipart::Options,
    body: &[u8],
    how: Delivery<'_>,
) -> Vec<Ev> {
    let mut parser = match Parser::from_content_type(content_type, opts.clone()) {
        Ok(p) => p,
        Err(e) => return vec![Ev::Err(e.code, e.offset)],
    };
    let mut log = Log {
        evs: Vec::new(),
        max_held: 0,
    };
    let chunks: Vec<&[u8]> = match how {
        Delivery::Bytes => body.chunks(1).collect(),
        Delivery::Cuts(c) | Delivery::Backpressure(c, _) => {
            let mut v = Vec::new();
            let mut at = 0;
            for &c in c.iter().chain([body.len()].iter()) {
                v.push(&body[at..c]);
                at = c;
            }
            v
        }
    };
    let mut rng = match how {
        Delivery::Backpressure(_, seed) => Some(SplitMix(seed)),
        _ => None,
    };
    let mut ok = true;
    'chunks: for chunk in chunks {
        let mut rest = chunk;
        loop {
            let base = parser.offset();
            let mut feed = parser.feed(rest);
            let mut paused = false;
            while let Some(ev) = feed.next() {
                if !log.push(ev) {
                    ok = false;
                    break 'chunks;
                }
                if let Some(r) = &mut rng {
                    if r.below(3) == 0 {
                        paused = true;
                        break;
                    }
                }
            }
            if !paused {
                break;
            }
            // Go on with the unconsumed rest, as a paused caller would; it must
            // be exactly what follows the consumed bytes (also past
            // `max_total_bytes`: see `remaining_keeps_bytes_past_max_total_bytes`).
            let used = (feed.parser().offset() - base) as usize;
            assert_eq!(
                feed.remaining(),
                &rest[used..],
                "remaining() is not what follows the consumed bytes"
            );
            rest = feed.remaining();
        }
    }
    if ok {
        let mut feed = parser.finish();
        while let Some(ev) = feed.next() {
            if !log.push(ev) {
                ok = false;
                break;
            }
        }
    }
    // MP-P-08: held-back bytes never exceed the delimiter `CRLF "--" B`,
    // plus the `-` or CR of a lookalike with `allow_near_delimiters`.
    let delim = parser.boundary().len() + 4 + usize::from(opts.allow_near_delimiters);
    assert!(
        log.max_held <= delim,
        "held {} bytes, delimiter is {delim}",
        log.max_held
    );
    if ok {
        assert!(
            parser.is_done(),
            "finish() ended without error, yet the parser is not done"
        );
        assert_eq!(
            log.evs.iter().filter(|e| **e == Ev::End).count(),
            1,
            "one End"
        );
    } else {
        // Poisoned: every later feed reports the same error.
        let Some(Ev::Err(code, offset)) = log.evs.last().cloned() else {
            unreachable!()
        };
        assert_eq!(parser.error(), Some(Error::new(code, offset)));
        let mut again = parser.feed(b"x");
        match again.next() {
            Some(Err(e)) => assert_eq!(
                e,
                Error::new(code, offset),
                "poisoned parser changed its error"
            ),
            other => panic!("poisoned parser gave {other:?}"),
        }
    }
    check_shape(&log.evs, body);
    settled(log.evs)
}

/// The events with the body bytes of a part cut short by an error removed:
/// how much of that body was handed out before the error depends on the
/// chunking (a parser that sees the error in the same chunk may hand out
/// none of it), and is not part of the result. What was handed out is
/// still checked against the input by [`check_shape`].
fn settled(mut evs: Vec<Ev>) -> Vec<Ev> {
    if let [.., Ev::Body(_), Ev::Err(..)] = evs[..] {
        let err = evs.pop();
        evs.pop();
        evs.extend(err);
    }
    evs
}

/// Events come in order (Start, Body?, PartEnd)* End, an error ends them,
/// offsets point inside the input (spec/errors.md), and body bytes are
/// exactly the input bytes from the part's body offset on (bodies are never
/// transfer-decoded, MP-H-11).
fn check_shape(evs: &[Ev], input: &[u8]) {
    let len = input.len() as u64;
    let mut in_part = false;
    let mut ended = false;
    let mut body_at = 0usize;
    for (i, e) in evs.iter().enumerate() {
        match e {
            Ev::Start { body_offset, .. } => {
                assert!(!in_part && !ended, "Start out of place: {evs:?}");
                assert!(*body_offset <= len);
                body_at = *body_offset as usize;
                in_part = true;
            }
            Ev::Body(b) => {
                assert!(in_part, "body outside a part");
                assert!(
                    input.get(body_at..body_at + b.len()) == Some(&b[..]),
                    "body bytes are not the input bytes at the body offset {body_at}"
                );
            }
            Ev::PartEnd => {
                assert!(in_part, "PartEnd outside a part");
                in_part = false;
            }
            Ev::End => {
                assert!(!in_part && !ended, "End out of place");
                ended = true;
            }
            Ev::Err(code, offset) => {
                assert_eq!(i + 1, evs.len(), "events after an error");
                assert!(
                    *offset <= len,
                    "{code:?} at {offset} is past the input ({len})"
                );
                if *code == ErrorCode::MpTruncated {
                    assert_eq!(*offset, len, "MP_TRUNCATED points at the input length");
                }
            }
        }
    }
}

/// Builds a [`multipart_chunked`] input.
pub fn multipart_input(
    flags: u8,
    more: u8,
    limits: [u8; 4],
    splits: &[u16],
    content_type: &[u8],
    body: &[u8],
) -> Vec<u8> {
    let ct = &content_type[..content_type.len().min(255)];
    let mut v = vec![flags, splits.len().min(255) as u8, ct.len() as u8];
    v.extend_from_slice(ct);
    if flags & 64 != 0 {
        v.push(more);
    }
    if flags & 8 != 0 {
        v.extend_from_slice(&limits);
    }
    for s in splits.iter().take(255) {
        v.extend_from_slice(&s.to_le_bytes());
    }
    v.extend_from_slice(body);
    v
}

/// Property: the multipart parser gives the same events (and the same
/// error, at the same offset) fed whole, split at fuzzer-chosen points,
/// one byte at a time, and with backpressure (MP-P-08), under any mix of
/// the twelve lenient flags; held-back data stays within the delimiter
/// length; errors poison the parser; and a body the strict profile accepts
/// reads the same with every option that only changes rejections turned
/// on (MP-R-02): `allow_preamble`, `allow_obs_fold`,
/// `allow_missing_disposition`, `allow_any_disposition_type`,
/// `allow_junk_after_close`, `allow_utf8_header_names`,
/// `allow_near_delimiters`, `allow_8bit_parameter_names` (not `allow_lf`
/// or `allow_cr`, which change the reading of some valid bodies, nor
/// `allow_quoted_pairs` or `allow_rfc2231_continuations`, which change a
/// value's reading).
pub fn multipart_chunked(data: &[u8]) {
    let mut b = Bytes(data);
    let (Some(flags), Some(nsplits), Some(ctlen)) = (b.u8(), b.u8(), b.u8()) else {
        return;
    };
    let Some(ct) = b.take(ctlen as usize) else {
        return;
    };
    let content_type = String::from_utf8_lossy(ct);
    let mut opts = multipart::Options::default();
    opts.allow_preamble = flags & 1 != 0;
    opts.allow_lf = flags & 2 != 0;
    opts.allow_obs_fold = flags & 4 != 0;
    opts.allow_cr = flags & 128 != 0;
    if flags & 64 != 0 {
        let Some(more) = b.u8() else { return };
        opts.allow_quoted_pairs = more & 1 != 0;
        opts.allow_missing_disposition = more & 2 != 0;
        opts.allow_any_disposition_type = more & 4 != 0;
        opts.allow_junk_after_close = more & 8 != 0;
        opts.allow_utf8_header_names = more & 16 != 0;
        opts.allow_near_delimiters = more & 32 != 0;
        opts.allow_8bit_parameter_names = more & 64 != 0;
        opts.allow_rfc2231_continuations = more & 128 != 0;
    }
    if flags & 8 != 0 {
        let Some(l) = b.take(4) else { return };
        opts.max_parts = u64::from(l[0] % 8);
        opts.max_files = u64::from(l[0] >> 5);
        opts.max_fields = u64::from(l[1] >> 5);
        opts.max_total_field_bytes = u64::from(l[3]) + 8;
        opts.max_headers = u64::from(l[1] % 5);
        opts.max_header_bytes = u64::from(l[2]);
        opts.max_field_bytes = u64::from(l[3] & 0x3f);
        opts.max_file_bytes = u64::from(l[3] >> 2);
        opts.max_total_bytes = u64::from(l[0]) * 4 + u64::from(l[1]);
        opts.max_boundary_bytes = u64::from(l[2] % 80);
    }
    let mut raw = Vec::with_capacity(nsplits as usize);
    for _ in 0..nsplits % 16 {
        let Some(s) = b.u16() else { return };
        raw.push(s);
    }
    let body = b.rest();
    let cuts = cuts(&raw, body.len());

    let whole = run_multipart(&content_type, &opts, body, Delivery::Cuts(&[]));
    let split = run_multipart(&content_type, &opts, body, Delivery::Cuts(&cuts));
    assert_eq!(whole, split, "whole vs split at {cuts:?}");
    if flags & 16 != 0 && body.len() <= 4096 {
        let bytes = run_multipart(&content_type, &opts, body, Delivery::Bytes);
        assert_eq!(whole, bytes, "whole vs one byte at a time");
    }
    if flags & 32 != 0 {
        let bp = run_multipart(
            &content_type,
            &opts,
            body,
            Delivery::Backpressure(&cuts, seed_of(data)),
        );
        assert_eq!(whole, bp, "whole vs backpressure at {cuts:?}");
    }
    let accepted = !matches!(whole.last(), Some(Ev::Err(..)));
    let mut lenient = opts.clone();
    lenient.allow_preamble = true;
    lenient.allow_obs_fold = true;
    lenient.allow_missing_disposition = true;
    lenient.allow_any_disposition_type = true;
    lenient.allow_junk_after_close = true;
    lenient.allow_utf8_header_names = true;
    lenient.allow_near_delimiters = true;
    lenient.allow_8bit_parameter_names = true;
    if accepted && !opts.allow_lf && !opts.allow_cr && lenient != opts {
        let l = run_multipart(&content_type, &lenient, body, Delivery::Cuts(&cuts));
        assert_eq!(
            whole, l,
            "an option that only changes rejections changed the reading of an accepted body"
        );
    }
}

// --------------------------------------------------------------- urlencoded

type Pairs = Vec<(String, String)>;

fn owned(p: Vec<urlencoded::Pair<'_>>) -> Pairs {
    p.into_iter()
        .map(|(n, v)| (n.into_owned(), v.into_owned()))
        .collect()
}

fn stream_urlencoded(
    opts: &urlencoded::Options,
    body: &[u8],
    cuts: &[usize],
) -> (Pairs, Option<Error>) {
    let mut p = urlencoded::Parser::new(opts.clone());
    let mut out = Vec::new();
    let mut at = 0;
    for &c in cuts.iter().chain([body.len()].iter()) {
        let mut feed = p.feed(&body[at..c]);
        at = c;
        while let Some(pair) = feed.next() {
            match pair {
                Ok((n, v)) => out.push((n.into_owned(), v.into_owned())),
                Err(e) => return (out, Some(e)),
            }
        }
    }
    let mut feed = p.finish();
    while let Some(pair) = feed.next() {
        match pair {
            Ok((n, v)) => out.push((n.into_owned(), v.into_owned())),
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

/// Builds a [`urlencoded`] input.
pub fn urlencoded_input(flags: u8, limits: [u8; 2], splits: &[u16], body: &[u8]) -> Vec<u8> {
    let mut v = vec![flags, splits.len().min(255) as u8];
    if flags & 1 != 0 {
        v.extend_from_slice(&limits);
    }
    for s in splits.iter().take(255) {
        v.extend_from_slice(&s.to_le_bytes());
    }
    v.extend_from_slice(body);
    v
}

/// Property: the streaming urlencoded parser gives the pairs of the whole
/// parse at any split (UE-P-11), the same limit error (UE-L-03), the one-pass
/// owned parser agrees with the borrowed one (pairs or error), and pairs
/// before an error are a prefix of the unlimited reading; serializing the
/// pairs and parsing again gives them back (UE-S-07) and serializing is a
/// fixed point; arbitrary strings survive serialize then parse.
pub fn urlencoded(data: &[u8]) {
    let mut b = Bytes(data);
    let (Some(flags), Some(nsplits)) = (b.u8(), b.u8()) else {
        return;
    };
    let mut opts = urlencoded::Options::default();
    if flags & 1 != 0 {
        let Some(l) = b.take(2) else { return };
        opts.max_pairs = u64::from(l[0] % 16);
        opts.max_bytes = u64::from(l[1]) * 2;
    }
    let mut raw = Vec::new();
    for _ in 0..nsplits % 16 {
        let Some(s) = b.u16() else { return };
        raw.push(s);
    }
    let body = b.rest();
    let cuts = cuts(&raw, body.len());

    let unlimited: Pairs = urlencoded::pairs(body)
        .map(|(n, v)| (n.into_owned(), v.into_owned()))
        .collect();
    let mut none = urlencoded::Options::default();
    none.max_pairs = urlencoded::UNLIMITED;
    none.max_bytes = urlencoded::UNLIMITED;
    assert_eq!(
        urlencoded::parse_with(body, &none).map(owned),
        Ok(unlimited.clone()),
        "parse_with(unlimited) vs pairs()"
    );

    let whole = urlencoded::parse_with(body, &opts).map(owned);
    // The one-pass owned parser: the same pairs, or the same error (code and offset), under the same limits.
    assert_eq!(
        urlencoded::parse_owned_with(body, &opts),
        whole,
        "parse_owned_with vs parse_with"
    );
    assert_eq!(
        urlencoded::parse_owned_with(body, &none),
        Ok(unlimited.clone()),
        "parse_owned_with(unlimited)"
    );
    let (streamed, err) = stream_urlencoded(&opts, body, &cuts);
    match &whole {
        Ok(pairs) => {
            assert_eq!(
                err, None,
                "stream failed where the whole parse did not (cuts {cuts:?})"
            );
            assert_eq!(&streamed, pairs, "whole vs streamed at {cuts:?}");
        }
        Err(e) => {
            assert_eq!(err, Some(*e), "whole vs streamed error at {cuts:?}");
            assert!(e.offset <= body.len() as u64 || e.code == ErrorCode::UeLimitBytes);
            assert!(
                unlimited.starts_with(&streamed),
                "pairs before the error are not a prefix"
            );
        }
    }

    // UE-S-07 on what was parsed, and the serializer's alphabet (UE-S-04/05).
    let text = urlencoded::serialize(unlimited.iter().map(|(n, v)| (n, v)));
    assert!(
        text.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"*-._+%&=".contains(&c)),
        "serializer wrote a byte outside its alphabet: {text:?}"
    );
    let back = owned(urlencoded::parse_with(text.as_bytes(), &none).expect("unlimited parse"));
    assert_eq!(back, unlimited, "parse(serialize(pairs)) != pairs");
    assert_eq!(
        urlencoded::serialize(back.iter().map(|(n, v)| (n, v))),
        text,
        "serialize is not a fixed point"
    );

    // Arbitrary strings (with `&`, `=`, `+`, `%`, newlines): pairs split at U+0001.
    let s = String::from_utf8_lossy(body);
    let parts: Vec<&str> = s.split('\u{1}').collect();
    let pairs: Vec<(&str, &str)> = parts
        .chunks(2)
        .map(|c| (c[0], c.get(1).copied().unwrap_or("")))
        .collect();
    let text = urlencoded::serialize(pairs.iter().copied());
    let back = owned(urlencoded::parse_with(text.as_bytes(), &none).expect("unlimited parse"));
    // A pair with an empty name and value serializes to `=`, which parses back as that pair.
    let want: Pairs = pairs
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    assert_eq!(back, want, "strings did not survive serialize then parse");
}

// ------------------------------------------------------------------- encode

/// One entry of an [`encode_roundtrip`] input.
#[derive(Debug, Clone)]
pub enum Entry {
    Text {
        name: String,
        value: String,
    },
    File {
        name: String,
        filename: String,
        content_type: String,
        body: Vec<u8>,
    },
    Blob {
        name: String,
        content_type: String,
        body: Vec<u8>,
    },
}

fn push_str8(v: &mut Vec<u8>, s: &[u8]) {
    let s = &s[..s.len().min(255)];
    v.push(s.len() as u8);
    v.extend_from_slice(s);
}

fn push_str16(v: &mut Vec<u8>, s: &[u8]) {
    let s = &s[..s.len().min(65535)];
    v.extend_from_slice(&(s.len() as u16).to_le_bytes());
    v.extend_from_slice(s);
}

/// Builds an [`encode_roundtrip`] input. flags: 1 bodies as readers of
/// known size, 2 readers of unknown size, 4 read the output in small
/// pieces, 8 announce a wrong size for the first reader.
pub fn encode_input(flags: u8, boundary: &[u8], entries: &[Entry]) -> Vec<u8> {
    let mut v = vec![flags];
    push_str8(&mut v, boundary);
    for e in entries {
        match e {
            Entry::Text { name, value } => {
                v.push(0);
                push_str8(&mut v, name.as_bytes());
                push_str16(&mut v, value.as_bytes());
            }
            Entry::File {
                name,
                filename,
                content_type,
                body,
            } => {
                v.push(1);
                push_str8(&mut v, name.as_bytes());
                push_str8(&mut v, filename.as_bytes());
                push_str8(&mut v, content_type.as_bytes());
                push_str16(&mut v, body);
            }
            Entry::Blob {
                name,
                content_type,
                body,
            } => {
                v.push(2);
                push_str8(&mut v, name.as_bytes());
                push_str8(&mut v, content_type.as_bytes());
                push_str16(&mut v, body);
            }
        }
    }
    v
}

fn read_entries(b: &mut Bytes<'_>) -> Vec<Entry> {
    fn s8(b: &mut Bytes<'_>) -> Option<String> {
        let n = b.u8()?;
        Some(String::from_utf8_lossy(b.take(n as usize)?).into_owned())
    }
    fn b16(b: &mut Bytes<'_>) -> Option<Vec<u8>> {
        let n = b.u16()?;
        Some(b.take(n as usize)?.to_vec())
    }
    let mut out = Vec::new();
    while let Some(kind) = b.u8() {
        let e = match kind % 3 {
            0 => (|| {
                Some(Entry::Text {
                    name: s8(b)?,
                    value: String::from_utf8_lossy(&b16(b)?).into_owned(),
                })
            })(),
            1 => (|| {
                Some(Entry::File {
                    name: s8(b)?,
                    filename: s8(b)?,
                    content_type: s8(b)?,
                    body: b16(b)?,
                })
            })(),
            _ => (|| {
                Some(Entry::Blob {
                    name: s8(b)?,
                    content_type: s8(b)?,
                    body: b16(b)?,
                })
            })(),
        };
        match e {
            Some(e) => out.push(e),
            None => break,
        }
    }
    out
}

/// MP-S-09, as the encoder must check it.
fn valid_boundary(b: &str) -> bool {
    (1..=70).contains(&b.len())
        && !b.ends_with(' ')
        && b.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"'()+_,-./:=? ".contains(&c))
}

/// MP-S-02 (`normalize`) and MP-S-03: what a name or filename looks like on the wire.
fn escaped(s: &str, normalize: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => out.extend_from_slice(b"%22"),
            b'\r' if normalize => {
                out.extend_from_slice(b"%0D%0A");
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            b'\n' if normalize => out.extend_from_slice(b"%0D%0A"),
            b'\r' => out.extend_from_slice(b"%0D"),
            b'\n' => out.extend_from_slice(b"%0A"),
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// MP-S-04: lone CR, lone LF and CRLF all become CRLF.
fn normalized(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\r' => {
                out.extend_from_slice(b"\r\n");
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            b'\n' => out.extend_from_slice(b"\r\n"),
            c => out.push(c),
        }
        i += 1;
    }
    out
}

fn trim_ows(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|&c| c != b' ' && c != b'\t')
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&c| c != b' ' && c != b'\t')
        .map_or(start, |i| i + 1);
    &s[start..end]
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// A reader that hands out at most `step` bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.data.len().min(buf.len()).min(self.step);
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn add<'a>(enc: &mut Encoder<'a>, e: &Entry, body: multipart::Body<'a>) -> Result<(), Error> {
    match e {
        Entry::Text { name, value } => {
            enc.text(name, value);
            Ok(())
        }
        Entry::File {
            name,
            filename,
            content_type,
            ..
        } => enc.file(name, filename, content_type, body).map(|_| ()),
        Entry::Blob {
            name, content_type, ..
        } => enc.blob(name, content_type, body).map(|_| ()),
    }
}

/// What the parser must read back for an entry: escaped name (MP-S-02),
/// escaped filename (MP-S-03), trimmed type or the default (MP-S-06),
/// normalized value (MP-S-04) or the exact body.
type Expected = (Vec<u8>, Option<Vec<u8>>, Option<Vec<u8>>, Vec<u8>);

fn expected(e: &Entry) -> Expected {
    match e {
        Entry::Text { name, value } => (escaped(name, true), None, None, normalized(value)),
        Entry::File {
            name,
            filename,
            content_type,
            body,
        } => file_expected(name, filename, content_type, body),
        Entry::Blob {
            name,
            content_type,
            body,
        } => file_expected(name, "blob", content_type, body),
    }
}

fn file_expected(name: &str, filename: &str, content_type: &str, body: &[u8]) -> Expected {
    let ct = if content_type.is_empty() {
        "application/octet-stream"
    } else {
        content_type
    };
    (
        escaped(name, true),
        Some(escaped(filename, false)),
        Some(trim_ows(ct.as_bytes()).to_vec()),
        body.to_vec(),
    )
}

/// Property: the encoder's output parses back (strict profile) to the same
/// entries: names escaped (MP-S-02), filenames escaped (MP-S-03), values
/// newline-normalized (MP-S-04), types defaulted (MP-S-06), bodies
/// byte-exact; `content_length` is the exact length (MP-S-08);
/// `into_reader` (read in small or large pieces), `slices` and
/// `encode_to_vec` give the same bytes; boundaries and content types are
/// checked as MP-S-09 / MP-S-06 say; a reader whose size was announced
/// wrongly fails instead of producing a body of the wrong length.
/// A NUL in a name or filename is written raw and rejected by the parser
/// (MP-S-02 says so); bodies that themselves contain the delimiter
/// `CRLF "--" B` are not parsed back (a collision no encoder prevents,
/// MP-S-04).
///
/// flags: 1 bodies as readers of known size, 2 readers of unknown size,
/// 4 read the output 3 bytes at a time, 8 the first reader announces one
/// byte more than it has, 16 one byte less.
pub fn encode_roundtrip(data: &[u8]) {
    let mut b = Bytes(data);
    let Some(flags) = b.u8() else { return };
    let Some(blen) = b.u8() else { return };
    let Some(raw_boundary) = b.take(blen as usize) else {
        return;
    };
    let raw_boundary = String::from_utf8_lossy(raw_boundary);
    let entries = read_entries(&mut b);

    let valid = valid_boundary(&raw_boundary);
    let mut enc = match Encoder::with_boundary(&raw_boundary) {
        Ok(e) => {
            assert!(valid, "boundary {raw_boundary:?} accepted against MP-S-09");
            e
        }
        Err(e) => {
            assert!(!valid, "boundary {raw_boundary:?} rejected: {e}");
            assert_eq!(e, Error::new(ErrorCode::MpEncodeBoundary, 0));
            Encoder::with_boundary("formwire-fuzz").expect("a valid boundary")
        }
    };
    let boundary = enc.boundary().to_owned();
    let delim = [b"\r\n--".as_slice(), boundary.as_bytes()].concat();
    let readers = flags & 3 != 0;
    let sized = flags & 2 == 0;

    let mut added: Vec<&Entry> = Vec::new();
    let mut wrong_size = false;
    for e in &entries {
        let index = enc.len() as u64;
        let (content_type, body) = match e {
            Entry::Text { .. } => ("", &[][..]),
            Entry::File {
                content_type, body, ..
            }
            | Entry::Blob {
                content_type, body, ..
            } => (&**content_type, &body[..]),
        };
        let bad_type = content_type.bytes().any(|c| matches!(c, b'\r' | b'\n' | 0));
        let mut announced = body.len() as u64;
        if readers && sized && !wrong_size && !bad_type && !matches!(e, Entry::Text { .. }) {
            if flags & 8 != 0 {
                announced += 1;
                wrong_size = true;
            } else if flags & 16 != 0 && !body.is_empty() {
                announced -= 1;
                wrong_size = true;
            }
        }
        let arg = if readers {
            multipart::Body::reader(
                Trickle {
                    data: body,
                    step: 7,
                },
                sized.then_some(announced),
            )
        } else {
            multipart::Body::from(body)
        };
        match add(&mut enc, e, arg) {
            Ok(()) => {
                assert!(
                    !bad_type,
                    "content type {content_type:?} accepted (MP-S-06)"
                );
                added.push(e);
            }
            Err(err) => {
                assert!(bad_type, "content type {content_type:?} rejected: {err}");
                assert_eq!(err, Error::new(ErrorCode::MpEncodeHeader, index));
                assert_eq!(enc.len() as u64, index, "a rejected entry was added");
            }
        }
    }
    let content_type = enc.content_type();
    let length = enc.content_length();
    let has_reader_bodies = readers && added.iter().any(|e| !matches!(e, Entry::Text { .. }));
    assert_eq!(
        length.is_none(),
        has_reader_bodies && !sized,
        "content_length known iff every size is"
    );
    let slices = enc.slices().map(|s| s.concat());
    assert_eq!(
        slices.is_none(),
        has_reader_bodies,
        "slices() exist iff no body is a reader"
    );

    let mut out = Vec::new();
    let mut reader = enc.into_reader();
    let mut buf = vec![0u8; if flags & 4 != 0 { 3 } else { 1 << 16 }];
    let read_result = loop {
        match reader.read(&mut buf) {
            Ok(0) => break Ok(()),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => break Err(e),
        }
    };
    if wrong_size {
        assert!(
            read_result.is_err(),
            "a reader whose size was announced wrongly did not fail"
        );
        return;
    }
    read_result.expect("in-memory bodies cannot fail");
    if let Some(n) = length {
        assert_eq!(out.len() as u64, n, "content_length is not the body length");
    }
    if let Some(s) = slices {
        assert_eq!(s, out, "slices() differ from into_reader()");
    }
    let mut again = Encoder::with_boundary(&boundary).expect("valid");
    for e in &added {
        let body = match e {
            Entry::Text { .. } => &[][..],
            Entry::File { body, .. } | Entry::Blob { body, .. } => &body[..],
        };
        add(&mut again, e, multipart::Body::from(body)).expect("accepted before");
    }
    assert_eq!(
        again.encode_to_vec().expect("in memory"),
        out,
        "encode_to_vec differs from into_reader"
    );

    let expect: Vec<Expected> = added.iter().map(|e| expected(e)).collect();
    if expect.iter().any(|(_, _, _, body)| contains(body, &delim)) {
        return;
    }
    let nul = expect
        .iter()
        .any(|(n, f, _, _)| n.contains(&0) || f.as_ref().is_some_and(|f| f.contains(&0)));

    // Parse it back, strict profile, no limits in the way.
    let mut opts = multipart::Options::default();
    for l in [
        "max_parts",
        "max_headers",
        "max_header_bytes",
        "max_field_bytes",
        "max_file_bytes",
        "max_total_bytes",
    ] {
        opts.set_limit(l, None);
    }
    let evs = run_multipart(&content_type, &opts, &out, Delivery::Cuts(&[out.len() / 2]));
    let mut got = Vec::new();
    let mut it = evs.into_iter().peekable();
    while let Some(ev) = it.next() {
        match ev {
            Ev::Start {
                name,
                filename,
                content_type,
                ..
            } => {
                let body = match it.next_if(|e| matches!(e, Ev::Body(_))) {
                    Some(Ev::Body(b)) => b,
                    _ => Vec::new(),
                };
                got.push((name, filename, content_type, body));
            }
            Ev::Err(code, offset) => {
                assert!(
                    nul && code == ErrorCode::MpHeaderValue,
                    "encoder output rejected: {code:?} at {offset}"
                );
                return;
            }
            _ => {}
        }
    }
    assert!(
        !nul,
        "a NUL in a name or filename was accepted by the parser (MP-H-02)"
    );
    assert_eq!(got, expect, "parsed entries differ from the encoded ones");
}
