//! The fuzz properties of `rust/fuzz` on stable, deterministically: every
//! shared vector as a seed, then seeded mutations of them (20 000 inputs
//! over the three targets by default; `FORMWIRE_FUZZ_ITERS=N` changes the
//! total). The properties themselves are this crate's library, which the
//! nightly fuzz targets (rust/fuzz) call too, so both check the same code. A failure prints the input in hex: save it with
//! `xxd -r -p` and replay it with `cargo +nightly fuzz run <target> FILE`.

use formwire_props as props;

use std::path::{Path, PathBuf};

use props::{Entry, SplitMix};
use serde_json::Value;

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../vectors")
}

fn iterations(share: u64) -> u64 {
    let total: u64 = std::env::var("FORMWIRE_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    total * share / 100
}

/// Every `<format>/<verdict>/*.json` case, sorted by path (deterministic).
fn cases(format: &str) -> Vec<(PathBuf, Value)> {
    let mut out = Vec::new();
    for verdict in ["accept", "reject", "lenient"] {
        let dir = vectors().join(format).join(verdict);
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "json") {
                let v: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
                out.push((p, v));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = s
        .bytes()
        .filter(|c| !matches!(c, b'=' | b'\n' | b'\r' | b' '))
        .map(val)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for q in digits.chunks(4) {
        let n = q
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
        out.extend_from_slice(&n.to_be_bytes()[1..q.len()]);
    }
    out
}

fn inline_bytes(v: &Value, dir: &Path) -> Option<Vec<u8>> {
    if let Some(t) = v.get("text").and_then(Value::as_str) {
        return Some(t.as_bytes().to_vec());
    }
    if let Some(b) = v.get("base64").and_then(Value::as_str) {
        return Some(base64(b));
    }
    v.get("file")
        .and_then(Value::as_str)
        .map(|f| std::fs::read(dir.join(f)).unwrap())
}

struct MpSeed {
    content_type: Vec<u8>,
    flags: u8,
    /// The `more` flags byte (see `formwire_props::multipart_input`).
    more: u8,
    body: Vec<u8>,
    boundary: Vec<u8>,
}

fn multipart_seeds() -> Vec<MpSeed> {
    let mut out = Vec::new();
    for (path, c) in cases("multipart") {
        if c["kind"] != "multipart-parse" {
            continue;
        }
        let Some(body) = inline_bytes(&c["input"], path.parent().unwrap()) else {
            continue;
        };
        let ct = c["content_type"].as_str().unwrap_or("").to_owned();
        let opt = |k: &str| {
            c.get("options")
                .and_then(|o| o.get(k))
                .and_then(Value::as_bool)
                .unwrap_or(false)
        };
        let more = u8::from(opt("allow_quoted_pairs"))
            | u8::from(opt("allow_missing_disposition")) << 1
            | u8::from(opt("allow_any_disposition_type")) << 2
            | u8::from(opt("allow_junk_after_close")) << 3
            | u8::from(opt("allow_utf8_header_names")) << 4
            | u8::from(opt("allow_near_delimiters")) << 5
            | u8::from(opt("allow_8bit_parameter_names")) << 6
            | u8::from(opt("allow_rfc2231_continuations")) << 7;
        let flags = u8::from(opt("allow_preamble"))
            | u8::from(opt("allow_lf")) << 1
            | u8::from(opt("allow_obs_fold")) << 2
            | u8::from(more != 0) << 6
            | u8::from(opt("allow_cr")) << 7;
        let boundary = formwire::multipart::boundary_from_content_type(&ct).unwrap_or_default();
        // The parser takes the header as a string; non-Latin-1 code points would not survive a byte length prefix.
        out.push(MpSeed {
            content_type: ct.into_bytes(),
            flags,
            more,
            body,
            boundary,
        });
    }
    assert!(
        out.len() > 300,
        "only {} multipart seeds: vectors/ missing?",
        out.len()
    );
    out
}

fn urlencoded_seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (path, c) in cases("urlencoded") {
        if c["kind"] != "urlencoded-parse" {
            continue;
        }
        if let Some(b) = inline_bytes(&c["input"], path.parent().unwrap()) {
            out.push(b);
        }
    }
    assert!(
        out.len() > 100,
        "only {} urlencoded seeds: vectors/ missing?",
        out.len()
    );
    out
}

fn encode_seeds() -> Vec<(String, Vec<Entry>)> {
    let mut out = Vec::new();
    for (path, c) in cases("multipart") {
        if c["kind"] != "multipart-serialize" {
            continue;
        }
        let dir = path.parent().unwrap();
        let s = |v: &Value| v.as_str().unwrap_or("").to_owned();
        let entries = c["input"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let name = s(&e["name"]);
                if let Some(f) = e.get("file") {
                    Entry::File {
                        name,
                        filename: s(&f["filename"]),
                        content_type: s(&f["type"]),
                        body: inline_bytes(&f["body"], dir).unwrap_or_default(),
                    }
                } else if let Some(b) = e.get("blob") {
                    Entry::Blob {
                        name,
                        content_type: s(&b["type"]),
                        body: inline_bytes(&b["body"], dir).unwrap_or_default(),
                    }
                } else {
                    Entry::Text {
                        name,
                        value: s(&e["value"]),
                    }
                }
            })
            .collect();
        out.push((s(&c["input"]["boundary"]), entries));
    }
    assert!(out.len() > 50, "only {} serialize seeds", out.len());
    out
}

