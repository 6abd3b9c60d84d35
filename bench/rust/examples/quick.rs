//! A quick local speed check of the peers.md workloads (W1, W2, W4, W5).
//! Not the project's benchmark (that lives in bench/); a sanity check:
//!
//! ```text
//! cargo run --release --manifest-path bench/rust/Cargo.toml --example quick [-- W1 W2 W4 W5]
//! ```
//!
//! W2 and W4 are the bodies bench/run generated (bench/.work/full/w2.body and
//! w4.txt, from bench/lib/gen.py). Their contenders run interleaved,
//! round by round, with the incumbent first (multer 3 behind a socket-like
//! stream that is `Pending` before each 64 KiB chunk; `form_urlencoded`
//! collected into owned strings), so that a shared machine's load hits them
//! alike: compare the ratios of one run, not times across runs.
//! `QB_ONLY=text` keeps the contenders whose name holds `text`, and
//! `QB_ROUNDS=n` sets the rounds (for a profiler).

use std::cell::Cell;
use std::future::Future;
use std::hint::black_box;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_core::Stream;

use formwire::multipart::{Encoder, Event, FormData, Options, Parser};
use formwire::urlencoded;

const BOUNDARY: &str = "----PeerBenchFormBoundary7MA4YWxkTrZu0g";
const CHUNK: usize = 64 * 1024;

// formwire's own SplitMix64, for the W1 payload and the W5 form.
#[path = "../../../rust/crates/formwire/src/test_rng.rs"]
mod test_rng;
use test_rng::Rng;

impl Rng {
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(n + 8);
        while v.len() < n {
            v.extend_from_slice(&self.next().to_le_bytes());
        }
        v.truncate(n);
        v
    }

    fn alnum(&mut self, n: usize) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..n).map(|_| A[(self.next() % 62) as usize] as char).collect()
    }
}

