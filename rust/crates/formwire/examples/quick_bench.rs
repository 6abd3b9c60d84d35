//! A quick local speed check of the peers.md workloads (W1, W2, W4, W5).
//! Not the project's benchmark (that lives in bench/); a sanity check:
//!
//! ```text
//! cargo run --release -p formwire --example quick_bench [-- W1 W2 W4 W5]
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use formwire::multipart::{Encoder, Event, Options, Parser};
use formwire::urlencoded;

const BOUNDARY: &str = "----PeerBenchFormBoundary7MA4YWxkTrZu0g";
const CHUNK: usize = 64 * 1024;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(n + 8);
        while v.len() < n {
            v.extend_from_slice(&self.next().to_le_bytes());
        }
        v.truncate(n);
        v
    }

    fn alnum(&mut self, n: usize) -> String {
        const A: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        (0..n).map(|_| A[(self.next() % 62) as usize] as char).collect()
    }
}

/// The fastest of `runs` timed runs (after one warm-up): on a shared,
/// noisy machine the minimum is the most repeatable statistic.
fn median(mut f: impl FnMut(), runs: usize) -> Duration {
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

/// Like a FormData materializer: owned name and value strings per field.
fn parse_fields(body: &[u8], opts: &Options) -> Vec<(String, String)> {
    let mut p = Parser::new(BOUNDARY.as_bytes(), opts.clone()).unwrap();
    let mut out: Vec<(String, String)> = Vec::new();
    for chunk in body.chunks(CHUNK) {
        let mut feed = p.feed(chunk);
        while let Some(ev) = feed.next() {
            match ev.unwrap() {
                Event::PartStart(part) => out.push((part.name().into_owned(), String::new())),
                Event::Data(d) | Event::HeldData(d) => {
                    out.last_mut().unwrap().1.push_str(&String::from_utf8_lossy(d));
                }
                _ => {}
            }
        }
    }
    let mut feed = p.finish();
    while let Some(ev) = feed.next() {
        ev.unwrap();
    }
    out
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
    let scan = median(|| assert!(black_box(finder.find(&body[payload.clone()])).is_none()), 9);
    let parse = median(|| assert_eq!(parse_count(&body, &opts).0, 3), 9);
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

fn w2() {
    let mut rng = Rng(2);
    let mut body = Vec::new();
    for i in 0..10_000 {
        let len = 16 + (rng.next() % 9) as usize;
        let v = rng.alnum(len);
        text_part(&mut body, &format!("field{i:05}"), &v);
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    let mut opts = Options::default();
    opts.max_parts = 100_000;
    let events = median(|| assert_eq!(parse_count(&body, &opts).0, 10_000), 51);
    let owned = median(|| assert_eq!(parse_fields(&body, &opts).len(), 10_000), 51);
    println!(
        "W2 {} B, 10000 fields: events only {:.3} ms ({:.0} ns/part), owned strings {:.3} ms (multer 8.9 ms, target <= 1.1 ms)",
        body.len(),
        events.as_secs_f64() * 1e3,
        events.as_secs_f64() * 1e9 / 10_000.0,
        owned.as_secs_f64() * 1e3
    );
}

fn w4() {
    let mut rng = Rng(4);
    let specials = ["caf\u{e9}", "\u{20ac}", "\u{1f600}", "\u{43f}\u{440}\u{438}\u{432}\u{435}\u{442}", "&", "=", "%", "a b"];
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 1_048_546 - 60 {
        let k = format!("key{i}");
        let r = rng.next() % 5;
        let v = if r < 2 {
            format!("{} {}", rng.alnum(12), rng.alnum(14))
        } else if r == 2 {
            format!("{}{}", rng.alnum(8), specials[(rng.next() % 8) as usize])
        } else {
            rng.alnum(30)
        };
        if !text.is_empty() {
            text.push('&');
        }
        text.push_str(&urlencoded::serialize([(&k, &v)]));
        pairs.push((k, v));
        i += 1;
    }
    let body = text.into_bytes();
    let n = pairs.len();
    let mut opts = urlencoded::Options::default();
    opts.max_pairs = urlencoded::UNLIMITED;
    let t = median(|| assert_eq!(black_box(urlencoded::parse_with(&body, &opts).unwrap()).len(), n), 101);
    let owned = median(
        || {
            let v: Vec<(String, String)> =
                urlencoded::parse_with(&body, &opts).unwrap().into_iter().map(|(a, b)| (a.into_owned(), b.into_owned())).collect();
            assert_eq!(black_box(v).len(), n);
        },
        101,
    );
    let mut form = Some(urlencoded::Form::default());
    let arena = median(
        || {
            let f = form.take().unwrap().parse_reusing(&body, &opts).unwrap();
            assert_eq!(black_box(f.iter().count()), n);
            // Keep the buffers for the next run (fresh lifetime each time).
            form = Some(f.parse_reusing(b"", &opts).unwrap().parse_reusing(b"", &opts).unwrap());
        },
        101,
    );
    println!("   urlencoded::Form (one arena, no allocation per pair): {:.3} ms", arena.as_secs_f64() * 1e3);
    let incumbent = median(
        || {
            let v: Vec<(String, String)> = form_urlencoded::parse(&body).into_owned().collect();
            assert_eq!(black_box(v).len(), n);
        },
        101,
    );
    println!("   form_urlencoded::parse into owned Strings here: {:.3} ms", incumbent.as_secs_f64() * 1e3);
    let check = urlencoded::parse_with(&body, &opts).unwrap();
    assert!(check.iter().zip(&pairs).all(|((a, b), (c, d))| a == c && b == d));
    println!(
        "W4 {} B, {n} pairs: Cow pairs {:.3} ms ({:.0} MB/s), owned Strings {:.3} ms (form_urlencoded 4.69 ms, target <= 1.2 ms)",
        body.len(),
        t.as_secs_f64() * 1e3,
        body.len() as f64 / t.as_secs_f64() / 1e6,
        owned.as_secs_f64() * 1e3
    );
}

fn w5() {
    let mut rng = Rng(5);
    let fields: Vec<(String, String)> = (0..1000).map(|i| (format!("field{i:04}"), rng.alnum(20))).collect();
    let blob = rng.bytes(10 << 20);
    let mut len = 0;
    let t = median(
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
    let slices = median(
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
