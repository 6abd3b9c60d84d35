//! `formwire encode`: a multipart/form-data body from curl-style `-F`
//! specs. File bodies are streamed through the encoder's reader path, never
//! loaded; the Content-Length is known up front from the files' sizes.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use formwire::multipart::{Body, Encoder};

use crate::Failure;
use crate::args::{Arg, Args, UsageError, parse_size};
use crate::progress::{Progress, print_stats};

pub const HELP: &str = "\
formwire encode -F SPEC... [--boundary B] [-o FILE]

Writes a multipart/form-data body (WHATWG bytes) to standard output or FILE, and prints
`Content-Type: ...` and `Content-Length: N` on standard error. File bodies are streamed.

  -F name=value                a text field; the value is taken literally (as curl's --form-string)
  --form-string name=value     the same, spelled as curl spells it
  -F name=@path[;type=T][;filename=F][;headers=H][;size=N]
                               a file part streamed from path (`-` for standard input). Defaults: the
                               type guessed from the extension (else application/octet-stream), the
                               filename the path's last component (`blob` for standard input).
                               headers=H adds the header line H (`Name: value`; repeatable);
                               headers=@FILE adds FILE's lines (empty and `#` lines skipped).
                               size=N (formwire extension): send exactly the first N bytes of path, so
                               that pipes and devices get a Content-Length too.
  -F name=@a[;...],b[;...]     one file part per path, all named name, each with its own parameters
  -F name=<path[;type=T][;filename=F][;headers=H]
                               a field whose value is the content of path (UTF-8, line ends made CRLF);
                               with parameters, the content as it is with that type and those headers
                               (with filename=, a file part)
                               path, T, F and H may be double-quoted to hold `;` or `,` (\\\" and \\\\ escape).

  Differences from curl: a plain name=value is always literal (curl reads `;type=` etc. in it; use
  name=<file for that); name=@a,b sends one part per file, as a browser's <input multiple> does,
  where curl nests them in a multipart/mixed part that form parsers do not read; `;encoder=` is
  not supported.
  --boundary B                 the boundary (1-70 of [0-9A-Za-z'()+_,-./:=? ], not ending in a space);
                               default: a random one
  -o, --output FILE            write the body to FILE instead of standard output
  --no-progress                no progress line (shown on a terminal for bodies over 64 MiB)";

/// The `;key=value` parameters of a `-F` entry.
#[derive(Debug, PartialEq, Default)]
struct Params {
    content_type: Option<String>,
    filename: Option<String>,
    /// `Name: value` lines, from `;headers=` (inline or `@file`).
    headers: Vec<String>,
    size: Option<u64>,
}

/// One part to send (a `-F name=@a,b` entry gives one per file).
#[derive(Debug, PartialEq)]
enum Spec {
    Text {
        name: String,
        value: String,
    },
    TextFile {
        name: String,
        path: String,
        params: Params,
    },
    File {
        name: String,
        path: String,
        params: Params,
    },
}

/// Reads a possibly double-quoted item up to the next unquoted byte of `stops`.
/// Returns the item and the rest (starting at that stop, or empty).
fn item<'s>(s: &'s str, stops: &[char]) -> Result<(String, &'s str), UsageError> {
    if let Some(q) = s.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = q.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, e)) => out.push(e),
                    None => break,
                },
                '"' => {
                    let rest = &q[i + 1..];
                    if !(rest.is_empty() || rest.starts_with(stops)) {
                        return Err(UsageError(format!("junk after a quoted item: `{rest}`")));
                    }
                    return Ok((out, rest));
                }
                c => out.push(c),
            }
        }
        Err(UsageError(format!("unterminated quote in `{s}`")))
    } else {
        let end = s.find(stops).unwrap_or(s.len());
        Ok((s[..end].to_owned(), &s[end..]))
    }
}

