//! `decode --extract DIR`: file parts become files in DIR, fields go to
//! `DIR/fields.json`, and `DIR/files.json` maps every saved file back to its
//! part.
//!
//! Safety rules (the input is untrusted):
//! - A saved name never comes from the input as a path: the filename is cut
//!   to its last `/`- or `\`-separated component, every character outside
//!   letters, digits, `.`, `-` and `_` becomes `_`, leading dots are removed
//!   (no hidden files, no `.` or `..`), Windows device names get a leading
//!   `_`, names are cut to 200 bytes (the extension kept), and an empty
//!   result becomes `file`.
//! - Names are deduplicated case-insensitively with counters (`a.txt`,
//!   `a-1.txt`, ...); `fields.json` and `files.json` are reserved.
//! - DIR must not exist or be empty; every file is created with
//!   `create_new` (never overwriting, never following an existing link).
//! - All or nothing: if the body turns out to be bad, everything written is
//!   removed again (and DIR, if it was created here).
//!
//! `fields.json` is `{"fields":[[name,value],...]}` and is written while
//! the body streams (values UTF-8 decoded with U+FFFD, as the parser
//! decodes names), so memory stays constant whatever the field sizes.

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::json;

const MAX_NAME_BYTES: usize = 200;
const FIELDS: &str = "fields.json";
const FILES: &str = "files.json";

/// Creates a file that must not exist yet (no overwrite, no link followed).
fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(path)
}

/// A filename from the input turned into a safe base name (see the module
/// documentation for the rules).
pub fn safe_name(filename: &str) -> String {
    let base = filename.rsplit(['/', '\\']).next().unwrap_or("");
    let mapped: String = base
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut s = mapped
        .trim_start_matches('.')
        .trim_end_matches('.')
        .to_owned();
    if s.is_empty() {
        s = "file".to_owned();
    }
    // Windows reserves device names whatever the extensions (`nul.tar.gz`).
    let upper = s.split('.').next().unwrap_or("").to_ascii_uppercase();
    let device = matches!(upper.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (upper.len() == 4
            && (upper.starts_with("COM") || upper.starts_with("LPT"))
            && upper.as_bytes()[3].is_ascii_digit());
    if device {
        s = format!("_{s}");
    }
    if s.len() > MAX_NAME_BYTES {
        let (stem, ext) = split_ext(&s);
        let ext = if ext.len() <= 20 { ext } else { "" };
        let keep = floor_char_boundary(stem, MAX_NAME_BYTES - ext.len());
        s = format!("{}{}", &stem[..keep], ext);
    }
    s
}

/// `("a.tar", ".gz")` for `a.tar.gz`; no extension for `.x` or `x`.
fn split_ext(s: &str) -> (&str, &str) {
    match s.rfind('.') {
        Some(i) if i > 0 => (&s[..i], &s[i..]),
        _ => (s, ""),
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Chooses unique names (case-insensitively) among the ones given so far.
#[derive(Default)]
pub struct Names {
    used: HashSet<String>,
}

impl Names {
    pub fn new() -> Names {
        let mut n = Names::default();
        n.used.insert(FIELDS.to_owned());
        n.used.insert(FILES.to_owned());
        n
    }

    /// A name for `filename` not handed out before.
    pub fn pick(&mut self, filename: &str) -> String {
        let name = safe_name(filename);
        if self.used.insert(name.to_lowercase()) {
            return name;
        }
        let (stem, ext) = split_ext(&name);
        for i in 1u64.. {
            let c = format!("{stem}-{i}{ext}");
            if self.used.insert(c.to_lowercase()) {
                return c;
            }
        }
        unreachable!("u64 counters do not run out")
    }
}

/// Lossy UTF-8 decoding of a byte stream, chunk by chunk, with the same
/// result as [`String::from_utf8_lossy`] over the whole.
#[derive(Default)]
struct Utf8Stream {
    carry: Vec<u8>,
}

impl Utf8Stream {
    fn push(&mut self, bytes: &[u8], out: &mut String) {
        let joined;
        let mut rest: &[u8] = if self.carry.is_empty() {
            bytes
        } else {
            self.carry.extend_from_slice(bytes);
            joined = std::mem::take(&mut self.carry);
            &joined
        };
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    json::push_escaped(out, s);
                    return;
                }
                Err(e) => {
                    let (ok, bad) = rest.split_at(e.valid_up_to());
                    json::push_escaped(out, std::str::from_utf8(ok).unwrap_or_default());
                    match e.error_len() {
                        Some(n) => {
                            out.push('\u{fffd}');
                            rest = &bad[n..];
                        }
                        None => {
                            self.carry = bad.to_vec();
                            return;
                        }
                    }
                }
            }
        }
    }

    fn end(&mut self, out: &mut String) {
        if !std::mem::take(&mut self.carry).is_empty() {
            out.push('\u{fffd}');
        }
    }
}

