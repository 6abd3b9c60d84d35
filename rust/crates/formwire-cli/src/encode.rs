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
  -F name=@path[;type=T][;filename=F][;size=N]
                               a file part streamed from path (`-` for standard input). Defaults: the
                               type guessed from the extension (else application/octet-stream), the
                               filename the path's last component (`blob` for standard input).
                               size=N (formwire extension): send exactly the first N bytes of path, so
                               that pipes and devices get a Content-Length too.
                               path, T and F may be double-quoted to hold `;` (\\\" and \\\\ escape).
  -F name=<path                a text field whose value is the content of path (UTF-8)
  --boundary B                 the boundary (1-70 of [0-9A-Za-z'()+_,-./:=? ], not ending in a space);
                               default: a random one
  -o, --output FILE            write the body to FILE instead of standard output
  --no-progress                no progress line (shown on a terminal for bodies over 64 MiB)";

/// One `-F` entry.
#[derive(Debug, PartialEq)]
enum Spec {
    Text {
        name: String,
        value: String,
    },
    TextFile {
        name: String,
        path: String,
    },
    File {
        name: String,
        path: String,
        content_type: Option<String>,
        filename: Option<String>,
        size: Option<u64>,
    },
}

/// Reads a possibly double-quoted item up to the next unquoted `;`.
/// Returns the item and the rest (starting at `;` or empty).
fn item(s: &str) -> Result<(String, &str), UsageError> {
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
                    if !(rest.is_empty() || rest.starts_with(';')) {
                        return Err(UsageError(format!("junk after a quoted item: `{rest}`")));
                    }
                    return Ok((out, rest));
                }
                c => out.push(c),
            }
        }
        Err(UsageError(format!("unterminated quote in `{s}`")))
    } else {
        let end = s.find(';').unwrap_or(s.len());
        Ok((s[..end].to_owned(), &s[end..]))
    }
}

fn parse_spec(spec: &str) -> Result<Spec, UsageError> {
    let (name, rhs) = spec.split_once('=').ok_or_else(|| {
        UsageError(format!(
            "-F wants name=value, name=@file or name=<file, got `{spec}`"
        ))
    })?;
    let name = name.to_owned();
    let (at, rest) = match rhs.as_bytes().first() {
        Some(b'@') => (true, &rhs[1..]),
        Some(b'<') => (false, &rhs[1..]),
        _ => {
            return Ok(Spec::Text {
                name,
                value: rhs.to_owned(),
            });
        }
    };
    let (path, mut params) = item(rest)?;
    if path.is_empty() {
        return Err(UsageError(format!("-F `{spec}`: empty path")));
    }
    let (mut content_type, mut filename, mut size) = (None, None, None);
    while let Some(p) = params.strip_prefix(';') {
        let (key, after) = p
            .split_once('=')
            .ok_or_else(|| UsageError(format!("-F `{spec}`: bad parameter `{p}`")))?;
        let (value, next) = item(after)?;
        params = next;
        match key.trim() {
            "type" if at => content_type = Some(value),
            "filename" if at => filename = Some(value),
            "size" if at => {
                size = Some(
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
    Ok(if at {
        Spec::File {
            name,
            path,
            content_type,
            filename,
            size,
        }
    } else {
        Spec::TextFile { name, path }
    })
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
                "-F" | "--form" => c.specs.push(parse_spec(&a.value_str()?)?),
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
            Spec::TextFile { name, path } => {
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
            Spec::File {
                name,
                path,
                content_type,
                filename,
                size,
            } => {
                let (r, len) = open(&path)?;
                let body = match size {
                    Some(n) => Body::reader(r.take(n), Some(n)),
                    None => Body::reader(r, len),
                };
                let filename = filename.unwrap_or_else(|| match path.as_str() {
                    "-" => "blob".to_owned(),
                    p => Path::new(p)
                        .file_name()
                        .map_or_else(|| p.to_owned(), |f| f.to_string_lossy().into_owned()),
                });
                let ct = content_type.unwrap_or_else(|| guess_type(&path).to_owned());
                enc.file(&name, &filename, &ct, body)
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
            content_type: None,
            filename: None,
            size: None,
        }
    }

    #[test]
    fn curl_form_syntax() {
        assert_eq!(
            parse_spec("a=b;type=x").unwrap(),
            Spec::Text {
                name: "a".into(),
                value: "b;type=x".into()
            }
        );
        assert_eq!(
            parse_spec("a=").unwrap(),
            Spec::Text {
                name: "a".into(),
                value: "".into()
            }
        );
        assert_eq!(
            parse_spec("a==b").unwrap(),
            Spec::Text {
                name: "a".into(),
                value: "=b".into()
            }
        );
        assert_eq!(parse_spec("f=@x.bin").unwrap(), file("f", "x.bin"));
        assert_eq!(
            parse_spec("f=<x.txt").unwrap(),
            Spec::TextFile {
                name: "f".into(),
                path: "x.txt".into()
            }
        );
        assert_eq!(
            parse_spec("f=@\"a;b\\\"c\";type=text/plain;filename=\"n;m\";size=1K").unwrap(),
            Spec::File {
                name: "f".into(),
                path: "a;b\"c".into(),
                content_type: Some("text/plain".into()),
                filename: Some("n;m".into()),
                size: Some(1024),
            }
        );
        assert!(parse_spec("novalue").is_err());
        assert!(parse_spec("f=@").is_err());
        assert!(parse_spec("f=@x;headers=X-A: b").is_err());
        assert!(parse_spec("f=<x;type=a/b").is_err());
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
