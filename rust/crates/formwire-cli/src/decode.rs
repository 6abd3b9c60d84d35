//! `formwire decode`: stream a body through the sans-IO parsers, 64 KiB at
//! a time, and report its parts (or pairs).

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;

use formwire::mime::MimeType;
use formwire::multipart::{self, Event, Part};
use formwire::{Error, ErrorCode, urlencoded};
use sha2::{Digest, Sha256};

use crate::args::{Arg, Args, UsageError, parse_size};
use crate::extract::Extractor;
use crate::progress::{Progress, print_stats};
use crate::{Failure, json, table};

/// Bytes read per `read` call; the only buffer whose size depends on the input.
const CHUNK: usize = 64 << 10;

const HELP: &str = "\
formwire decode [OPTIONS] [FILE|-]

Parses a multipart/form-data or application/x-www-form-urlencoded body from FILE (or standard input),
streaming, in constant memory, and prints its parts: name, filename, content type, size, sha256.

Options:
  --content-type CT     the request Content-Type. `multipart/form-data; boundary=...` or
                        `application/x-www-form-urlencoded`. Without it the body must be multipart and the
                        boundary is taken from its first line `--BOUNDARY`.
  --json                print {\"parts\":[{\"name\",\"filename\",\"content_type\",\"headers\",\"size\",\"sha256\"}]}
                        (urlencoded: {\"pairs\":[[name,value],...]}); errors as {\"error\":{...}} on stderr
  --lenient             all twelve lenient options below
  --allow-preamble      skip bytes before the first delimiter (RFC 2046 preamble)
  --allow-lf            accept bare LF line ends
  --allow-obs-fold      accept obs-fold continuation lines in part headers
  --allow-quoted-pairs  read Content-Disposition quoted-strings with quoted-pairs first (`\\\\` is one `\\`)
  --allow-missing-disposition
                        a part without Content-Disposition (or with an empty one) is a part without a name
                        (name null in --json; --extract leaves it out of fields.json)
  --allow-any-disposition-type
                        any token as the Content-Disposition type (`form-field`, `attachment`, ...)
  --allow-junk-after-close
                        ignore every byte after the close delimiter `--BOUNDARY--`
  --allow-utf8-header-names
                        accept bytes 80-FF in part header names
  --allow-cr            accept bare CR line ends; a body also ends at CR--BOUNDARY
  --allow-near-delimiters
                        read `--BOUNDARY-x` and `--BOUNDARY` CR x inside a body as body data
  --allow-8bit-parameter-names
                        ignore a Content-Disposition parameter whose name holds bytes 80-FF
  --allow-rfc2231-continuations
                        without filename, join filename*0, filename*1*, ... into the filename
  --limit NAME=VALUE    set a limit (names and defaults below). VALUE: an integer, optionally with
                        K/M/G/T, or `none` (off).
  --extract DIR         write file parts into DIR (which must not exist or be empty) under safe names,
                        fields into DIR/fields.json, and DIR/files.json mapping saved names to parts.
                        Nothing is left in DIR when the body is bad.
  --no-progress         no progress line (shown on a terminal for bodies over 64 MiB)

Exit codes: 0 ok, 1 I/O error, 2 bad input (code and byte offset, spec/errors.md), 64 bad usage.";

/// The decode help, with every limit's name from the generated registry constants.
pub fn help() -> String {
    format!("{HELP}\n\n{}", limits_text())
}

/// The limit names `--limit` takes, per format, from the generated registry constants.
fn limits_text() -> String {
    format!(
        "Limits (--limit NAME=VALUE; defaults and reasons in spec/limits.md):\n  multipart:  {}\n  urlencoded: {}",
        formwire::registry::multipart::LIMITS.join(", "),
        formwire::registry::urlencoded::LIMITS.join(", ")
    )
}

struct Config {
    content_type: Option<String>,
    mp: multipart::Options,
    ue: urlencoded::Options,
    json: bool,
    extract: Option<PathBuf>,
    input: Option<OsString>,
    stats: bool,
    progress: bool,
}

fn parse_args(argv: Vec<OsString>) -> Result<Config, UsageError> {
    let mut c = Config {
        content_type: None,
        mp: multipart::Options::default(),
        ue: urlencoded::Options::default(),
        json: false,
        extract: None,
        input: None,
        stats: false,
        progress: true,
    };
    let mut a = Args::new(argv);
    while let Some(arg) = a.next()? {
        match arg {
            Arg::Pos(p) => {
                if c.input.is_some() {
                    return Err(UsageError("decode takes one input file".into()));
                }
                c.input = Some(p);
            }
            Arg::Opt(o) => match o.as_str() {
                "--content-type" | "-t" => c.content_type = Some(a.value_str()?),
                "--json" => c.json = true,
                "--lenient" => {
                    for name in formwire::registry::multipart::FLAGS {
                        c.mp.set_flag(name, true);
                    }
                }
                "--allow-preamble" | "--allow_preamble" => c.mp.allow_preamble = true,
                "--allow-lf" | "--allow_lf" => c.mp.allow_lf = true,
                "--allow-obs-fold" | "--allow_obs_fold" => c.mp.allow_obs_fold = true,
                "--allow-quoted-pairs" | "--allow_quoted_pairs" => c.mp.allow_quoted_pairs = true,
                "--allow-missing-disposition" | "--allow_missing_disposition" => {
                    c.mp.allow_missing_disposition = true
                }
                "--allow-any-disposition-type" | "--allow_any_disposition_type" => {
                    c.mp.allow_any_disposition_type = true
                }
                "--allow-junk-after-close" | "--allow_junk_after_close" => {
                    c.mp.allow_junk_after_close = true
                }
                "--allow-utf8-header-names" | "--allow_utf8_header_names" => {
                    c.mp.allow_utf8_header_names = true
                }
                "--allow-cr" | "--allow_cr" => c.mp.allow_cr = true,
                "--allow-near-delimiters" | "--allow_near_delimiters" => {
                    c.mp.allow_near_delimiters = true
                }
                "--allow-8bit-parameter-names" | "--allow_8bit_parameter_names" => {
                    c.mp.allow_8bit_parameter_names = true
                }
                "--allow-rfc2231-continuations" | "--allow_rfc2231_continuations" => {
                    c.mp.allow_rfc2231_continuations = true
                }
                "--limit" => {
                    let v = a.value_str()?;
                    let (name, value) = v.split_once('=').ok_or_else(|| {
                        UsageError(format!("--limit wants NAME=VALUE, got `{v}`"))
                    })?;
                    let value = parse_size(value)?;
                    if !c.mp.set_limit(name, value) && !c.ue.set_limit(name, value) {
                        let names: Vec<&str> = formwire::registry::multipart::LIMITS
                            .iter()
                            .chain(formwire::registry::urlencoded::LIMITS)
                            .copied()
                            .collect();
                        return Err(UsageError(format!(
                            "unknown limit `{name}`; the limits are: {}",
                            names.join(", ")
                        )));
                    }
                }
                "--extract" => c.extract = Some(PathBuf::from(a.value()?)),
                "--stats" => c.stats = true,
                "--no-progress" => c.progress = false,
                other => return Err(UsageError(format!("decode: unknown option `{other}`"))),
            },
        }
    }
    Ok(c)
}

/// What the parts table and `--json` show for one part.
struct PartInfo {
    /// `None` for a part without a name (`allow_missing_disposition`, MP-H-06).
    name: Option<String>,
    filename: Option<String>,
    content_type: Option<String>,
    headers: Vec<(String, String)>,
    size: u64,
    sha256: String,
    saved_as: Option<String>,
}

/// Receives the parse events of a multipart body.
struct Sink {
    parts: Vec<PartInfo>,
    hasher: Sha256,
    extract: Option<Extractor>,
}

impl Sink {
    fn start(&mut self, part: &Part<'_>) -> Result<(), Failure> {
        let name = part.has_name().then(|| part.name().into_owned());
        let filename = part.filename().map(|f| f.into_owned());
        let content_type = part
            .content_type()
            .map(|c| String::from_utf8_lossy(c).into_owned());
        let headers = part
            .headers()
            .map(|h| (h.name().to_owned(), h.value_str().into_owned()))
            .collect();
        let saved_as = match (&mut self.extract, &name) {
            // MP-F-05: a part without a name is no entry of fields.json (it
            // has no filename, so it is never a file either).
            (Some(x), Some(name)) => x
                .start(name, filename.as_deref(), content_type.as_deref())
                .map_err(io_err("--extract"))?,
            _ => None,
        };
        self.hasher = Sha256::new();
        self.parts.push(PartInfo {
            name,
            filename,
            content_type,
            headers,
            size: 0,
            sha256: String::new(),
            saved_as,
        });
        Ok(())
    }

    #[inline]
    fn data(&mut self, d: &[u8]) -> Result<(), Failure> {
        self.hasher.update(d);
        if let Some(p) = self.parts.last_mut() {
            p.size += d.len() as u64;
        }
        if let Some(x) = &mut self.extract {
            x.data(d).map_err(io_err("--extract"))?;
        }
        Ok(())
    }

    fn end(&mut self) -> Result<(), Failure> {
        let digest = hex(&std::mem::take(&mut self.hasher).finalize());
        let Some(p) = self.parts.last_mut() else {
            return Ok(());
        };
        p.sha256 = digest;
        if let Some(x) = &mut self.extract {
            x.end(p.size, &p.sha256).map_err(io_err("--extract"))?;
        }
        Ok(())
    }
}

fn hex(bytes: &[u8]) -> String {
    const H: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(H[(b >> 4) as usize] as char);
        s.push(H[(b & 15) as usize] as char);
    }
    s
}

fn io_err(what: &'static str) -> impl Fn(io::Error) -> Failure {
    move |e| Failure::Io(format!("{what}: {e}"))
}

/// `read` that retries on `Interrupted`.
fn read_some(r: &mut dyn Read, buf: &mut [u8]) -> Result<usize, Failure> {
    loop {
        match r.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Io(format!("reading the input: {e}"))),
        }
    }
}