/// Runs a property; on failure, prints the input in hex before failing.
fn check(name: &str, f: fn(&[u8]), input: &[u8]) {
    if let Err(panic) = std::panic::catch_unwind(|| f(input)) {
        let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
        eprintln!(
            "{name}: property failed on input (hex, {} bytes):\n{hex}",
            input.len()
        );
        std::panic::resume_unwind(panic);
    }
}

struct Mutator {
    rng: SplitMix,
}

impl Mutator {
    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n)
    }

    /// One to four byte-level mutations of `v`, with tokens from `dict`
    /// and slices of `other`.
    fn mutate(&mut self, v: &mut Vec<u8>, dict: &[Vec<u8>], other: &[u8]) {
        for _ in 0..1 + self.below(4) {
            let at = self.below(v.len() + 1);
            match self.below(8) {
                0 if !v.is_empty() => {
                    let i = self.below(v.len());
                    v[i] ^= 1 << self.below(8);
                }
                1 if !v.is_empty() => {
                    let i = self.below(v.len());
                    v[i] = self.rng.next() as u8;
                }
                2 | 3 => {
                    let t = &dict[self.below(dict.len())];
                    v.splice(at..at, t.iter().copied());
                }
                4 if at < v.len() => {
                    let end = (at + 1 + self.below(16)).min(v.len());
                    v.drain(at..end);
                }
                5 if at < v.len() => {
                    let end = (at + 1 + self.below(32)).min(v.len());
                    let dup = v[at..end].to_vec();
                    v.splice(at..at, dup);
                }
                6 if !other.is_empty() => {
                    let a = self.below(other.len());
                    let b = (a + 1 + self.below(64)).min(other.len());
                    let end = (at + self.below(64)).min(v.len());
                    v.splice(at..end, other[a..b].iter().copied());
                }
                7 => v.truncate(at),
                _ => {}
            }
        }
    }

    fn splits(&mut self, len: usize) -> Vec<u16> {
        (0..self.below(5))
            .map(|_| self.below(len + 1).min(u16::MAX as usize) as u16)
            .collect()
    }
}

fn multipart_dict(boundary: &[u8]) -> Vec<Vec<u8>> {
    let b = boundary;
    let mut d: Vec<Vec<u8>> = [
        &b"\r\n"[..],
        b"\n",
        b"\r",
        b" ",
        b"\t",
        b"\0",
        b":",
        b";",
        b"\"",
        b"\\",
        b"-",
        b"--",
        b"\r\n\r\n",
        b"Content-Disposition: form-data; name=\"a\"\r\n",
        b"Content-Type: text/plain\r\n",
        b"; filename=\"f.txt\"",
        b"; name*=utf-8''x",
        b" \t\r\n x",
        b"\xc3\xa9\xff",
        b"Content-Disposition:\r\n",
        b"Content-Disposition: form-field; name=a\r\n",
        b"F\xc3\xb8\xc3\xb8: 1\r\n",
        b"--junk",
        b"; filename*0*=utf-8''a%20; filename*1=b",
        b";\xa0filename=x",
        b"\r\r",
    ]
    .iter()
    .map(|t| t.to_vec())
    .collect();
    for t in [
        &[b"\r\n--".as_slice(), b][..],
        &[b"--", b, b"--"],
        &[b"\r\n--", b, b"\r\n"],
        &[b"\n--", b, b"\n"],
        &[b"--", b],
        &[b"\r--", b, b"\r"],
        &[b"\r\n--", b, b"-x"],
        &[b"\r\n--", b, b"\rx"],
    ] {
        d.push(t.concat());
    }
    d
}

