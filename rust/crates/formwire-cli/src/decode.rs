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

pub const HELP: &str = "\
formwire decode [OPTIONS] [FILE|-]

Parses a multipart/form-data or application/x-www-form-urlencoded body from FILE (or standard input),
streaming, in constant memory, and prints its parts: name, filename, content type, size, sha256.

Options:
  --content-type CT     the request Content-Type. `multipart/form-data; boundary=...` or
                        `application/x-www-form-urlencoded`. Without it the body must be multipart and the
                        boundary is taken from its first line `--BOUNDARY`.
  --json                print {\"parts\":[{\"name\",\"filename\",\"content_type\",\"headers\",\"size\",\"sha256\"}]}
                        (urlencoded: {\"pairs\":[[name,value],...]}); errors as {\"error\":{...}} on stderr
  --lenient             all three lenient options below
  --allow-preamble      skip bytes before the first delimiter (RFC 2046 preamble)
  --allow-lf            accept bare LF line ends
  --allow-obs-fold      accept obs-fold continuation lines in part headers
  --limit NAME=VALUE    set a limit of spec/limits.md (max_parts, max_headers, max_header_bytes,
                        max_field_bytes, max_file_bytes, max_total_bytes, max_boundary_bytes; urlencoded:
                        max_pairs, max_bytes). VALUE: an integer, optionally with K/M/G/T, or `none`.
  --extract DIR         write file parts into DIR (which must not exist or be empty) under safe names,
                        fields into DIR/fields.json, and DIR/files.json mapping saved names to parts.
                        Nothing is left in DIR when the body is bad.
  --no-progress         no progress line (shown on a terminal for bodies over 64 MiB)

Exit codes: 0 ok, 1 I/O error, 2 bad input (code and byte offset, spec/errors.md), 64 bad usage.";

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
                    c.mp.allow_preamble = true;
                    c.mp.allow_lf = true;
                    c.mp.allow_obs_fold = true;
                }
                "--allow-preamble" | "--allow_preamble" => c.mp.allow_preamble = true,
                "--allow-lf" | "--allow_lf" => c.mp.allow_lf = true,
                "--allow-obs-fold" | "--allow_obs_fold" => c.mp.allow_obs_fold = true,
                "--limit" => {
                    let v = a.value_str()?;
                    let (name, value) = v
                        .split_once('=')
                        .ok_or_else(|| UsageError(format!("--limit wants NAME=VALUE, got `{v}`")))?;
                    let value = parse_size(value)?;
                    if !c.mp.set_limit(name, value) && !c.ue.set_limit(name, value) {
                        return Err(UsageError(format!("unknown limit `{name}` (see spec/limits.md)")));
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
    name: String,
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
        let name = part.name().into_owned();
        let filename = part.filename().map(|f| f.into_owned());
        let content_type = part.content_type().map(|c| String::from_utf8_lossy(c).into_owned());
        let headers = part.headers().map(|h| (h.name().to_owned(), h.value_str().into_owned())).collect();
        let saved_as = match &mut self.extract {
            Some(x) => x.start(&name, filename.as_deref(), content_type.as_deref()).map_err(io_err("--extract"))?,
            None => None,
        };
        self.hasher = Sha256::new();
        self.parts.push(PartInfo { name, filename, content_type, headers, size: 0, sha256: String::new(), saved_as });
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
        let Some(p) = self.parts.last_mut() else { return Ok(()) };
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

/// The boundary from the body's first delimiter line (`"--" B` then
/// optional padding and CRLF, MP-P-01/03), for bodies given without a
/// Content-Type. With `allow_preamble` the first line that starts with
/// `--` is taken. `eof` says `head` is the whole input.
///
/// A first line `--X--` is ambiguous: the close delimiter of boundary `X`
/// (an empty form) or the opening delimiter of boundary `X--`. It is read
/// as `X--` only when `--X--` occurs again later in `head`.
pub fn sniff_boundary(head: &[u8], allow_preamble: bool, eof: bool) -> Option<Vec<u8>> {
    let mut at = 0;
    loop {
        let rest = &head[at..];
        let lf = memchr_lf(rest);
        if lf.is_none() && !eof {
            return None;
        }
        let line = &rest[..lf.unwrap_or(rest.len())];
        if let Some(b) = line.strip_prefix(b"--") {
            let b = b.strip_suffix(b"\r").unwrap_or(b);
            let end = b.iter().rposition(|&c| c != b' ' && c != b'\t').map_or(0, |i| i + 1);
            let mut b = &b[..end];
            if let Some(short) = b.strip_suffix(b"--") {
                let again = [b"\n--".as_slice(), b].concat();
                if !short.is_empty() && memmem(&head[at + line.len()..], &again).is_none() {
                    b = short;
                }
            }
            return (!b.is_empty()).then(|| b.to_vec());
        }
        match lf {
            Some(i) if allow_preamble => at += i + 1,
            _ => return None,
        }
    }
}

fn memchr_lf(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'\n')
}

fn memmem(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

enum Kind {
    Multipart(Box<multipart::Parser>),
    Urlencoded(urlencoded::Parser),
}

pub fn run(argv: Vec<OsString>) -> Result<(), Failure> {
    let cfg = parse_args(argv)?;
    let from_stdin = cfg.input.as_deref().is_none_or(|p| p == "-");
    let (mut input, total): (Box<dyn Read>, Option<u64>) = if from_stdin {
        if cfg.input.is_none() && io::stdin().is_terminal() {
            return Err(Failure::Usage("no input: give a FILE, or `-` to read the terminal".into()));
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
        Some(ct) if MimeType::parse(ct).is_some_and(|m| m.essence() == "application/x-www-form-urlencoded") => {
            Kind::Urlencoded(urlencoded::Parser::new(cfg.ue.clone()))
        }
        Some(ct) => Kind::Multipart(Box::new(
            multipart::Parser::from_content_type(ct, cfg.mp.clone()).map_err(Failure::Input)?,
        )),
        None => {
            // Read until the first line is complete (or the buffer is full).
            loop {
                let n = read_some(&mut *input, &mut buf[filled..])?;
                filled += n;
                eof = n == 0;
                if eof || filled == CHUNK || (!cfg.mp.allow_preamble && buf[..filled].contains(&b'\n')) {
                    break;
                }
            }
            let Some(boundary) = sniff_boundary(&buf[..filled], cfg.mp.allow_preamble, eof) else {
                return Err(Failure::InputHint(
                    Error::new(ErrorCode::MpBoundary, 0),
                    "the body does not begin with a `--BOUNDARY` line; give --content-type",
                ));
            };
            Kind::Multipart(Box::new(multipart::Parser::new(&boundary, cfg.mp.clone()).map_err(Failure::Input)?))
        }
    };
    let mut progress = Progress::new("decode", total, cfg.progress);
    let extract = match &cfg.extract {
        Some(dir) => Some(Extractor::new(dir).map_err(|e| Failure::Io(format!("{}: {e}", dir.display())))?),
        None => None,
    };
    let result = match kind {
        Kind::Multipart(parser) => {
            multipart_body(parser, &mut *input, &mut buf, filled, eof, &mut progress, extract, &cfg)
        }
        Kind::Urlencoded(parser) => urlencoded_body(parser, &mut *input, &mut buf, &mut progress, extract, &cfg),
    };
    // The progress line goes away before the result is printed.
    progress.done();
    let out = result?;
    let mut stdout = io::stdout().lock();
    stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()).map_err(io_err("writing the result"))?;
    if cfg.stats {
        print_stats("decoded", progress.bytes(), progress.elapsed());
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn multipart_body(
    mut parser: Box<multipart::Parser>,
    input: &mut dyn Read,
    buf: &mut [u8],
    mut filled: usize,
    mut eof: bool,
    progress: &mut Progress,
    extract: Option<Extractor>,
    cfg: &Config,
) -> Result<String, Failure> {
    let mut sink = Sink { parts: Vec::new(), hasher: Sha256::new(), extract };
    loop {
        if filled > 0 {
            let mut feed = parser.feed(&buf[..filled]);
            while let Some(event) = feed.next() {
                match event.map_err(Failure::Input)? {
                    Event::PartStart(part) => sink.start(&part)?,
                    Event::Data(d) | Event::HeldData(d) => sink.data(d)?,
                    Event::PartEnd => sink.end()?,
                    Event::End => {}
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
    let mut feed = parser.finish();
    while let Some(event) = feed.next() {
        event.map_err(Failure::Input)?;
    }
    debug_assert!(parser.is_done());
    if let Some(x) = sink.extract.take() {
        x.commit().map_err(io_err("--extract"))?;
    }
    Ok(if cfg.json { parts_json(&sink.parts) } else { parts_table(&sink.parts, cfg.extract.is_some()) })
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
    let mut take = |pair: Result<urlencoded::Pair<'_>, Error>, x: &mut Option<Extractor>| -> Result<(), Failure> {
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
    Ok(if cfg.json { pairs_json(&pairs) } else { pairs_table(&pairs) })
}

fn parts_json(parts: &[PartInfo]) -> String {
    let mut j = String::from("{\"parts\":[");
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            j.push(',');
        }
        j.push_str("{\"name\":");
        json::push_string(&mut j, &p.name);
        j.push_str(",\"filename\":");
        j.push_str(&json::opt_string(p.filename.as_deref()));
        j.push_str(",\"content_type\":");
        j.push_str(&json::opt_string(p.content_type.as_deref()));
        j.push_str(",\"headers\":");
        json::push_pairs(&mut j, p.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        j.push_str(&format!(",\"size\":{},\"sha256\":\"{}\"}}", p.size, p.sha256));
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
                table::safe(&p.name),
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
                format!("{}… ({} bytes)", v.chars().take(SHOW).collect::<String>(), v.len())
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
        sniff_boundary(h.as_bytes(), pre, eof).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn sniffs_the_first_delimiter_line() {
        assert_eq!(sniff("--abc\r\nContent-", false, false).as_deref(), Some("abc"));
        assert_eq!(sniff("--abc \t\r\n", false, false).as_deref(), Some("abc"));
        assert_eq!(sniff("--a b\nx", false, false).as_deref(), Some("a b"));
        assert_eq!(sniff("--abc", false, false), None);
        assert_eq!(sniff("--abc", false, true).as_deref(), Some("abc"));
        assert_eq!(sniff("x--abc\r\n", false, true), None);
        assert_eq!(sniff("--\r\n", false, true), None);
        assert_eq!(sniff("", false, true), None);
        assert_eq!(sniff("preamble\r\n--abc\r\n", true, true).as_deref(), Some("abc"));
        assert_eq!(sniff("preamble\r\n--abc\r\n", false, true), None);
    }

    #[test]
    fn close_delimiter_first() {
        assert_eq!(sniff("--abc--\r\n", false, true).as_deref(), Some("abc"));
        assert_eq!(sniff("--abc--\r\nx\r\n--abc--\r\n", false, true).as_deref(), Some("abc--"));
        assert_eq!(sniff("----\r\n", false, true).as_deref(), Some("--"));
    }

    #[test]
    fn hex_digest() {
        assert_eq!(hex(&[0, 0xab, 0xff]), "00abff");
    }
}