/// `;headers=@file`: the file's lines, skipping empty ones and `#` comments, as curl does.
fn header_file(path: &str) -> Result<Vec<String>, UsageError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| UsageError(format!("headers=@{path}: {e}")))?;
    Ok(text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

/// Reads `;key=value` parameters up to the end or (for `@` lists) an unquoted `,`.
fn params<'s>(
    spec: &str,
    mut rest: &'s str,
    stops: &[char],
) -> Result<(Params, &'s str), UsageError> {
    let mut p = Params::default();
    while let Some(kv) = rest.strip_prefix(';') {
        let (key, after) = kv
            .split_once('=')
            .ok_or_else(|| UsageError(format!("-F `{spec}`: bad parameter `{kv}`")))?;
        let (value, next) = item(after, stops)?;
        rest = next;
        match key.trim() {
            "type" => p.content_type = Some(value),
            "filename" => p.filename = Some(value),
            "headers" => match value.strip_prefix('@') {
                Some(path) => p.headers.extend(header_file(path)?),
                None => p.headers.push(value),
            },
            "size" => {
                p.size = Some(
                    parse_size(&value)?
                        .ok_or_else(|| UsageError("size=none is not a size".into()))?,
                )
            }
            k => {
                return Err(UsageError(format!(
                    "-F `{spec}`: unsupported parameter `{k}`"
                )));
            }
        }
    }
    if let Some(h) = p
        .headers
        .iter()
        .find(|h| h.find(':').is_none_or(|i| i == 0))
    {
        return Err(UsageError(format!(
            "-F `{spec}`: header `{h}` is not `Name: value`"
        )));
    }
    Ok((p, rest))
}

/// curl's `-F` syntax: `name=value` (literal, as `--form-string`), `name=<path[;params]`,
/// `name=@path[;params][,path[;params]]...`; params `type=`, `filename=`, `headers=`
/// (repeatable; `@file` reads lines), `size=` (formwire's).
fn parse_spec(spec: &str) -> Result<Vec<Spec>, UsageError> {
    let (name, rhs) = spec.split_once('=').ok_or_else(|| {
        UsageError(format!(
            "-F wants name=value, name=@file or name=<file, got `{spec}`"
        ))
    })?;
    let name = name.to_owned();
    match rhs.as_bytes().first() {
        Some(b'@') => {
            let mut out = Vec::new();
            let mut rest = &rhs[1..];
            loop {
                let (path, after) = item(rest, &[';', ','])?;
                if path.is_empty() {
                    return Err(UsageError(format!("-F `{spec}`: empty path")));
                }
                let (params, after) = params(spec, after, &[';', ','])?;
                out.push(Spec::File {
                    name: name.clone(),
                    path,
                    params,
                });
                match after.strip_prefix(',') {
                    Some(next) => rest = next,
                    None => break,
                }
            }
            Ok(out)
        }
        Some(b'<') => {
            let (path, after) = item(&rhs[1..], &[';'])?;
            if path.is_empty() {
                return Err(UsageError(format!("-F `{spec}`: empty path")));
            }
            let (params, _) = params(spec, after, &[';'])?;
            Ok(vec![Spec::TextFile { name, path, params }])
        }
        _ => Ok(vec![Spec::Text {
            name,
            value: rhs.to_owned(),
        }]),
    }
}

/// A type for common extensions, as curl and browsers guess it; empty for
/// the encoder's default, `application/octet-stream`.
fn guess_type(path: &str) -> &'static str {
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "txt" => "text/plain",
        "htm" | "html" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "js" | "mjs" => "text/javascript",
        "json" => "application/json",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        _ => "",
    }
}

struct Config {
    specs: Vec<Spec>,
    boundary: Option<String>,
    output: Option<PathBuf>,
    stats: bool,
    progress: bool,
}