#[test]
fn multipart_chunked_seeded() {
    let seeds = multipart_seeds();
    let mut m = Mutator {
        rng: SplitMix(0x6d75_6c74_6970_6172),
    };
    // Every seed as it is: whole vs split in the middle, byte by byte, backpressure.
    for s in &seeds {
        let mid = (s.body.len() / 2) as u16;
        let input = props::multipart_input(
            s.flags | 16 | 32,
            s.more,
            [0; 4],
            &[mid, mid / 3],
            &s.content_type,
            &s.body,
        );
        check("multipart_chunked", props::multipart_chunked, &input);
    }
    for _ in 0..iterations(50) {
        let s = &seeds[m.below(seeds.len())];
        let other = &seeds[m.below(seeds.len())].body;
        let mut body = s.body.clone();
        body.truncate(4096);
        m.mutate(&mut body, &multipart_dict(&s.boundary), other);
        let mut flags = s.flags;
        let mut more = s.more;
        if m.below(4) == 0 {
            // allow_preamble, allow_lf, allow_obs_fold or allow_cr.
            flags ^= 1 << [0, 1, 2, 7][m.below(4)];
        }
        // The lenient flags of the `more` byte (MP-R-02): flipped one at a
        // time, or all drawn at random.
        match m.below(8) {
            0 => more ^= 1 << m.below(8),
            1 => more = m.rng.next() as u8,
            _ => {}
        }
        if more != 0 {
            flags |= 64;
        } else {
            flags &= !64;
        }
        if m.below(4) == 0 {
            flags |= 8;
        }
        if body.len() <= 1024 && m.below(2) == 0 {
            flags |= 16;
        }
        if m.below(2) == 0 {
            flags |= 32;
        }
        let limits = [
            m.rng.next() as u8,
            m.rng.next() as u8,
            m.rng.next() as u8,
            m.rng.next() as u8,
        ];
        let splits = m.splits(body.len());
        let input = props::multipart_input(flags, more, limits, &splits, &s.content_type, &body);
        check("multipart_chunked", props::multipart_chunked, &input);
    }
}

#[test]
fn urlencoded_seeded() {
    let seeds = urlencoded_seeds();
    let dict: Vec<Vec<u8>> = [
        "&", "=", "+", "%", "%2", "%C3%A9", "%zz", "\u{e9}", "&&", "%00", "\u{1}", "\r\n",
        "%E2%82", "\u{feff}",
    ]
    .iter()
    .map(|t| t.as_bytes().to_vec())
    .chain([vec![0xc3], vec![0xa9], vec![0xff]])
    .collect();
    let mut m = Mutator {
        rng: SplitMix(0x7572_6c65_6e63_6f64),
    };
    for s in &seeds {
        let mid = (s.len() / 2).min(u16::MAX as usize) as u16;
        check(
            "urlencoded",
            props::urlencoded,
            &props::urlencoded_input(0, [0; 2], &[mid], s),
        );
    }
    for _ in 0..iterations(25) {
        let mut body = seeds[m.below(seeds.len())].clone();
        body.truncate(4096);
        let other = seeds[m.below(seeds.len())].clone();
        m.mutate(&mut body, &dict, &other);
        let flags = u8::from(m.below(3) == 0);
        let limits = [m.rng.next() as u8, m.rng.next() as u8];
        let splits = m.splits(body.len());
        check(
            "urlencoded",
            props::urlencoded,
            &props::urlencoded_input(flags, limits, &splits, &body),
        );
    }
}

