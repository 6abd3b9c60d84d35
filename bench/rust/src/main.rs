//! The Rust runner of bench/run: one case per process.
//!
//! `formwire-bench JOB.json` reads a job (impl, workload entry of the manifest, repetitions), loads the input,
//! warms up, times each repetition around the work only, and prints one JSON line: times, the result summary that
//! bench/run validates, peak RSS growth (VmHWM), version.
use std::io::{Cursor, Read};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use futures_util::stream::Stream;
use futures_util::StreamExt;
use serde_json::{json, Value};

type Res = Result<Value, String>;

static BASE_KB: AtomicU64 = AtomicU64::new(0);
static RESET: AtomicBool = AtomicBool::new(false);
static SLOW: AtomicBool = AtomicBool::new(false);
static CPU: std::sync::Mutex<Vec<f64>> = std::sync::Mutex::new(Vec::new());

/// Process CPU time (all threads), seconds.
fn cpu_now() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

struct Job {
    imp: String,
    work: Value,
    dir: String,
    reps: usize,
    warmup: usize,
    min_time: f64,
    max_reps: usize,
    batch_time: f64,
    slow_s: f64,
}

fn s(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_default().to_string()
}
fn u(v: &Value, k: &str) -> usize {
    v[k].as_u64().unwrap_or(0) as usize
}

fn status_kb(key: &str) -> u64 {
    let st = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for line in st.lines() {
        if let Some(rest) = line.strip_prefix(key) {
            return rest.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
        }
    }
    0
}

/// Resets VmHWM to the current RSS (Linux `clear_refs` 5). Returns whether it worked.
fn reset_hwm() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Runs `f` warmup + repetitions; `f` returns (seconds, result). Returns times and the last result.
fn measure(job: &Job, mut f: impl FnMut() -> Result<(f64, Value), String>) -> Result<(Vec<f64>, Value), String> {
    // The RSS baseline is taken here, with the input loaded: growth is what the work itself holds at its peak.
    let base = status_kb("VmRSS:");
    let reset = reset_hwm();
    let hwm0 = status_kb("VmHWM:");
    BASE_KB.store(if reset { base } else { hwm0 }, Ordering::SeqCst);
    RESET.store(reset, Ordering::SeqCst);
    for _ in 0..job.warmup {
        let (t, r) = f()?;
        if t > job.slow_s {
            // pathologically slow: its one (cold) run is the sample, flagged
            SLOW.store(true, Ordering::SeqCst);
            return Ok((vec![t], r));
        }
    }
    let mut times = Vec::new();
    let mut total = 0.0;
    let mut last = Value::Null;
    while times.len() < job.reps || (total < job.min_time && times.len() < job.max_reps) {
        let c0 = cpu_now();
        TIMED_CPU.with(|c| c.set(None));
        let (t, r) = f()?;
        // The CPU time of the region the wall time covers when the row used `timed` (so neither includes building
        // the summary or dropping the result), else of the whole call.
        let cpu = TIMED_CPU.with(|c| c.get()).unwrap_or_else(|| cpu_now() - c0);
        CPU.lock().unwrap().push(cpu);
        times.push(t);
        total += t;
        last = r;
        if t > job.slow_s {
            SLOW.store(times.len() == 1, Ordering::SeqCst);
            break;
        }
    }
    Ok((times, last))
}

thread_local! {
    /// CPU seconds of the last `timed` region.
    static TIMED_CPU: std::cell::Cell<Option<f64>> = const { std::cell::Cell::new(None) };
}

fn timed<T>(f: impl FnOnce() -> Result<T, String>) -> Result<(f64, T), String> {
    let c0 = cpu_now();
    let t0 = Instant::now();
    let r = f()?;
    let t = t0.elapsed().as_secs_f64();
    TIMED_CPU.with(|c| c.set(Some(cpu_now() - c0)));
    Ok((t, r))
}

// -------------------------------------------------------------------------------------------------------------
// Multipart parsing

#[derive(Default)]
struct Counts {
    parts: u64,
    fields: u64,
    files: u64,
    field_bytes: u64,
    file_bytes: u64,
}

impl Counts {
    fn json(&self) -> Value {
        json!({"parts": self.parts, "fields": self.fields, "files": self.files,
               "field_bytes": self.field_bytes, "file_bytes": self.file_bytes})
    }
}

