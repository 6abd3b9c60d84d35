//! `formwire`: decode and encode web form bodies from the command line.
//!
//! ```text
//! formwire decode [OPTIONS] [FILE|-]       parts table (or --json) of a multipart or urlencoded body
//! formwire encode -F SPEC... [-o FILE]     a multipart/form-data body from curl-style -F specs
//! ```
//!
//! Exit codes: 0 success, 1 I/O failure, 2 bad input (a formwire error code
//! with its byte offset, `spec/errors.md`), 64 bad command line.
//!
//! Everything streams: `decode` reads 64 KiB at a time and keeps only part
//! metadata; `encode` reads file bodies while it writes them.

mod args;
mod decode;
mod encode;
mod extract;
mod json;
mod progress;
mod table;

use std::ffi::OsString;
use std::process::ExitCode;

/// Why a command failed, mapped to an exit code by [`main`].
#[derive(Debug)]
pub enum Failure {
    /// Bad input: a formwire error with its code and offset (exit 2).
    Input(formwire::Error),
    /// Bad input, with a hint for the human message (exit 2).
    InputHint(formwire::Error, &'static str),
    /// An I/O failure (exit 1).
    Io(String),
    /// A bad command line (exit 64, EX_USAGE).
    Usage(String),
    /// Standard output was closed by its reader (`formwire encode | head`): stop quietly, exit 0,
    /// as a pipeline expects of a producer whose consumer has read enough.
    BrokenPipe,
}

impl Failure {
    /// An I/O failure writing standard output: [`Failure::BrokenPipe`] for EPIPE, else `Io`.
    pub fn stdout(what: &str, e: &std::io::Error) -> Failure {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Io(format!("{what}: {e}"))
        }
    }
}

impl From<args::UsageError> for Failure {
    fn from(e: args::UsageError) -> Failure {
        Failure::Usage(e.0)
    }
}

const USAGE: &str = "\
formwire: decode and encode web form bodies (multipart/form-data, application/x-www-form-urlencoded)

Usage:
  formwire decode [OPTIONS] [FILE|-]
  formwire encode -F SPEC... [--boundary B] [-o FILE]
  formwire help [decode|encode]
  formwire --version

Exit codes: 0 ok, 1 I/O error, 2 bad input (code and byte offset reported), 64 bad usage.
Run `formwire help decode` or `formwire help encode` for the options.";

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
    let (cmd, rest) = match argv.split_first() {
        Some((c, r)) => (c.to_string_lossy().into_owned(), r.to_vec()),
        None => {
            eprintln!("{USAGE}");
            return ExitCode::from(64);
        }
    };
    let mut json_errors = false;
    let result = match cmd.as_str() {
        "decode" if wants_help(&rest, &["--content-type", "-t", "--limit", "--extract"]) => {
            println!("{}", decode::help());
            Ok(())
        }
        "encode" if wants_help(&rest, &["-F", "--form", "--boundary", "-o", "--output"]) => {
            println!("{}", encode::HELP);
            Ok(())
        }
        "decode" => {
            json_errors = rest.iter().any(|a| a == "--json");
            decode::run(rest)
        }
        "encode" => encode::run(rest),
        "help" | "--help" | "-h" => {
            match rest
                .first()
                .map(|s| s.to_string_lossy().into_owned())
                .as_deref()
            {
                Some("decode") => println!("{}", decode::help()),
                Some("encode") => println!("{}", encode::HELP),
                _ => println!("{USAGE}"),
            }
            Ok(())
        }
        "--version" | "-V" | "version" => {
            println!("formwire {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        other => Err(Failure::Usage(format!("unknown command `{other}`"))),
    };
    match result {
        Ok(()) | Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(Failure::Input(e)) => input_error(e, None, json_errors),
        Err(Failure::InputHint(e, hint)) => input_error(e, Some(hint), json_errors),
        Err(Failure::Io(msg)) => {
            if json_errors {
                eprintln!(
                    "{{\"error\":{{\"code\":\"IO\",\"offset\":null,\"message\":{}}}}}",
                    json::string(&msg)
                );
            } else {
                eprintln!("formwire: {msg}");
            }
            ExitCode::from(1)
        }
        Err(Failure::Usage(msg)) => {
            eprintln!("formwire: {msg}\n(see `formwire help`)");
            ExitCode::from(64)
        }
    }
}

/// Whether `-h` or `--help` stands as an option in `args` (not as the value of one of
/// `takes_value`, not after `--`).
fn wants_help(args: &[OsString], takes_value: &[&str]) -> bool {
    let mut skip = false;
    for a in args {
        let a = a.to_string_lossy();
        if std::mem::take(&mut skip) {
            continue;
        }
        match a.as_ref() {
            "--" => return false,
            "-h" | "--help" => return true,
            o => skip = takes_value.contains(&o),
        }
    }
    false
}

/// Bad input: exit 2, the error as one JSON line (`--json`) or one human line.
fn input_error(e: formwire::Error, hint: Option<&str>, json_errors: bool) -> ExitCode {
    if json_errors {
        eprintln!(
            "{{\"error\":{{\"code\":{},\"offset\":{},\"message\":{}}}}}",
            json::string(e.code.as_str()),
            e.offset,
            json::string(e.code.message())
        );
    } else {
        let hint = hint.map(|h| format!(" ({h})")).unwrap_or_default();
        eprintln!(
            "formwire: {} at offset {}: {}{hint}",
            e.code.as_str(),
            e.offset,
            e.code.message()
        );
    }
    ExitCode::from(2)
}