fn parse_args(argv: Vec<OsString>) -> Result<Config, UsageError> {
    let mut c = Config {
        specs: Vec::new(),
        boundary: None,
        output: None,
        stats: false,
        progress: true,
    };
    let mut a = Args::new(argv);
    while let Some(arg) = a.next()? {
        match arg {
            Arg::Pos(p) => {
                return Err(UsageError(format!(
                    "encode: unexpected argument `{}`",
                    p.to_string_lossy()
                )));
            }
            Arg::Opt(o) => match o.as_str() {
                "-F" | "--form" => c.specs.extend(parse_spec(&a.value_str()?)?),
                "--form-string" => {
                    let v = a.value_str()?;
                    let (name, value) = v.split_once('=').ok_or_else(|| {
                        UsageError(format!("--form-string wants name=value, got `{v}`"))
                    })?;
                    c.specs.push(Spec::Text {
                        name: name.to_owned(),
                        value: value.to_owned(),
                    });
                }
                "--boundary" => c.boundary = Some(a.value_str()?),
                "-o" | "--output" => c.output = Some(PathBuf::from(a.value()?)),
                "--stats" => c.stats = true,
                "--no-progress" => c.progress = false,
                other => return Err(UsageError(format!("encode: unknown option `{other}`"))),
            },
        }
    }
    if c.specs.is_empty() {
        return Err(UsageError("encode: no -F entries".into()));
    }
    if c.specs
        .iter()
        .filter(
            |s| matches!(s, Spec::File { path, .. } | Spec::TextFile { path, .. } if path == "-"),
        )
        .count()
        > 1
    {
        return Err(UsageError(
            "encode: standard input can be used by one -F entry only".into(),
        ));
    }
    Ok(c)
}

/// A streamed body: exactly `size` bytes when given (formwire's `;size=`), else the file's length.
fn sized(r: Box<dyn Read + Send>, len: Option<u64>, size: Option<u64>) -> Body<'static> {
    match size {
        Some(n) => Body::reader(r.take(n), Some(n)),
        None => Body::reader(r, len),
    }
}

fn open(path: &str) -> Result<(Box<dyn Read + Send>, Option<u64>), Failure> {
    if path == "-" {
        return Ok((Box::new(io::stdin()), None));
    }
    let f = File::open(path).map_err(|e| Failure::Io(format!("{path}: {e}")))?;
    let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    Ok((Box::new(f), len))
}

pub fn run(argv: Vec<OsString>) -> Result<(), Failure> {
    let cfg = parse_args(argv)?;
    let mut enc = match &cfg.boundary {
        Some(b) => Encoder::with_boundary(b).map_err(Failure::Input)?,
        None => Encoder::new(),
    };
    for spec in cfg.specs {
        match spec {
            Spec::Text { name, value } => {
                enc.text(&name, &value);
            }
            Spec::TextFile { name, path, params } if params == Params::default() => {
                let (mut r, _) = open(&path)?;
                let mut bytes = Vec::new();
                r.read_to_end(&mut bytes)
                    .map_err(|e| Failure::Io(format!("{path}: {e}")))?;
                let value = String::from_utf8(bytes).map_err(|_| {
                    Failure::Usage(format!(
                        "-F {name}=<{path}: not UTF-8 text (send bytes with {name}=@{path})"
                    ))
                })?;
                enc.text(&name, &value);
            }
            Spec::TextFile { name, path, params } => {
                // With parameters the content goes as it is, like curl: a field (or a file,
                // with filename=) carrying the given type and headers.
                let (r, len) = open(&path)?;
                let body = sized(r, len, params.size);
                let headers: Vec<&str> = params.headers.iter().map(String::as_str).collect();
                enc.part(
                    &name,
                    params.filename.as_deref(),
                    params.content_type.as_deref(),
                    &headers,
                    body,
                )
                .map_err(Failure::Input)?;
            }
            Spec::File { name, path, params } => {
                let (r, len) = open(&path)?;
                let body = sized(r, len, params.size);
                let filename = params.filename.unwrap_or_else(|| match path.as_str() {
                    "-" => "blob".to_owned(),
                    p => Path::new(p)
                        .file_name()
                        .map_or_else(|| p.to_owned(), |f| f.to_string_lossy().into_owned()),
                });
                let ct = params
                    .content_type
                    .unwrap_or_else(|| guess_type(&path).to_owned());
                let headers: Vec<&str> = params.headers.iter().map(String::as_str).collect();
                enc.part(&name, Some(&filename), Some(&ct), &headers, body)
                    .map_err(Failure::Input)?;
            }
        }
    }
    let length = enc.content_length();
    eprintln!("Content-Type: {}", enc.content_type());
    if let Some(n) = length {
        eprintln!("Content-Length: {n}");
    }
    let (mut out, path): (Box<dyn Write>, Option<&PathBuf>) = match &cfg.output {
        Some(p) => (
            Box::new(File::create(p).map_err(|e| Failure::Io(format!("{}: {e}", p.display())))?),
            Some(p),
        ),
        None => (Box::new(io::stdout().lock()), None),
    };
    let mut progress = Progress::new("encode", length, cfg.progress);
    let result = copy(enc.into_reader(), &mut *out, &mut progress);
    progress.done();
    drop(out);
    if let Err(e) = result {
        if let Some(p) = path {
            let _ = fs::remove_file(p);
        }
        return Err(e);
    }
    if length.is_none() {
        eprintln!("Content-Length: {}", progress.bytes());
    }
    if cfg.stats {
        print_stats("encoded", progress.bytes(), progress.elapsed());
    }
    Ok(())
}