fn formwire_parse(body: &[u8], work: &Value, chunk: usize, keep_strings: bool) -> Res {
    use formwire::multipart::{Event, Options, Parser};
    let mut o = Options::default();
    o.max_parts = formwire::multipart::UNLIMITED;
    o.max_fields = formwire::multipart::UNLIMITED;
    o.max_files = formwire::multipart::UNLIMITED;
    o.allow_preamble = work["allow_preamble"].as_bool().unwrap_or(false);
    let mut p = Parser::from_content_type(&s(work, "content_type"), o).map_err(|e| e.to_string())?;
    let mut c = Counts::default();
    let mut is_file = false;
    let mut cur: Vec<u8> = Vec::new();
    let mut names = 0usize;
    let mut handle = |ev: Event<'_, '_>, c: &mut Counts, is_file: &mut bool, cur: &mut Vec<u8>| match ev {
        Event::PartStart(part) => {
            c.parts += 1;
            *is_file = part.is_file();
            names += part.name().len();
            cur.clear();
        }
        Event::Data(d) | Event::HeldData(d) => {
            if *is_file {
                c.file_bytes += d.len() as u64;
            } else {
                cur.extend_from_slice(d);
            }
        }
        Event::PartEnd => {
            if *is_file {
                c.files += 1;
            } else {
                c.fields += 1;
                if keep_strings {
                    // An owned String per field, as multer's `field.text()` gives (U+FFFD for invalid bytes; the
                    // usual valid text is checked and copied once, without from_utf8_lossy's chunk iterator).
                    let v = match core::str::from_utf8(cur) {
                        Ok(s) => s.to_owned(),
                        Err(_) => String::from_utf8_lossy(cur).into_owned(),
                    };
                    c.field_bytes += v.len() as u64;
                } else {
                    c.field_bytes += cur.len() as u64;
                }
            }
        }
        Event::End => {}
    };
    for piece in body.chunks(chunk.max(1)) {
        let mut feed = p.feed(piece);
        while let Some(ev) = feed.next() {
            handle(ev.map_err(|e| e.to_string())?, &mut c, &mut is_file, &mut cur);
        }
    }
    let mut feed = p.finish();
    while let Some(ev) = feed.next() {
        handle(ev.map_err(|e| e.to_string())?, &mut c, &mut is_file, &mut cur);
    }
    if !p.is_done() {
        return Err("formwire: not done after finish".into());
    }
    Ok(c.json())
}

thread_local! {
    /// Counts executor polls of the parse future (see [`Ticked`]).
    static TICK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Wraps the parse future: every poll by the executor is one tick, the time step in which a socket's next chunk
/// can arrive.
struct Ticked<F>(Pin<Box<F>>);

impl<F: std::future::Future> std::future::Future for Ticked<F> {
    type Output = F::Output;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        TICK.with(|t| t.set(t.get() + 1));
        self.0.as_mut().poll(cx)
    }
}

/// A stream that is Pending (and wakes its task) before each chunk, the way a socket delivers data: the chunk is
/// there only at a later poll of the task by the executor, never on an immediate re-poll within the same tick.
struct SocketLike {
    body: Bytes,
    pos: usize,
    chunk: usize,
    pending_at: Option<u64>,
}

impl Stream for SocketLike {
    type Item = Result<Bytes, std::io::Error>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.pos >= self.body.len() {
            return Poll::Ready(None);
        }
        let now = TICK.with(|t| t.get());
        match self.pending_at {
            Some(t) if t != now => {}
            _ => {
                self.pending_at = Some(now);
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
        }
        self.pending_at = None;
        let end = (self.pos + self.chunk).min(self.body.len());
        let b = self.body.slice(self.pos..end);
        self.pos = end;
        Poll::Ready(Some(Ok(b)))
    }
}

async fn multer_parse<S>(stream: S, boundary: &str) -> Res
where
    S: Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static,
{
    let mut mp = multer::Multipart::new(stream, boundary);
    let mut c = Counts::default();
    while let Some(mut field) = mp.next_field().await.map_err(|e| e.to_string())? {
        c.parts += 1;
        if field.file_name().is_some() {
            c.files += 1;
            while let Some(b) = field.chunk().await.map_err(|e| e.to_string())? {
                c.file_bytes += b.len() as u64;
            }
        } else {
            c.fields += 1;
            let t = field.text().await.map_err(|e| e.to_string())?;
            c.field_bytes += t.len() as u64;
        }
    }
    Ok(c.json())
}