/// The fastest of `runs` timed runs (after one warm-up): on a shared,
/// noisy machine the minimum is the most repeatable statistic.
fn fastest(mut f: impl FnMut(), runs: usize) -> Duration {
    f();
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Times of one contender over interleaved rounds.
struct Row {
    name: &'static str,
    times: Vec<Duration>,
}

impl Row {
    fn median(&self) -> f64 {
        let mut t: Vec<f64> = self.times.iter().map(Duration::as_secs_f64).collect();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    }

    fn min(&self) -> f64 {
        self.times.iter().map(Duration::as_secs_f64).fold(f64::INFINITY, f64::min)
    }
}

/// Runs the contenders round-robin (one warm-up round, then `rounds`), so
/// that the machine's load hits them alike, and prints each one's median and
/// minimum with its speed-up over the first (the incumbent): the ratio of
/// medians and the median of the per-round ratios.
fn compare(title: &str, rounds: usize, fs: &mut [(&'static str, &mut dyn FnMut())]) {
    // QB_ONLY=substring runs only the matching contenders (for profiling).
    let only = std::env::var("QB_ONLY").unwrap_or_default();
    let mut fs: Vec<&mut (&'static str, &mut dyn FnMut())> = fs.iter_mut().filter(|(n, _)| n.contains(only.as_str())).collect();
    if fs.is_empty() {
        return;
    }
    // QB_ROUNDS=n overrides the number of rounds (e.g. for a profiler).
    let rounds = std::env::var("QB_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(rounds);
    let mut rows: Vec<Row> = fs.iter().map(|(name, _)| Row { name, times: Vec::new() }).collect();
    for round in 0..=rounds {
        for (i, (_, f)) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            f();
            let d = t.elapsed();
            if round > 0 {
                rows[i].times.push(d);
            }
        }
    }
    println!("{title} ({rounds} interleaved rounds)");
    let base = &rows[0];
    for row in &rows {
        let mut per_round: Vec<f64> =
            base.times.iter().zip(&row.times).map(|(b, r)| b.as_secs_f64() / r.as_secs_f64()).collect();
        per_round.sort_by(f64::total_cmp);
        println!(
            "  {:<58} median {:>8.3} ms  min {:>8.3} ms  x{:>5.2} (per-round median x{:.2})",
            row.name,
            row.median() * 1e3,
            row.min() * 1e3,
            base.median() / row.median(),
            per_round[per_round.len() / 2]
        );
    }
}

thread_local! {
    /// Executor polls of the future being driven (see [`SocketLike`]).
    static TICK: Cell<u64> = const { Cell::new(0) };
}

/// Drives a future on this thread, polling it again at once whenever it is
/// pending (the sources here wake themselves). Each poll is one tick.
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        TICK.with(|t| t.set(t.get() + 1));
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// A body source that is `Pending` (waking its task) before each 64 KiB
/// chunk and has the chunk only at a later poll of the task, the way a
/// socket delivers data (peers.md: multer's "socket-like" row).
struct SocketLike {
    body: Bytes,
    pos: usize,
    pending_at: Option<u64>,
}

impl SocketLike {
    fn new(body: &Bytes) -> SocketLike {
        SocketLike { body: body.clone(), pos: 0, pending_at: None }
    }
}

impl Stream for SocketLike {
    type Item = Result<Bytes, std::io::Error>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.pos >= self.body.len() {
            return Poll::Ready(None);
        }
        let now = TICK.with(Cell::get);
        match self.pending_at {
            Some(t) if t != now => {}
            _ => {
                self.pending_at = Some(now);
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
        }
        self.pending_at = None;
        let end = (self.pos + CHUNK).min(self.body.len());
        let chunk = self.body.slice(self.pos..end);
        self.pos = end;
        Poll::Ready(Some(Ok(chunk)))
    }
}

fn text_part(out: &mut Vec<u8>, name: &str, value: &str) {
    out.extend_from_slice(format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
}

fn parse_count(body: &[u8], opts: &Options) -> (usize, u64) {
    let mut p = Parser::new(BOUNDARY.as_bytes(), opts.clone()).unwrap();
    let mut parts = 0;
    let mut bytes = 0u64;
    for chunk in body.chunks(CHUNK) {
        let mut feed = p.feed(chunk);
        while let Some(ev) = feed.next() {
            match ev.unwrap() {
                Event::PartStart(part) => {
                    parts += 1;
                    black_box(part.name_bytes());
                }
                Event::Data(d) | Event::HeldData(d) => bytes += d.len() as u64,
                _ => {}
            }
        }
    }
    let mut feed = p.finish();
    while let Some(ev) = feed.next() {
        ev.unwrap();
    }
    (parts, bytes)
}

/// UTF-8 with U+FFFD (MP-F-01), as an owned string: one allocation of the
/// exact size when the bytes are valid.
fn owned_text(b: &[u8]) -> String {
    match core::str::from_utf8(b) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(b).into_owned(),
    }
}

/// Like a FormData materializer: owned name and value strings per field,
/// the value gathered in one reused buffer (it may come in several events).
fn parse_fields(body: &[u8], opts: &Options) -> Vec<(String, String)> {
    let mut p = Parser::new(BOUNDARY.as_bytes(), opts.clone()).unwrap();
    let mut out: Vec<(String, String)> = Vec::new();
    let mut name = String::new();
    let mut value = Vec::new();
    let mut handle = |ev: Event<'_, '_>| match ev {
        Event::PartStart(part) => {
            name = part.name().into_owned();
            value.clear();
        }
        Event::Data(d) | Event::HeldData(d) => value.extend_from_slice(d),
        Event::PartEnd => out.push((std::mem::take(&mut name), owned_text(&value))),
        Event::End => {}
    };
    for chunk in body.chunks(CHUNK) {
        let mut feed = p.feed(chunk);
        while let Some(ev) = feed.next() {
            handle(ev.unwrap());
        }
    }
    let mut feed = p.finish();
    while let Some(ev) = feed.next() {
        handle(ev.unwrap());
    }
    out
}

/// `FormData` (one text arena, no allocation per field), fed in 64 KiB chunks.
fn form_data(body: &[u8], parser: &mut Parser, form: &mut FormData) {
    parser.reset();
    form.clear();
    for chunk in body.chunks(CHUNK) {
        let mut feed = parser.feed(chunk);
        while let Some(ev) = feed.next() {
            form.add(&ev.unwrap());
        }
    }
    let mut feed = parser.finish();
    while let Some(ev) = feed.next() {
        form.add(&ev.unwrap());
    }
}

fn w1() {
    let mut rng = Rng(1);
    let mut body = Vec::new();
    text_part(&mut body, "title", "hello");
    text_part(&mut body, "note", "a small field");
    body.extend_from_slice(
        format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
    );
    let payload_start = body.len();
    body.extend_from_slice(&rng.bytes(200 << 20));
    let payload = payload_start..body.len();
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    let opts = Options::default();
    let needle = format!("\r\n--{}", &BOUNDARY[..36]);
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    // REF of peers.md: a 40-byte needle that does not occur, over the payload.
    let scan = fastest(|| assert!(black_box(finder.find(&body[payload.clone()])).is_none()), 9);
    let parse = fastest(|| assert_eq!(parse_count(&body, &opts).0, 3), 9);
    let gbs = |d: Duration| body.len() as f64 / d.as_secs_f64() / 1e9;
    println!(
        "W1 {} B: memmem scan {:.2} ms ({:.1} GB/s), parse {:.2} ms ({:.1} GB/s): {:.2}x of the scan",
        body.len(),
        scan.as_secs_f64() * 1e3,
        gbs(scan),
        parse.as_secs_f64() * 1e3,
        gbs(parse),
        scan.as_secs_f64() / parse.as_secs_f64()
    );
}

/// A body bench/lib/gen.py wrote: bench/run generates bench/.work/full/ once (no second generator here).
fn generated(name: &str) -> Vec<u8> {
    let path = format!("{}/../.work/full/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e} (run bench/run --workload W2,W4 --lang rust once)"))
}

/// W2 of bench/lib/gen.py.
fn w2_body() -> Vec<u8> {
    generated("w2.body")
}

async fn multer_fields(body: &Bytes) -> Vec<(String, String)> {
    let mut form = multer::Multipart::new(SocketLike::new(body), BOUNDARY);
    let mut out = Vec::new();
    while let Some(field) = form.next_field().await.unwrap() {
        let name = field.name().unwrap_or_default().to_owned();
        out.push((name, field.text().await.unwrap()));
    }
    out
}

async fn stream_fields(body: &Bytes, opts: &Options) -> Vec<(String, String)> {
    let mut form = formwire::multipart::stream::Multipart::new(SocketLike::new(body), BOUNDARY, opts.clone()).unwrap();
    let mut out = Vec::new();
    while let Some(part) = form.next_part().await.unwrap() {
        let name = part.name().into_owned();
        out.push((name, part.text().await.unwrap()));
    }
    out
}

fn w2() {
    let body = w2_body();
    let bytes = Bytes::from(body.clone());
    let mut opts = Options::default();
    opts.max_parts = 100_000;
    opts.max_fields = 100_000;
    let want = block_on(multer_fields(&bytes));
    assert_eq!(want.len(), 10_000);
    assert_eq!(block_on(stream_fields(&bytes, &opts)), want);
    assert_eq!(parse_fields(&body, &opts), want);
    let mut parser = Parser::new(BOUNDARY.as_bytes(), opts.clone()).unwrap();
    let mut parser2 = Parser::new(BOUNDARY.as_bytes(), opts.clone()).unwrap();
    let mut parser3 = Parser::new(BOUNDARY.as_bytes(), opts.clone()).unwrap();
    let mut form = FormData::new();
    form_data(&body, &mut parser, &mut form);
    assert!(form.fields().eq(want.iter().map(|(a, b)| (a.as_str(), b.as_str()))));
    println!("W2 {} B, 10000 fields, 64 KiB chunks (peers.md: multer 8.9 ms)", body.len());
    compare(
        "W2",
        41,
        &mut [
            ("multer 3, socket-like stream, (String, String) pairs", &mut || {
                assert_eq!(black_box(block_on(multer_fields(&bytes))).len(), 10_000)
            }),
            ("formwire stream::Multipart, socket-like, name + text()", &mut || {
                assert_eq!(black_box(block_on(stream_fields(&bytes, &opts))).len(), 10_000)
            }),
            ("formwire Parser events, owned (String, String) pairs", &mut || {
                assert_eq!(black_box(parse_fields(&body, &opts)).len(), 10_000)
            }),
            ("formwire FormData, then to_fields() (owned pairs)", &mut || {
                let mut form = FormData::new();
                form_data(&body, &mut parser3, &mut form);
                assert_eq!(black_box(form.to_fields()).len(), 10_000);
            }),
            ("formwire stream::Multipart::form_data(), socket-like", &mut || {
                let form = formwire::multipart::stream::Multipart::new(SocketLike::new(&bytes), BOUNDARY, opts.clone()).unwrap();
                assert_eq!(black_box(block_on(form.form_data()).unwrap()).len(), 10_000);
            }),
            ("formwire FormData (one arena), fresh each run", &mut || {
                let mut form = FormData::new();
                form_data(&body, &mut parser2, &mut form);
                assert_eq!(black_box(form).len(), 10_000);
            }),
            ("formwire FormData (one arena), buffers reused", &mut || {
                form_data(&body, &mut parser, &mut form);
                assert_eq!(black_box(&form).len(), 10_000);
            }),
            ("formwire Parser events only (count)", &mut || assert_eq!(parse_count(&body, &opts).0, 10_000)),
        ],
    );
}

/// W4 of bench/lib/gen.py: the body and its pairs as the incumbent decodes them (the reference).
fn w4_body() -> (Vec<u8>, Vec<(String, String)>) {
    let body = generated("w4.txt");
    let pairs = form_urlencoded::parse(&body).into_owned().collect();
    (body, pairs)
}

fn w4() {
    let (body, pairs) = w4_body();
    let n = pairs.len();
    let mut opts = urlencoded::Options::default();
    opts.max_pairs = urlencoded::UNLIMITED;
    let check = urlencoded::parse_with(&body, &opts).unwrap();
    assert!(check.len() == n && check.iter().zip(&pairs).all(|((a, b), (c, d))| a == c && b == d));
    println!("W4 {} B, {n} pairs (peers.md: form_urlencoded 4.69 ms)", body.len());
    let mut form = Some(urlencoded::Form::default());
    compare(
        "W4",
        101,
        &mut [
            ("form_urlencoded::parse into Vec<(String, String)>", &mut || {
                let v: Vec<(String, String)> = form_urlencoded::parse(&body).into_owned().collect();
                assert_eq!(black_box(v).len(), n);
            }),
            ("formwire urlencoded::parse_with (Cow pairs)", &mut || {
                assert_eq!(black_box(urlencoded::parse_with(&body, &opts).unwrap()).len(), n)
            }),
            ("formwire urlencoded::parse_with into Vec<(String, String)>", &mut || {
                let v: Vec<(String, String)> = urlencoded::parse_with(&body, &opts)
                    .unwrap()
                    .into_iter()
                    .map(|(a, b)| (a.into_owned(), b.into_owned()))
                    .collect();
                assert_eq!(black_box(v).len(), n);
            }),
            ("formwire urlencoded::Form (one arena, reused)", &mut || {
                let f = form.take().unwrap().parse_reusing(&body, &opts).unwrap();
                assert_eq!(black_box(&f).len(), n);
                // Keep the buffers for the next run (fresh lifetime each time).
                form = Some(f.parse_reusing(b"", &opts).unwrap());
            }),
            ("formwire urlencoded::Form::parse (fresh)", &mut || {
                assert_eq!(black_box(urlencoded::Form::parse(&body, &opts).unwrap()).len(), n)
            }),
        ],
    );
}

fn w5() {
    let mut rng = Rng(5);
    let fields: Vec<(String, String)> = (0..1000).map(|i| (format!("field{i:04}"), rng.alnum(20))).collect();
    let blob = rng.bytes(10 << 20);
    let mut len = 0;
    let t = fastest(
        || {
            let mut enc = Encoder::with_boundary(BOUNDARY).unwrap();
            for (k, v) in &fields {
                enc.text(k, v);
            }
            enc.file("blob", "blob.bin", "application/octet-stream", &blob[..]).unwrap();
            let out = enc.encode_to_vec().unwrap();
            len = out.len();
            black_box(out);
        },
        51,
    );
    let slices = fastest(
        || {
            let mut enc = Encoder::with_boundary(BOUNDARY).unwrap();
            for (k, v) in &fields {
                enc.text(k, v);
            }
            enc.file("blob", "blob.bin", "application/octet-stream", &blob[..]).unwrap();
            black_box(enc.slices().unwrap().len());
        },
        51,
    );
    println!(
        "W5 {len} B: encode_to_vec {:.3} ms (common-multipart-rfc7578 0.99 ms), borrowed slices {:.3} ms",
        t.as_secs_f64() * 1e3,
        slices.as_secs_f64() * 1e3
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let want = |w: &str| args.is_empty() || args.iter().any(|a| a == w);
    if want("W1") {
        w1();
    }
    if want("W2") {
        w2();
    }
    if want("W4") {
        w4();
    }
    if want("W5") {
        w5();
    }
}
