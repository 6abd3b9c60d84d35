//! A small command-line reader: long options with `--opt value` or
//! `--opt=value`, short options with `-o value` or `-ovalue`, `--` ends
//! options. No dependency; the CLI has few options.

use std::ffi::OsString;

/// A bad command line; the message says what.
#[derive(Debug)]
pub struct UsageError(pub String);

/// One item of the command line.
#[derive(Debug, PartialEq)]
pub enum Arg {
    /// An option (`--json`, `-F`), spelled as given without `=value`.
    Opt(String),
    /// A positional argument.
    Pos(OsString),
}

/// Reads `argv` item by item; an option's value is taken with [`Args::value`].
pub struct Args {
    items: std::vec::IntoIter<OsString>,
    /// The `=value` or attached short value of the option just read.
    pending: Option<OsString>,
    only_positional: bool,
    last: String,
}

impl Args {
    pub fn new(argv: Vec<OsString>) -> Args {
        Args {
            items: argv.into_iter(),
            pending: None,
            only_positional: false,
            last: String::new(),
        }
    }

    /// The next option or positional argument.
    pub fn next(&mut self) -> Result<Option<Arg>, UsageError> {
        if let Some(v) = self.pending.take() {
            return Err(UsageError(format!(
                "option `{}` takes no value (got `{}`)",
                self.last,
                v.to_string_lossy()
            )));
        }
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        if self.only_positional {
            return Ok(Some(Arg::Pos(item)));
        }
        let Some(s) = item.to_str() else {
            return Ok(Some(Arg::Pos(item)));
        };
        if s == "--" {
            self.only_positional = true;
            return self.next();
        }
        if s == "-" || !s.starts_with('-') {
            return Ok(Some(Arg::Pos(item)));
        }
        if let Some(long) = s.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(OsString::from(v))),
                None => (long, None),
            };
            self.last = format!("--{name}");
            self.pending = value;
        } else {
            // `-F value` or `-Fvalue`: short options are single letters.
            let mut chars = s[1..].chars();
            let letter = chars.next().unwrap_or('-');
            let rest = chars.as_str();
            self.last = format!("-{letter}");
            self.pending = (!rest.is_empty()).then(|| OsString::from(rest));
        }
        Ok(Some(Arg::Opt(self.last.clone())))
    }

    /// The value of the option just read.
    pub fn value(&mut self) -> Result<OsString, UsageError> {
        if let Some(v) = self.pending.take() {
            return Ok(v);
        }
        self.items
            .next()
            .ok_or_else(|| UsageError(format!("option `{}` needs a value", self.last)))
    }

    /// The value of the option just read, as UTF-8.
    pub fn value_str(&mut self) -> Result<String, UsageError> {
        let v = self.value()?;
        v.into_string().map_err(|v| {
            UsageError(format!(
                "the value of `{}` is not UTF-8: {:?}",
                self.last, v
            ))
        })
    }
}

/// Parses a limit value: an integer with an optional binary suffix
/// (`K`/`KiB`, `M`/`MiB`, `G`/`GiB`, `T`/`TiB`), or `none` / `null` /
/// `unlimited` for no limit (`None`).
pub fn parse_size(s: &str) -> Result<Option<u64>, UsageError> {
    let t = s.trim();
    if matches!(
        t.to_ascii_lowercase().as_str(),
        "none" | "null" | "unlimited"
    ) {
        return Ok(None);
    }
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, suffix) = t.split_at(digits);
    let shift = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        _ => {
            return Err(UsageError(format!(
                "bad size `{s}` (an integer, optionally with K, M, G or T, or `none`)"
            )));
        }
    };
    let n: u64 = num
        .parse()
        .map_err(|_| UsageError(format!("bad size `{s}`")))?;
    n.checked_mul(1 << shift)
        .map(Some)
        .ok_or_else(|| UsageError(format!("size `{s}` is too large")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(v: &[&str]) -> Vec<(Arg, Option<String>)> {
        let mut a = Args::new(v.iter().map(OsString::from).collect());
        let mut out = Vec::new();
        while let Some(arg) = a.next().unwrap() {
            let takes = matches!(&arg, Arg::Opt(o) if o == "-F" || o == "--limit");
            let val = if takes {
                Some(a.value_str().unwrap())
            } else {
                None
            };
            out.push((arg, val));
        }
        out
    }

    #[test]
    fn options_and_values() {
        let got = all(&[
            "--json",
            "-Fa=b",
            "-F",
            "c=d",
            "--limit=max_parts=3",
            "--",
            "--x",
            "-",
        ]);
        assert_eq!(got[0], (Arg::Opt("--json".into()), None));
        assert_eq!(got[1], (Arg::Opt("-F".into()), Some("a=b".into())));
        assert_eq!(got[2], (Arg::Opt("-F".into()), Some("c=d".into())));
        assert_eq!(
            got[3],
            (Arg::Opt("--limit".into()), Some("max_parts=3".into()))
        );
        assert_eq!(got[4], (Arg::Pos("--x".into()), None));
        assert_eq!(got[5], (Arg::Pos("-".into()), None));
    }

    #[test]
    fn flag_with_value_is_an_error() {
        let mut a = Args::new(vec!["--json=1".into()]);
        assert!(a.next().is_ok());
        assert!(a.next().is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("12").unwrap(), Some(12));
        assert_eq!(parse_size("3K").unwrap(), Some(3072));
        assert_eq!(parse_size("2MiB").unwrap(), Some(2 << 20));
        assert_eq!(parse_size("20g").unwrap(), Some(20 << 30));
        assert_eq!(parse_size("none").unwrap(), None);
        assert!(parse_size("12x").is_err());
        assert!(parse_size("-1").is_err());
        assert!(parse_size("99999999999T").is_err());
    }
}