fn run_multipart(job: &Job) -> Result<(Vec<f64>, Value, String), String> {
    let w = &job.work;
    let data = std::fs::read(format!("{}/{}", job.dir, s(w, "file"))).map_err(|e| e.to_string())?;
    let chunk = u(w, "chunk").max(1);
    let boundary = s(w, "boundary");
    match job.imp.as_str() {
        "formwire" => {
            let (t, r) = measure(job, || timed(|| formwire_parse(&data, w, chunk, true)))?;
            Ok((t, r, "formwire-core".into()))
        }
        "multer" | "multer-ready" => {
            let body = Bytes::from(data);
            let rt = tokio::runtime::Builder::new_current_thread().build().map_err(|e| e.to_string())?;
            let ready = job.imp == "multer-ready";
            let (t, r) = measure(job, || {
                let body = body.clone();
                let b = boundary.clone();
                timed(|| {
                    rt.block_on(Ticked(Box::pin(async move {
                        if ready {
                            let n = body.len();
                            let chunks: Vec<Result<Bytes, std::io::Error>> = (0..n)
                                .step_by(chunk)
                                .map(|i| Ok(body.slice(i..(i + chunk).min(n))))
                                .collect();
                            multer_parse(futures_util::stream::iter(chunks), &b).await
                        } else {
                            multer_parse(SocketLike { body, pos: 0, chunk, pending_at: None }, &b).await
                        }
                    })))
                })
            })?;
            Ok((t, r, "3.1.0".into()))
        }
        "floor-read" => {
            // Floor: the memory traffic any parser of this body must cause and nothing else: every 64-byte
            // cache line of the body loaded once (one byte of each summed, 64 KiB chunks as the parsers are
            // fed). A delimiter may start at any byte and is shorter than a line plus 6 bytes, so no search
            // can skip a line; a bare memmem scan is not the floor (formwire's parser takes less time).
            let (t, r) = measure(job, || {
                let (t, (lines, sum)) = timed(|| {
                    let (mut lines, mut sum) = (0u64, 0u64);
                    for chunk in data.chunks(64 * 1024) {
                        for line in chunk.chunks(64) {
                            sum = sum.wrapping_add(u64::from(line[0]));
                            lines += 1;
                        }
                    }
                    Ok((std::hint::black_box(lines), sum))
                })?;
                Ok((t, json!({"floor": true, "lines": lines, "sum": sum})))
            })?;
            Ok((t, r, "std".into()))
        }
        other => Err(format!("unknown multipart impl {other}")),
    }
}

// -------------------------------------------------------------------------------------------------------------
// urlencoded

fn run_urlencoded(job: &Job) -> Result<(Vec<f64>, Value, String), String> {
    let data = std::fs::read(format!("{}/{}", job.dir, s(&job.work, "file"))).map_err(|e| e.to_string())?;
    let summary = |n: usize, bytes: usize| json!({"pairs": n, "decoded_bytes": bytes});
    match job.imp.as_str() {
        "formwire" | "formwire-owned" => {
            let owned = job.imp == "formwire-owned";
            let mut o = formwire::urlencoded::Options::default();
            o.max_pairs = formwire::urlencoded::UNLIMITED;
            let (t, r) = measure(job, || {
                if owned {
                    // The same Vec<(String, String)> as the incumbent row builds, from the one-pass owned API.
                    let (t, v) = timed(|| formwire::urlencoded::parse_owned_with(&data, &o).map_err(|e| e.to_string()))?;
                    Ok((t, summary(v.len(), v.iter().map(|(a, b)| a.len() + b.len()).sum())))
                } else {
                    let (t, v) = timed(|| formwire::urlencoded::parse_with(&data, &o).map_err(|e| e.to_string()))?;
                    Ok((t, summary(v.len(), v.iter().map(|(a, b)| a.len() + b.len()).sum())))
                }
            })?;
            Ok((t, r, "formwire-core".into()))
        }
        "form_urlencoded" => {
            let (t, r) = measure(job, || {
                let (t, v) = timed(|| {
                    Ok(form_urlencoded::parse(&data)
                        .map(|(k, v)| (k.into_owned(), v.into_owned()))
                        .collect::<Vec<(String, String)>>())
                })?;
                Ok((t, summary(v.len(), v.iter().map(|(a, b)| a.len() + b.len()).sum())))
            })?;
            Ok((t, r, "1.2.2".into()))
        }
        "floor-owned" => {
            // Floor: the allocation + copy every parser returning owned strings pays. The pairs are decoded once
            // outside the timer; the timer covers only building the Vec<(String, String)> from them.
            let mut o = formwire::urlencoded::Options::default();
            o.max_pairs = formwire::urlencoded::UNLIMITED;
            let decoded = formwire::urlencoded::parse_with(&data, &o).map_err(|e| e.to_string())?;
            let (t, r) = measure(job, || {
                let (t, v) = timed(|| {
                    Ok(decoded.iter().map(|(k, v)| (k.as_ref().to_owned(), v.as_ref().to_owned())).collect::<Vec<(String, String)>>())
                })?;
                Ok((t, json!({"floor": true, "pairs": v.len()})))
            })?;
            Ok((t, r, "std".into()))
        }
        other => Err(format!("unknown urlencoded impl {other}")),
    }
}