/// What the body's first delimiter line says about its boundary.
#[derive(Debug, PartialEq, Eq)]
pub struct Sniffed {
    /// `B` of the first line `"--" B` (padding and line end removed).
    pub boundary: Vec<u8>,
    /// The line is `"--" X "--"`: also the close delimiter of boundary `X`
    /// (an empty form). The body is read with `boundary` (`X--`); the
    /// empty-form reading is taken only when that fails and nothing but
    /// SP, HT, CR and LF follows the line.
    pub close_reading: bool,
    /// Offset just past the first delimiter line (after its LF, or the end
    /// of `head`).
    pub line_end: usize,
}

/// The boundary from the body's first delimiter line (`"--" B` then
/// optional padding and CRLF, MP-P-01/03), for bodies given without a
/// Content-Type. With `allow_preamble` the first line that starts with
/// `--` is taken. `eof` says `head` is the whole input; otherwise the line
/// must be complete in `head` (`None` asks for more). With `allow_cr` a
/// bare CR ends a line too (MP-P-03).
///
/// The decision never depends on how much of the body `head` holds beyond
/// that line, so it does not depend on how the input arrives.
pub fn sniff_boundary(
    head: &[u8],
    allow_preamble: bool,
    allow_cr: bool,
    eof: bool,
) -> Option<Sniffed> {
    let mut at = 0;
    loop {
        let rest = &head[at..];
        // The index of the line's last byte: its LF, or its bare CR.
        let lf = match memchr_lf(rest) {
            lf if !allow_cr => lf,
            lf => match rest.iter().position(|&b| b == b'\r') {
                Some(cr) if lf.is_none_or(|lf| cr + 1 < lf) => {
                    if cr + 1 == rest.len() && !eof {
                        // CRLF or a bare CR: the next byte says.
                        return None;
                    }
                    Some(cr)
                }
                _ => lf,
            },
        };
        if lf.is_none() && !eof {
            return None;
        }
        let line = &rest[..lf.unwrap_or(rest.len())];
        if let Some(b) = line.strip_prefix(b"--") {
            let b = b.strip_suffix(b"\r").unwrap_or(b);
            let end = b
                .iter()
                .rposition(|&c| c != b' ' && c != b'\t')
                .map_or(0, |i| i + 1);
            let b = &b[..end];
            let close_reading = b.strip_suffix(b"--").is_some_and(|x| !x.is_empty());
            let line_end = at + lf.map_or(rest.len(), |i| i + 1);
            return (!b.is_empty()).then(|| Sniffed {
                boundary: b.to_vec(),
                close_reading,
                line_end,
            });
        }
        match lf {
            Some(i) if allow_preamble => at += i + 1,
            _ => return None,
        }
    }
}