/// What `files.json` says about one saved file.
struct Saved {
    name: String,
    filename: String,
    content_type: Option<String>,
    path: String,
    size: u64,
    sha256: String,
}

enum Current {
    None,
    File { out: BufWriter<File>, saved: Saved },
    Field { utf8: Utf8Stream },
}

/// Writes the parts of one body into a directory (see the module docs).
pub struct Extractor {
    dir: PathBuf,
    created_dir: bool,
    created: Vec<PathBuf>,
    names: Names,
    fields: BufWriter<File>,
    n_fields: usize,
    files: Vec<Saved>,
    current: Current,
    scratch: String,
    committed: bool,
}

impl Extractor {
    /// Prepares `dir` (which must not exist or be empty).
    pub fn new(dir: &Path) -> io::Result<Extractor> {
        let created_dir = match fs::create_dir(dir) {
            Ok(()) => true,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                if fs::read_dir(dir)?.next().is_some() {
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!(
                            "{} is not empty (--extract needs a new or empty directory)",
                            dir.display()
                        ),
                    ));
                }
                false
            }
            Err(e) => return Err(e),
        };
        let fields_path = dir.join(FIELDS);
        let fields = match create_new(&fields_path) {
            Ok(f) => f,
            Err(e) => {
                if created_dir {
                    let _ = fs::remove_dir(dir);
                }
                return Err(e);
            }
        };
        let mut x = Extractor {
            dir: dir.to_owned(),
            created_dir,
            created: vec![fields_path],
            names: Names::new(),
            fields: BufWriter::new(fields),
            n_fields: 0,
            files: Vec::new(),
            current: Current::None,
            scratch: String::new(),
            committed: false,
        };
        x.fields.write_all(b"{\"fields\":[")?;
        Ok(x)
    }

    fn create(&mut self, name: &str) -> io::Result<File> {
        let path = self.dir.join(name);
        let f = create_new(&path)?;
        self.created.push(path);
        Ok(f)
    }

    /// A part begins. Returns the saved name for a file part.
    pub fn start(
        &mut self,
        name: &str,
        filename: Option<&str>,
        content_type: Option<&str>,
    ) -> io::Result<Option<String>> {
        match filename {
            Some(filename) => {
                let path = self.names.pick(filename);
                let f = self.create(&path)?;
                let saved = Saved {
                    name: name.to_owned(),
                    filename: filename.to_owned(),
                    content_type: content_type.map(str::to_owned),
                    path: path.clone(),
                    size: 0,
                    sha256: String::new(),
                };
                self.current = Current::File {
                    out: BufWriter::with_capacity(64 << 10, f),
                    saved,
                };
                Ok(Some(path))
            }
            None => {
                self.scratch.clear();
                self.scratch.push_str(if self.n_fields == 0 {
                    "\n  ["
                } else {
                    ",\n  ["
                });
                json::push_string(&mut self.scratch, name);
                self.scratch.push_str(",\"");
                self.fields.write_all(self.scratch.as_bytes())?;
                self.n_fields += 1;
                self.current = Current::Field {
                    utf8: Utf8Stream::default(),
                };
                Ok(None)
            }
        }
    }

    /// Body bytes of the current part.
    pub fn data(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.current {
            Current::File { out, .. } => out.write_all(bytes),
            Current::Field { utf8 } => {
                self.scratch.clear();
                utf8.push(bytes, &mut self.scratch);
                self.fields.write_all(self.scratch.as_bytes())
            }
            Current::None => Ok(()),
        }
    }

    /// The current part ended with this size and digest.
    pub fn end(&mut self, size: u64, sha256: &str) -> io::Result<()> {
        match std::mem::replace(&mut self.current, Current::None) {
            Current::File { mut out, mut saved } => {
                out.flush()?;
                saved.size = size;
                saved.sha256 = sha256.to_owned();
                self.files.push(saved);
            }
            Current::Field { mut utf8 } => {
                self.scratch.clear();
                utf8.end(&mut self.scratch);
                self.scratch.push_str("\"]");
                self.fields.write_all(self.scratch.as_bytes())?;
            }
            Current::None => {}
        }
        Ok(())
    }

    /// The body was complete and valid: close `fields.json`, write
    /// `files.json`, keep everything.
    pub fn commit(mut self) -> io::Result<()> {
        self.fields.write_all(if self.n_fields == 0 {
            b"]}\n"
        } else {
            b"\n]}\n"
        })?;
        self.fields.flush()?;
        let mut j = String::from("{\"files\":[");
        for (i, s) in self.files.iter().enumerate() {
            j.push_str(if i == 0 { "\n  {" } else { ",\n  {" });
            j.push_str(&format!(
                "\"name\":{},\"filename\":{},\"content_type\":{},\"path\":{},\"size\":{},\"sha256\":\"{}\"}}",
                json::string(&s.name),
                json::string(&s.filename),
                json::opt_string(s.content_type.as_deref()),
                json::string(&s.path),
                s.size,
                s.sha256
            ));
        }
        j.push_str(if self.files.is_empty() {
            "]}\n"
        } else {
            "\n]}\n"
        });
        let mut f = self.create(FILES)?;
        f.write_all(j.as_bytes())?;
        f.sync_all().ok();
        self.committed = true;
        Ok(())
    }
}

