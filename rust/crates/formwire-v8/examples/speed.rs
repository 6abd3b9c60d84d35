//! Encode/decode throughput on the W6 clone workloads (bench/README.md):
//! an array of 100 flat `{name, age, active}` objects and a 3,000,000-char one-byte string.
//!
//! `cargo run --release -p formwire-v8 --example speed --features serde`
use formwire_v8::{Graph, Heap, JsString, Value, decode, encode};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// CPU time of this thread (Linux `/proc/thread-self/schedstat`), so a loaded machine does not
/// inflate the numbers; wall time where that is not available.
fn cpu_now() -> Duration {
    if let Ok(s) = std::fs::read_to_string("/proc/thread-self/schedstat") {
        if let Some(ns) = s
            .split_whitespace()
            .next()
            .and_then(|x| x.parse::<u64>().ok())
        {
            return Duration::from_nanos(ns);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Median CPU time per operation over batches of at least 20 ms (as the peers' harness measures).
fn per_op(mut f: impl FnMut()) -> Duration {
    let mut n = 1u32;
    loop {
        let t = cpu_now();
        for _ in 0..n {
            f();
        }
        if cpu_now() - t >= Duration::from_millis(20) {
            break;
        }
        n *= 2;
    }
    let mut samples: Vec<Duration> = (0..9)
        .map(|_| {
            let t = cpu_now();
            for _ in 0..n {
                f();
            }
            (cpu_now() - t) / n
        })
        .collect();
    samples.sort();
    samples[samples.len() / 2]
}

fn report(name: &str, bytes: usize, d: Duration) {
    let mbs = bytes as f64 / d.as_secs_f64() / 1e6;
    println!(
        "{name:<46} {:>9.2} µs/op {:>8.0} MB/s   ({bytes} B)",
        d.as_secs_f64() * 1e6,
        mbs
    );
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct Person {
    name: String,
    age: u32,
    active: bool,
}

fn main() {
    // clone-probe/cases.mjs `flat(i)`: the same shape as Bun's bench/postMessage.
    let mut heap = Heap::new();
    let items: Vec<Value> = (0..100)
        .map(|i| {
            heap.object([
                ("name", Value::str(&format!("Alice{}", i % 10))),
                ("age", Value::Number(f64::from(30 + i % 50))),
                ("active", Value::Bool(i % 2 == 0)),
            ])
        })
        .collect();
    let root = heap.array(items);
    let objects = Graph::new(heap, root);
    let obj_bytes = encode(&objects).unwrap();
    report(
        "[100 objects] encode (Graph -> bytes)",
        obj_bytes.len(),
        per_op(|| {
            black_box(encode(black_box(&objects)).unwrap());
        }),
    );
    report(
        "[100 objects] decode (bytes -> Graph)",
        obj_bytes.len(),
        per_op(|| {
            black_box(decode(black_box(&obj_bytes)).unwrap());
        }),
    );

    #[cfg(feature = "serde")]
    {
        let people: Vec<Person> = (0..100)
            .map(|i| Person {
                name: format!("Alice{}", i % 10),
                age: 30 + i % 50,
                active: i % 2 == 0,
            })
            .collect();
        assert_eq!(formwire_v8::serde::to_bytes(&people).unwrap(), obj_bytes);
        report(
            "[100 objects] serde to_bytes (Vec<Person>)",
            obj_bytes.len(),
            per_op(|| {
                black_box(formwire_v8::serde::to_bytes(black_box(&people)).unwrap());
            }),
        );
        report(
            "[100 objects] serde from_bytes (Vec<Person>)",
            obj_bytes.len(),
            per_op(|| {
                black_box(
                    formwire_v8::serde::from_bytes::<Vec<Person>>(black_box(&obj_bytes)).unwrap(),
                );
            }),
        );
    }

    let text: Vec<u8> = b"Hello World!!!"
        .iter()
        .copied()
        .cycle()
        .take(3_000_000)
        .collect();
    let string = Graph::primitive(Value::String(JsString::from_latin1(text)));
    let str_bytes = encode(&string).unwrap();
    report(
        "3 MB one-byte string encode",
        3_000_000,
        per_op(|| {
            black_box(encode(black_box(&string)).unwrap());
        }),
    );
    report(
        "3 MB one-byte string decode",
        3_000_000,
        per_op(|| {
            black_box(decode(black_box(&str_bytes)).unwrap());
        }),
    );
}