/// The longest first line worth waiting for when sniffing without
/// `allow_preamble`: `"--" B "--"`, some transport padding, CRLF. A longer
/// line without an LF is `MP_LIMIT_BOUNDARY` (MP-B-04), never a guess.
fn first_line_limit(o: &multipart::Options) -> usize {
    const PADDING: u64 = 64;
    usize::try_from(o.max_boundary_bytes.saturating_add(6 + PADDING)).unwrap_or(usize::MAX)
}

fn memchr_lf(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'\n')
}

enum Kind {
    /// The parser, and for a sniffed `--X--` first line the parser of the
    /// empty-form reading (boundary `X`) with where that line ends.
    Multipart(
        Box<multipart::Parser>,
        Option<(Box<multipart::Parser>, usize)>,
    ),
    Urlencoded(urlencoded::Parser),
}

pub fn run(argv: Vec<OsString>) -> Result<(), Failure> {
    let cfg = parse_args(argv)?;
    let from_stdin = cfg.input.as_deref().is_none_or(|p| p == "-");
    let (mut input, total): (Box<dyn Read>, Option<u64>) = if from_stdin {
        if cfg.input.is_none() && io::stdin().is_terminal() {
            return Err(Failure::Usage(
                "no input: give a FILE, or `-` to read the terminal".into(),
            ));
        }
        (Box::new(io::stdin().lock()), None)
    } else {
        let path = PathBuf::from(cfg.input.clone().unwrap_or_default());
        let f = File::open(&path).map_err(|e| Failure::Io(format!("{}: {e}", path.display())))?;
        let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        (Box::new(f), len)
    };
    let mut buf = vec![0u8; CHUNK];
    let mut filled = 0;
    let mut eof = false;
    let kind = match &cfg.content_type {
        Some(ct)
            if MimeType::parse(ct)
                .is_some_and(|m| m.essence() == "application/x-www-form-urlencoded") =>
        {
            Kind::Urlencoded(urlencoded::Parser::new(cfg.ue.clone()))
        }
        Some(ct) => Kind::Multipart(
            Box::new(
                multipart::Parser::from_content_type(ct, cfg.mp.clone()).map_err(Failure::Input)?,
            ),
            None,
        ),
        None => {
            // Read until the first line is complete, however the input
            // arrives (a pipe may deliver it in pieces); without a preamble
            // that line is bounded by max_boundary_bytes.
            let limit = if cfg.mp.allow_preamble {
                CHUNK
            } else {
                first_line_limit(&cfg.mp)
            };
            loop {
                if filled == buf.len() {
                    if buf.len() >= limit {
                        break;
                    }
                    buf.resize(buf.len().saturating_mul(2).min(limit), 0);
                }
                let n = read_some(&mut *input, &mut buf[filled..])?;
                filled += n;
                eof = n == 0;
                if eof || (!cfg.mp.allow_preamble && buf[..filled].contains(&b'\n')) {
                    break;
                }
            }
            let Some(sniffed) =
                sniff_boundary(&buf[..filled], cfg.mp.allow_preamble, cfg.mp.allow_cr, eof)
            else {
                if !cfg.mp.allow_preamble && filled >= limit && buf[..filled].starts_with(b"--") {
                    return Err(Failure::InputHint(
                        Error::new(ErrorCode::MpLimitBoundary, 0),
                        "the first line is longer than max_boundary_bytes allows; give --content-type or raise it",
                    ));
                }
                return Err(Failure::InputHint(
                    Error::new(ErrorCode::MpBoundary, 0),
                    "the body does not begin with a `--BOUNDARY` line; give --content-type",
                ));
            };
            let parser = multipart::Parser::new(&sniffed.boundary, cfg.mp.clone());
            let short = sniffed.boundary.len().saturating_sub(2);
            let empty = sniffed
                .close_reading
                .then(|| multipart::Parser::new(&sniffed.boundary[..short], cfg.mp.clone()).ok())
                .flatten();
            match (parser, empty) {
                (Ok(p), e) => {
                    Kind::Multipart(Box::new(p), e.map(|e| (Box::new(e), sniffed.line_end)))
                }
                // `X--` is over the limit but `X` is not: only the empty form is left to read.
                (Err(_), Some(e)) => Kind::Multipart(Box::new(e), None),
                (Err(err), None) => return Err(Failure::Input(err)),
            }
        }
    };
    let mut progress = Progress::new("decode", total, cfg.progress);
    let extract = match &cfg.extract {
        Some(dir) => {
            Some(Extractor::new(dir).map_err(|e| Failure::Io(format!("{}: {e}", dir.display())))?)
        }
        None => None,
    };
    let result = match kind {
        Kind::Multipart(parser, empty) => multipart_body(
            parser,
            empty,
            &mut *input,
            &mut buf,
            filled,
            eof,
            &mut progress,
            extract,
            &cfg,
        ),
        Kind::Urlencoded(parser) => {
            urlencoded_body(parser, &mut *input, &mut buf, &mut progress, extract, &cfg)
        }
    };
    // The progress line goes away before the result is printed.
    progress.done();
    let out = result?;
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::stdout("writing the result", &e))?;
    if cfg.stats {
        print_stats("decoded", progress.bytes(), progress.elapsed());
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn multipart_body(
    mut parser: Box<multipart::Parser>,
    empty: Option<(Box<multipart::Parser>, usize)>,
    input: &mut dyn Read,
    buf: &mut [u8],
    mut filled: usize,
    mut eof: bool,
    progress: &mut Progress,
    extract: Option<Extractor>,
    cfg: &Config,
) -> Result<String, Failure> {
    let mut sink = Sink {
        parts: Vec::new(),
        hasher: Sha256::new(),
        extract,
    };
    // A sniffed `--X--` first line: `X--` is read, and the empty form of
    // boundary `X` is the answer only when that reading fails and nothing
    // but SP/HT/CR/LF follows the line (which the `X` parser also checks,
    // limits included). Never an empty form for a body with content.
    let (mut empty, mut skip) = match empty {
        Some((p, line_end)) => (Some(p), line_end),
        None => (None, 0),
    };
    let mut failed: Option<Error> = None;
    loop {
        if filled > 0 {
            let chunk = &buf[..filled];
            if failed.is_none() {
                if let Err(e) = feed_all(&mut parser, chunk, &mut sink) {
                    match e {
                        Failure::Input(err) if empty.is_some() => failed = Some(err),
                        e => return Err(e),
                    }
                }
            }
            if let Some(p) = empty.as_deref_mut() {
                let from = skip.min(chunk.len());
                skip -= from;
                let blank = chunk[from..]
                    .iter()
                    .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
                if !(blank && feed_ok(p, chunk)) {
                    empty = None;
                    if let Some(err) = failed {
                        return Err(Failure::Input(err));
                    }
                }
            }
            progress.add(filled);
        }
        if eof {
            break;
        }
        filled = read_some(input, buf)?;
        eof = filled == 0;
    }
    match failed {
        None => {
            let mut feed = parser.finish();
            while let Some(event) = feed.next() {
                if let Err(err) = event {
                    return match empty.as_deref_mut().is_some_and(finished_ok) {
                        true => empty_form(cfg, sink),
                        false => Err(Failure::Input(err)),
                    };
                }
            }
            debug_assert!(parser.is_done());
        }
        Some(err) => {
            return match empty.as_deref_mut().is_some_and(finished_ok) {
                true => empty_form(cfg, sink),
                false => Err(Failure::Input(err)),
            };
        }
    }
    if let Some(x) = sink.extract.take() {
        x.commit().map_err(io_err("--extract"))?;
    }
    Ok(if cfg.json {
        parts_json(&sink.parts)
    } else {
        parts_table(&sink.parts, cfg.extract.is_some())
    })
}

/// Feeds one chunk to `parser`, passing its events to `sink`.
fn feed_all(parser: &mut multipart::Parser, chunk: &[u8], sink: &mut Sink) -> Result<(), Failure> {
    let mut feed = parser.feed(chunk);
    while let Some(event) = feed.next() {
        match event.map_err(Failure::Input)? {
            Event::PartStart(part) => sink.start(&part)?,
            Event::Data(d) | Event::HeldData(d) => sink.data(d)?,
            Event::PartEnd => sink.end()?,
            Event::End => {}
        }
    }
    Ok(())
}

/// Feeds one chunk to `parser`, ignoring its events: `false` on an error.
fn feed_ok(parser: &mut multipart::Parser, chunk: &[u8]) -> bool {
    let mut feed = parser.feed(chunk);
    while let Some(ev) = feed.next() {
        if ev.is_err() {
            return false;
        }
    }
    true
}

/// Ends `parser`'s input: `true` when its form is complete.
fn finished_ok(parser: &mut multipart::Parser) -> bool {
    let mut feed = parser.finish();
    while let Some(ev) = feed.next() {
        if ev.is_err() {
            return false;
        }
    }
    parser.is_done()
}

/// The result for the empty-form reading of a `--X--` first line (no part
/// reached the sink: blank bytes never start one).
fn empty_form(cfg: &Config, mut sink: Sink) -> Result<String, Failure> {
    debug_assert!(sink.parts.is_empty());
    if let Some(x) = sink.extract.take() {
        x.commit().map_err(io_err("--extract"))?;
    }
    Ok(if cfg.json {
        parts_json(&[])
    } else {
        parts_table(&[], cfg.extract.is_some())
    })
}

fn urlencoded_body(
    mut parser: urlencoded::Parser,
    input: &mut dyn Read,
    buf: &mut [u8],
    progress: &mut Progress,
    mut extract: Option<Extractor>,
    cfg: &Config,
) -> Result<String, Failure> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut take = |pair: Result<urlencoded::Pair<'_>, Error>,
                    x: &mut Option<Extractor>|
     -> Result<(), Failure> {
        let (n, v) = pair.map_err(Failure::Input)?;
        if let Some(x) = x {
            x.start(&n, None, None)
                .and_then(|_| x.data(v.as_bytes()))
                .and_then(|_| x.end(v.len() as u64, ""))
                .map_err(io_err("--extract"))?;
        }
        pairs.push((n.into_owned(), v.into_owned()));
        Ok(())
    };
    loop {
        let n = read_some(input, buf)?;
        if n == 0 {
            break;
        }
        let mut feed = parser.feed(&buf[..n]);
        while let Some(pair) = feed.next() {
            take(pair, &mut extract)?;
        }
        progress.add(n);
    }
    let mut feed = parser.finish();
    while let Some(pair) = feed.next() {
        take(pair, &mut extract)?;
    }
    if let Some(x) = extract {
        x.commit().map_err(io_err("--extract"))?;
    }
    Ok(if cfg.json {
        pairs_json(&pairs)
    } else {
        pairs_table(&pairs)
    })
}