impl Drop for Extractor {
    /// Not committed (bad input, I/O error, panic): remove what was written.
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        for p in self.created.iter().rev() {
            let _ = fs::remove_file(p);
        }
        if self.created_dir {
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_basenames_in_a_safe_alphabet() {
        assert_eq!(safe_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_name("/etc/shadow"), "shadow");
        assert_eq!(safe_name("C:\\Windows\\system32\\x.dll"), "x.dll");
        assert_eq!(safe_name("..\\..\\boot.ini"), "boot.ini");
        assert_eq!(safe_name(".."), "file");
        assert_eq!(safe_name("."), "file");
        assert_eq!(safe_name(""), "file");
        assert_eq!(safe_name("dir/"), "file");
        assert_eq!(safe_name(".bashrc"), "bashrc");
        assert_eq!(safe_name("a b\u{0}c\u{1b}.txt"), "a_b_c_.txt");
        assert_eq!(safe_name("名前.txt"), "名前.txt");
        assert_eq!(safe_name("x\u{202e}gpj.exe"), "x_gpj.exe");
        assert_eq!(safe_name("C:evil"), "C_evil");
        assert_eq!(safe_name("NUL.txt"), "_NUL.txt");
        assert_eq!(safe_name("com1"), "_com1");
        assert_eq!(safe_name("nul.tar.gz"), "_nul.tar.gz");
        assert_eq!(safe_name("console.log"), "console.log");
        assert_eq!(safe_name("trailing..."), "trailing");
        assert_eq!(safe_name("a\u{ff0f}b"), "a_b");
        let long = format!("{}.jpeg", "é".repeat(300));
        let s = safe_name(&long);
        assert!(s.len() <= MAX_NAME_BYTES && s.ends_with(".jpeg"), "{s}");
    }

    #[test]
    fn duplicates_get_counters() {
        let mut n = Names::new();
        assert_eq!(n.pick("a.txt"), "a.txt");
        assert_eq!(n.pick("x/A.TXT"), "A-1.TXT");
        assert_eq!(n.pick("a.txt"), "a-2.txt");
        assert_eq!(n.pick("fields.json"), "fields-1.json");
        assert_eq!(n.pick(""), "file");
        assert_eq!(n.pick("/"), "file-1");
    }

    #[test]
    fn utf8_stream_matches_lossy_at_every_split() {
        let input: &[u8] =
            b"a\xc3\xa9b\xe2\x82\xacc\xf0\x9f\x98\x80d\xff\xe2\x82e\xc3\"\n\xf0\x9f\x98";
        let mut whole = String::new();
        json::push_escaped(&mut whole, &String::from_utf8_lossy(input));
        for i in 0..=input.len() {
            for j in i..=input.len() {
                let mut s = Utf8Stream::default();
                let mut out = String::new();
                for part in [&input[..i], &input[i..j], &input[j..]] {
                    s.push(part, &mut out);
                }
                s.end(&mut out);
                assert_eq!(out, whole, "split at {i}, {j}");
            }
        }
    }
}