#[test]
fn encode_roundtrip_seeded() {
    let seeds = encode_seeds();
    let mut m = Mutator {
        rng: SplitMix(0x656e_636f_6465_7274),
    };
    for (flags, (boundary, entries)) in seeds.iter().enumerate() {
        let input = props::encode_input((flags % 8) as u8, boundary.as_bytes(), entries);
        check("encode_roundtrip", props::encode_roundtrip, &input);
    }
    let tokens = [
        "\r\n",
        "\n",
        "\r",
        "\"",
        "\0",
        "%22",
        "--",
        "\u{e9}",
        "\u{1f600}",
        " ",
        "\\",
        ";",
        "=",
        "\t",
    ];
    for _ in 0..iterations(25) {
        let (boundary, entries) = &seeds[m.below(seeds.len())];
        let mut boundary = boundary.clone();
        let mut entries = entries.clone();
        let flags = m.rng.next() as u8 & 31;
        if m.below(2) == 0 {
            // Structure-aware: grow strings and bodies with tokens, sometimes the delimiter itself.
            for _ in 0..1 + m.below(4) {
                let tok = match m.below(6) {
                    0 => format!("\r\n--{boundary}\r\n"),
                    _ => tokens[m.below(tokens.len())].to_owned(),
                };
                if entries.is_empty() || m.below(8) == 0 {
                    entries.push(Entry::Text {
                        name: tok.clone(),
                        value: tok.clone(),
                    });
                    continue;
                }
                let i = m.below(entries.len());
                let target: &mut String = match &mut entries[i] {
                    Entry::Text { name, value } => {
                        if m.below(2) == 0 {
                            name
                        } else {
                            value
                        }
                    }
                    Entry::File {
                        name,
                        filename,
                        content_type,
                        body,
                    } => match m.below(4) {
                        0 => name,
                        1 => filename,
                        2 => content_type,
                        _ => {
                            let at = m.below(body.len() + 1);
                            body.splice(at..at, tok.bytes());
                            continue;
                        }
                    },
                    Entry::Blob {
                        name, content_type, ..
                    } => {
                        if m.below(2) == 0 {
                            name
                        } else {
                            content_type
                        }
                    }
                };
                let mut at = m.below(target.len() + 1);
                while !target.is_char_boundary(at) {
                    at -= 1;
                }
                target.insert_str(at, &tok);
            }
            if m.below(8) == 0 {
                boundary = [
                    "",
                    "a",
                    " ",
                    "x y",
                    "a\"b",
                    &"z".repeat(71),
                    &"z".repeat(70),
                    "ab ",
                    "é",
                ][m.below(9)]
                .to_owned();
            }
            check(
                "encode_roundtrip",
                props::encode_roundtrip,
                &props::encode_input(flags, boundary.as_bytes(), &entries),
            );
        } else {
            let mut input = props::encode_input(flags, boundary.as_bytes(), &entries);
            let other = props::encode_input(0, b"", &seeds[m.below(seeds.len())].1);
            let dict: Vec<Vec<u8>> = tokens.iter().map(|t| t.as_bytes().to_vec()).collect();
            m.mutate(&mut input, &dict, &other);
            check("encode_roundtrip", props::encode_roundtrip, &input);
        }
    }
}

/// `FORMWIRE_FUZZ_REPLAY=<target>:<hex>` replays one input (a failure
/// printed above, or a crash file from `rust/fuzz/artifacts` via `xxd -p`).
#[test]
fn replay() {
    let Ok(spec) = std::env::var("FORMWIRE_FUZZ_REPLAY") else {
        return;
    };
    let (target, hex) = spec.split_once(':').expect("<target>:<hex>");
    let hex: Vec<u8> = hex.bytes().filter(u8::is_ascii_hexdigit).collect();
    let input: Vec<u8> = hex
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect();
    let f: fn(&[u8]) = match target {
        "multipart_chunked" => props::multipart_chunked,
        "urlencoded" => props::urlencoded,
        "encode_roundtrip" => props::encode_roundtrip,
        t => panic!("unknown target {t}"),
    };
    f(&input);
}

/// Found by `multipart_chunked` (backpressure run): `Feed::remaining()` is
/// documented as the unconsumed rest of the chunk, to be fed again, but
/// when the chunk crosses `max_total_bytes` it returns the rest of the chunk
/// cut at the limit. A caller that pauses and re-feeds `remaining()` loses
/// the bytes past the limit and gets `MP_TRUNCATED` at the limit instead of
/// `MP_LIMIT_TOTAL_BYTES` (MP-L-03; MP-P-08: chunking never changes the
/// result). Fixed in the core: `Feed` keeps the whole chunk for `remaining()`.
#[test]
fn remaining_keeps_bytes_past_max_total_bytes() {
    let body = b"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n--b--\r\n";
    let mut opts = formwire::multipart::Options::default();
    opts.max_total_bytes = 55;
    let mut p = formwire::multipart::Parser::new(b"b", opts).unwrap();
    let mut rest: &[u8] = body;
    let mut error = None;
    'outer: loop {
        let mut feed = p.feed(rest);
        // Pause after the first event (backpressure), then go on with what is left.
        match feed.next() {
            Some(Ok(_)) => rest = feed.remaining(),
            Some(Err(e)) => {
                error = Some(e);
                break 'outer;
            }
            None => break,
        }
        if rest.is_empty() {
            break;
        }
    }
    if error.is_none() {
        let mut end = p.finish();
        while let Some(ev) = end.next() {
            if let Err(e) = ev {
                error = Some(e);
            }
        }
    }
    assert_eq!(
        error,
        Some(formwire::Error::new(
            formwire::ErrorCode::MpLimitTotalBytes,
            55
        ))
    );
}