fn copy(mut r: impl Read, w: &mut dyn Write, progress: &mut Progress) -> Result<(), Failure> {
    let mut buf = vec![0u8; 256 << 10];
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Io(format!("reading a body: {e}"))),
        };
        w.write_all(&buf[..n])
            .map_err(|e| Failure::stdout("writing the body", &e))?;
        progress.add(n);
    }
    w.flush()
        .map_err(|e| Failure::stdout("writing the body", &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, path: &str) -> Spec {
        Spec::File {
            name: name.into(),
            path: path.into(),
            params: Params::default(),
        }
    }

    fn one(spec: &str) -> Spec {
        let mut v = parse_spec(spec).unwrap();
        assert_eq!(v.len(), 1, "{spec}");
        v.pop().unwrap()
    }

    #[test]
    fn curl_form_syntax() {
        let text = |n: &str, v: &str| Spec::Text {
            name: n.into(),
            value: v.into(),
        };
        assert_eq!(one("a=b;type=x"), text("a", "b;type=x"));
        assert_eq!(one("a="), text("a", ""));
        assert_eq!(one("a==b"), text("a", "=b"));
        assert_eq!(one("f=@x.bin"), file("f", "x.bin"));
        assert_eq!(
            one("f=<x.txt"),
            Spec::TextFile {
                name: "f".into(),
                path: "x.txt".into(),
                params: Params::default(),
            }
        );
        assert_eq!(
            one("f=@\"a;b\\\"c\";type=text/plain;filename=\"n;m\";size=1K"),
            Spec::File {
                name: "f".into(),
                path: "a;b\"c".into(),
                params: Params {
                    content_type: Some("text/plain".into()),
                    filename: Some("n;m".into()),
                    headers: vec![],
                    size: Some(1024),
                },
            }
        );
        // headers= (repeatable), and the same parameters after `<`.
        assert_eq!(
            one("f=<x.json;type=application/json;headers=X-A: 1;headers=\"X-B: a;b\""),
            Spec::TextFile {
                name: "f".into(),
                path: "x.json".into(),
                params: Params {
                    content_type: Some("application/json".into()),
                    headers: vec!["X-A: 1".into(), "X-B: a;b".into()],
                    ..Params::default()
                },
            }
        );
        // `@a,b`: one part per file, each with its own parameters; a quoted path holds `,`.
        assert_eq!(
            parse_spec("f=@a.txt;type=text/x,\"b,c.png\",d").unwrap(),
            vec![
                Spec::File {
                    name: "f".into(),
                    path: "a.txt".into(),
                    params: Params {
                        content_type: Some("text/x".into()),
                        ..Params::default()
                    },
                },
                file("f", "b,c.png"),
                file("f", "d"),
            ]
        );
        assert!(parse_spec("novalue").is_err());
        assert!(parse_spec("f=@").is_err());
        assert!(parse_spec("f=@a,").is_err());
        assert!(parse_spec("f=@x;encoder=base64").is_err());
        assert!(parse_spec("f=@\"x").is_err());
        assert!(parse_spec("f=@\"x\"y").is_err());
    }

    #[test]
    fn types_by_extension() {
        assert_eq!(guess_type("a/b.JPG"), "image/jpeg");
        assert_eq!(guess_type("x.txt"), "text/plain");
        assert_eq!(guess_type("x"), "");
    }
}