fn parts_json(parts: &[PartInfo]) -> String {
    let mut j = String::from("{\"parts\":[");
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            j.push(',');
        }
        j.push_str("{\"name\":");
        j.push_str(&json::opt_string(p.name.as_deref()));
        j.push_str(",\"filename\":");
        j.push_str(&json::opt_string(p.filename.as_deref()));
        j.push_str(",\"content_type\":");
        j.push_str(&json::opt_string(p.content_type.as_deref()));
        j.push_str(",\"headers\":");
        json::push_pairs(
            &mut j,
            p.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())),
        );
        j.push_str(&format!(
            ",\"size\":{},\"sha256\":\"{}\"}}",
            p.size, p.sha256
        ));
    }
    j.push_str("]}\n");
    j
}

fn parts_table(parts: &[PartInfo], saved: bool) -> String {
    let dash = || "-".to_owned();
    let rows: Vec<Vec<String>> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut row = vec![
                (i + 1).to_string(),
                p.name.as_deref().map_or_else(dash, table::safe),
                p.filename.as_deref().map_or_else(dash, table::safe),
                p.content_type.as_deref().map_or_else(dash, table::safe),
                p.size.to_string(),
                p.sha256.clone(),
            ];
            if saved {
                row.push(p.saved_as.as_deref().map_or_else(dash, table::safe));
            }
            row
        })
        .collect();
    let mut header = vec!["#", "name", "filename", "content type", "size", "sha256"];
    if saved {
        header.push("saved as");
    }
    table::render(&header, &rows, &[0, 4])
}