// -------------------------------------------------------------------------------------------------------------
// Serialize

fn body_summary(body: &[u8], boundary: &str) -> Value {
    let open = format!("--{boundary}\r\n");
    let close = format!("--{boundary}--\r\n");
    let finder = memchr::memmem::Finder::new(open.as_bytes());
    let delims = finder.find_iter(body).count();
    json!({"bytes": body.len(), "delims": delims, "closed": body.ends_with(close.as_bytes()),
           "boundary": boundary, "sha256": Value::Null})
}

struct FixedBoundary;
impl common_multipart_rfc7578::client::multipart::BoundaryGenerator for FixedBoundary {
    fn generate_boundary() -> String {
        "----PeerBenchFormBoundary7MA4YWxkTrZu0g".to_string()
    }
}

fn run_serialize(job: &Job) -> Result<(Vec<f64>, Value, String), String> {
    let w = &job.work;
    let fields: Vec<(String, String)> =
        serde_json::from_str(&std::fs::read_to_string(format!("{}/{}", job.dir, s(w, "fields"))).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let blob = std::fs::read(format!("{}/{}", job.dir, s(w, "blob"))).map_err(|e| e.to_string())?;
    let boundary = s(w, "boundary");
    let (bname, btype) = (s(w, "blob_name"), s(w, "blob_type"));
    let mut last: Vec<u8> = Vec::new();
    match job.imp.as_str() {
        "formwire" => {
            let (t, _) = measure(job, || {
                let (t, body) = timed(|| {
                    let mut enc = formwire::multipart::Encoder::with_boundary(&boundary).map_err(|e| e.to_string())?;
                    for (k, v) in &fields {
                        enc.text(k, v);
                    }
                    enc.file("file", &bname, &btype, &blob[..]).map_err(|e| e.to_string())?;
                    enc.encode_to_vec().map_err(|e| e.to_string())
                })?;
                last = body;
                Ok((t, Value::Null))
            })?;
            let mut r = body_summary(&last, &boundary);
            use sha2::Digest;
            let hex: String = sha2::Sha256::digest(&last).iter().map(|b| format!("{b:02x}")).collect();
            r["sha256"] = json!(hex);
            Ok((t, r, "formwire-core".into()))
        }
        "common-multipart-rfc7578" => {
            use common_multipart_rfc7578::client::multipart::{Body, Form};
            let rt = tokio::runtime::Builder::new_current_thread().build().map_err(|e| e.to_string())?;
            let (t, _) = measure(job, || {
                let (t, body) = timed(|| {
                    let mut form = Form::new::<FixedBoundary>();
                    for (k, v) in &fields {
                        form.add_text(k, v.clone());
                    }
                    form.add_reader_file("file", Cursor::new(&blob[..]), bname.clone());
                    let mut body = Body::from(form);
                    rt.block_on(async {
                        let mut out: Vec<u8> = Vec::new();
                        while let Some(piece) = body.next().await {
                            out.extend_from_slice(&piece.map_err(|e| e.to_string())?);
                        }
                        Ok::<Vec<u8>, String>(out)
                    })
                })?;
                last = body;
                Ok((t, Value::Null))
            })?;
            let r = body_summary(&last, &boundary);
            Ok((t, r, "0.6.0".into()))
        }
        other => Err(format!("unknown serialize impl {other}")),
    }
}

// -------------------------------------------------------------------------------------------------------------
// Clone (V8 wire bytes: decode + encode)

fn run_clone(job: &Job) -> Result<(Vec<f64>, Value, String), String> {
    let w = &job.work;
    let bytes = std::fs::read(format!("{}/{}", job.dir, s(w, "v8"))).map_err(|e| e.to_string())?;
    match job.imp.as_str() {
        "formwire-v8" => {
            // Batches of at least batch_time seconds; times are per operation. One Decoder for the run, as a
            // service decoding message after message keeps one: its working memory is reused between calls.
            let mut decoder = formwire_v8::Decoder::new();
            let mut once = || -> Result<Vec<u8>, String> {
                let g = decoder.decode(&bytes).map_err(|e| e.to_string())?;
                formwire_v8::encode(&g).map_err(|e| e.to_string())
            };
            let mut k = 1usize;
            loop {
                let t0 = Instant::now();
                for _ in 0..k {
                    once()?;
                }
                if t0.elapsed().as_secs_f64() >= job.batch_time || k >= 1 << 24 {
                    break;
                }
                k *= 2;
            }
            let (t, _) = measure(job, || {
                let t0 = Instant::now();
                for _ in 0..k {
                    std::hint::black_box(once()?);
                }
                Ok((t0.elapsed().as_secs_f64() / k as f64, Value::Null))
            })?;
            for c in CPU.lock().unwrap().iter_mut() {
                *c /= k as f64;
            }
            let out = once()?;
            let r = json!({"bytes": out.len(), "same_bytes": out == bytes, "ops_per_sample": k});
            Ok((t, r, "formwire-v8".into()))
        }
        other => Err(format!("unknown clone impl {other}")),
    }
}

// -------------------------------------------------------------------------------------------------------------
// Physical references

fn run_ref(job: &Job) -> Result<(Vec<f64>, Value, String), String> {
    let w = &job.work;
    let mut f = std::fs::File::open(format!("{}/{}", job.dir, s(w, "file"))).map_err(|e| e.to_string())?;
    let mut all = Vec::new();
    f.read_to_end(&mut all).map_err(|e| e.to_string())?;
    let (off, n) = (u(w, "offset"), u(w, "bytes"));
    let payload = &all[off..off + n];
    let needle = s(w, "needle");
    match job.imp.as_str() {
        "memmem-finder" => {
            let finder = memchr::memmem::Finder::new(needle.as_bytes());
            let (t, r) = measure(job, || {
                let (t, at) = timed(|| Ok(finder.find(payload)))?;
                Ok((t, json!({"bytes": n, "found": at.map(|x| x as i64).unwrap_or(-1)})))
            })?;
            Ok((t, r, "memchr 2".into()))
        }
        "memcpy" => {
            let mut dst = vec![1u8; n]; // pre-faulted
            let (t, r) = measure(job, || {
                let (t, _) = timed(|| {
                    dst.copy_from_slice(payload);
                    Ok(())
                })?;
                Ok((t, json!({"bytes": dst.len(), "found": -1})))
            })?;
            if dst[..] != payload[..] {
                return Err("copy differs".into());
            }
            Ok((t, r, "std".into()))
        }
        other => Err(format!("unknown ref impl {other}")),
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("job file");
    let j: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read job")).expect("job json");
    let job = Job {
        imp: s(&j, "impl"),
        work: j["work"].clone(),
        dir: s(&j, "dir"),
        reps: u(&j, "reps").max(1),
        warmup: u(&j, "warmup"),
        min_time: j["min_time"].as_f64().unwrap_or(0.0),
        max_reps: u(&j, "max_reps").max(1),
        batch_time: j["batch_time"].as_f64().unwrap_or(0.02),
        slow_s: j["slow_s"].as_f64().unwrap_or(20.0),
    };
    let kind = s(&job.work, "kind");
    let out = match kind.as_str() {
        "multipart" => run_multipart(&job),
        "urlencoded" => run_urlencoded(&job),
        "serialize" => run_serialize(&job),
        "clone" => run_clone(&job),
        "ref" => run_ref(&job),
        k => Err(format!("unknown kind {k}")),
    };
    let peak = status_kb("VmHWM:");
    let line = match out {
        Ok((times, result, version)) => json!({
            "ok": true, "times": times, "cpu": *CPU.lock().unwrap(), "result": result, "version": version,
            "rss_base_kb": BASE_KB.load(Ordering::SeqCst), "rss_peak_kb": peak,
            "hwm_reset": RESET.load(Ordering::SeqCst), "slow": SLOW.load(Ordering::SeqCst),
        }),
        Err(e) => json!({"ok": false, "error": e}),
    };
    println!("{line}");
}
