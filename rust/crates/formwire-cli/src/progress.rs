//! Progress on stderr (only for bodies over 64 MiB, only when stderr is a
//! terminal) and the hidden `--stats` report (elapsed time, throughput,
//! peak RSS from `/proc/self/status`).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Bodies at least this long get a progress line.
const PROGRESS_FROM: u64 = 64 << 20;
const EVERY: Duration = Duration::from_millis(250);

/// Counts bytes; draws a progress line now and then.
pub struct Progress {
    start: Instant,
    last: Instant,
    bytes: u64,
    total: Option<u64>,
    verb: &'static str,
    enabled: bool,
    drawn: bool,
}

impl Progress {
    /// `total` is the body length when known. Drawing happens only when
    /// `enabled` and stderr is a terminal.
    pub fn new(verb: &'static str, total: Option<u64>, enabled: bool) -> Progress {
        let now = Instant::now();
        let enabled = enabled && std::io::stderr().is_terminal();
        Progress {
            start: now,
            last: now,
            bytes: 0,
            total,
            verb,
            enabled,
            drawn: false,
        }
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Counts `n` more bytes.
    #[inline]
    pub fn add(&mut self, n: usize) {
        self.bytes += n as u64;
        if self.enabled && self.bytes >= PROGRESS_FROM.min(self.total.unwrap_or(u64::MAX)) {
            let now = Instant::now();
            if now - self.last >= EVERY {
                self.last = now;
                self.draw();
            }
        }
    }

    fn draw(&mut self) {
        if self.total.is_some_and(|t| t < PROGRESS_FROM) {
            return;
        }
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let rate = self.bytes as f64 / secs;
        let pct = match self.total {
            Some(t) if t > 0 => format!(" {:5.1}%", self.bytes as f64 * 100.0 / t as f64),
            _ => String::new(),
        };
        let mut e = std::io::stderr().lock();
        let _ = write!(
            e,
            "\r\x1b[2K{} {}{}  {}/s",
            self.verb,
            human(self.bytes),
            pct,
            human(rate as u64)
        );
        let _ = e.flush();
        self.drawn = true;
    }

    /// Clears the progress line, if one was drawn.
    pub fn done(&mut self) {
        if self.drawn {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[2K");
            let _ = e.flush();
            self.drawn = false;
        }
    }
}

/// `1.5 GiB`-style sizes.
pub fn human(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Peak resident set size in KiB (`VmHWM`), where `/proc` has it.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The `--stats` line: `stats: BYTES bytes in SECS s (RATE MiB/s), peak RSS N KiB`.
pub fn print_stats(what: &str, bytes: u64, elapsed: Duration) {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        bytes as f64 / secs / (1 << 20) as f64
    } else {
        0.0
    };
    let rss = peak_rss_kib().map_or_else(|| "unknown".to_owned(), |k| format!("{k} KiB"));
    eprintln!("stats: {what} {bytes} bytes in {secs:.3} s ({rate:.1} MiB/s), peak RSS {rss}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_sizes() {
        assert_eq!(human(12), "12 B");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(256 << 20), "256.0 MiB");
    }

    #[test]
    fn rss_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(peak_rss_kib().unwrap() > 0);
        }
    }
}