fn pairs_json(pairs: &[(String, String)]) -> String {
    let mut j = String::from("{\"pairs\":");
    json::push_pairs(&mut j, pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    j.push_str("}\n");
    j
}

fn pairs_table(pairs: &[(String, String)]) -> String {
    const SHOW: usize = 60;
    let rows: Vec<Vec<String>> = pairs
        .iter()
        .enumerate()
        .map(|(i, (n, v))| {
            let shown = if v.chars().count() > SHOW {
                format!(
                    "{}… ({} bytes)",
                    v.chars().take(SHOW).collect::<String>(),
                    v.len()
                )
            } else {
                v.clone()
            };
            vec![(i + 1).to_string(), table::safe(n), table::safe(&shown)]
        })
        .collect();
    table::render(&["#", "name", "value"], &rows, &[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniff(h: &str, pre: bool, eof: bool) -> Option<String> {
        sniff_boundary(h.as_bytes(), pre, false, eof)
            .map(|s| String::from_utf8(s.boundary).unwrap())
    }

    #[test]
    fn sniffs_the_first_delimiter_line() {
        assert_eq!(
            sniff("--abc\r\nContent-", false, false).as_deref(),
            Some("abc")
        );
        assert_eq!(sniff("--abc \t\r\n", false, false).as_deref(), Some("abc"));
        assert_eq!(sniff("--a b\nx", false, false).as_deref(), Some("a b"));
        assert_eq!(sniff("--abc", false, false), None);
        assert_eq!(sniff("--abc", false, true).as_deref(), Some("abc"));
        assert_eq!(sniff("x--abc\r\n", false, true), None);
        assert_eq!(sniff("--\r\n", false, true), None);
        assert_eq!(sniff("", false, true), None);
        assert_eq!(
            sniff("preamble\r\n--abc\r\n", true, true).as_deref(),
            Some("abc")
        );
        assert_eq!(sniff("preamble\r\n--abc\r\n", false, true), None);
        let s = sniff_boundary(b"pre\r\n--abc\r\nrest", true, false, false).unwrap();
        assert_eq!((s.close_reading, s.line_end), (false, 12));
    }

    #[test]
    fn sniffs_a_bare_cr_line_end_with_allow_cr() {
        let cr = |h: &str, pre: bool, eof: bool| {
            sniff_boundary(h.as_bytes(), pre, true, eof)
                .map(|s| (String::from_utf8(s.boundary).unwrap(), s.line_end))
        };
        assert_eq!(cr("--abc\rContent-", false, false), Some(("abc".into(), 6)));
        assert_eq!(
            cr("--abc\r\nContent-", false, false),
            Some(("abc".into(), 7))
        );
        assert_eq!(cr("--abc \rx", false, false), Some(("abc".into(), 7)));
        // A CR at the end of `head`: CRLF or a bare CR, the next byte says.
        assert_eq!(cr("--abc\r", false, false), None);
        assert_eq!(cr("--abc\r", false, true), Some(("abc".into(), 6)));
        assert_eq!(cr("pre\r--abc\rx", true, false), Some(("abc".into(), 10)));
        assert_eq!(cr("pre\r--abc\rx", false, true), None);
        // Without allow_cr a bare CR is part of the line.
        assert_eq!(
            sniff("--abc\rx\r\n", false, true).as_deref(),
            Some("abc\rx")
        );
    }

    #[test]
    fn close_delimiter_first_is_read_as_the_longer_boundary() {
        // `--X--` is `X--` with the empty form of `X` as the fallback, whatever
        // follows it in `head` (the old guess looked ahead, so it depended on
        // how much the first read returned).
        for head in [
            "--abc--\r\n",
            "--abc--\r\nx\r\n--abc--\r\n",
            "--abc--\r\nContent-",
        ] {
            let s = sniff_boundary(head.as_bytes(), false, false, true).unwrap();
            assert_eq!(
                (s.boundary.as_slice(), s.close_reading, s.line_end),
                (&b"abc--"[..], true, 9),
                "{head:?}"
            );
        }
        let s = sniff_boundary(b"----\r\n", false, false, true).unwrap();
        assert_eq!(
            (s.boundary.as_slice(), s.close_reading),
            (&b"--"[..], false)
        );
        let s = sniff_boundary(b"--abc-- \t", false, false, true).unwrap();
        assert_eq!(
            (s.boundary.as_slice(), s.close_reading, s.line_end),
            (&b"abc--"[..], true, 9)
        );
    }

    #[test]
    fn hex_digest() {
        assert_eq!(hex(&[0, 0xab, 0xff]), "00abff");
    }
}
