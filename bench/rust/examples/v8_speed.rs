//! Encode/decode throughput on the W6 clone workloads (bench/README.md), CPU time per operation.
//!
//! `cargo run --release --manifest-path bench/rust/Cargo.toml --example v8_speed` times built-in values: an
//! array of 100 flat `{name, age, active}` objects and a 3,000,000-char one-byte string.
//!
//! `... --example v8_speed -- DIR` times the V8 bytes `DIR/w6a.v8` .. `DIR/w6d.v8` (the bench's W6a-W6d
//! values as `v8.serialize` writes them; `bench/rust/v8-compare-ts.mjs` makes them) and prints one line per
//! workload and operation, `W6b decode ...`, for the comparison tool to read.
use formwire_v8::{
    Decoder, Graph, Heap, JsString, Value, decode, decode_borrowed, encode, encode_into,
};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// CPU time of this thread (Linux `/proc/thread-self/schedstat`), so a loaded machine does not
/// inflate the numbers; wall time where that is not available. The kernel brings a running
/// thread's total up to date only at a scheduler tick or a scheduling event: the yield makes it
/// exact (without it, batches of 20 ms would be off by up to a 4 ms tick).
fn cpu_now() -> Duration {
    std::thread::yield_now();
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

/// Median CPU time per operation over 9 batches of at least 20 ms (as the peers' harness measures).
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

/// One result line: name, µs/op, MB/s (10^6 B/s over `bytes`, the V8 byte length) and the bytes.
fn report(name: &str, bytes: usize, d: Duration) {
    let mbs = bytes as f64 / d.as_secs_f64() / 1e6;
    println!(
        "{name:<50} {:>10.3} µs/op {:>9.0} MB/s   ({bytes} B)",
        d.as_secs_f64() * 1e6,
        mbs
    );
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Person {
    name: String,
    age: u32,
    active: bool,
}

fn main() {
    match std::env::args().nth(1) {
        Some(dir) => workloads(&dir),
        None => builtin(),
    }
}

/// The bench's W6 values from their V8 bytes.
fn workloads(dir: &str) {
    for (id, file) in [
        ("W6a", "w6a.v8"),
        ("W6b", "w6b.v8"),
        ("W6c", "w6c.v8"),
        ("W6d", "w6d.v8"),
    ] {
        let path = format!("{dir}/{file}");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let graph = decode(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            encode(&graph).unwrap(),
            bytes,
            "{path}: the canonical encoding differs from the file"
        );
        rows(id, &bytes, &graph);
    }
}

/// Every operation on one value: its V8 bytes and its decoded graph.
fn rows(id: &str, bytes: &[u8], graph: &Graph) {
    let n = bytes.len();
    report(
        &format!("{id} encode (Graph -> new Vec)"),
        n,
        per_op(|| {
            black_box(encode(black_box(graph)).unwrap());
        }),
    );
    let mut out = Vec::new();
    report(
        &format!("{id} encode_into (Graph -> reused Vec)"),
        n,
        per_op(|| {
            out.clear();
            encode_into(black_box(graph), &mut out).unwrap();
            black_box(&out);
        }),
    );
    report(
        &format!("{id} decode (bytes -> Graph, fresh memory)"),
        n,
        per_op(|| {
            black_box(decode(black_box(bytes)).unwrap());
        }),
    );
    let mut decoder = Decoder::new();
    report(
        &format!("{id} decode (bytes -> Graph, Decoder reused)"),
        n,
        per_op(|| {
            black_box(decoder.decode(black_box(bytes)).unwrap());
        }),
    );
    report(
        &format!("{id} decode_borrowed (bytes -> BorrowedGraph, fresh memory)"),
        n,
        per_op(|| {
            black_box(decode_borrowed(black_box(bytes)).unwrap());
        }),
    );
    report(
        &format!("{id} decode_borrowed (bytes -> BorrowedGraph, Decoder reused)"),
        n,
        per_op(|| {
            let g = decoder.decode_borrowed(black_box(bytes)).unwrap();
            black_box(&g);
            decoder.recycle(g);
        }),
    );
    if !(64..1 << 20).contains(&n) {
        // The least work a contiguous encoding of this value does: write its bytes once (into a
        // buffer that has the room; or into a new one, as `encode` returns). Printed where that
        // is a visible part of the work: a large copy, or a tiny value's allocation.
        let mut out = Vec::with_capacity(n);
        report(
            &format!("{id} floor: memcpy into a reused Vec"),
            n,
            per_op(|| {
                out.clear();
                out.extend_from_slice(black_box(bytes));
                black_box(&out);
            }),
        );
        report(
            &format!("{id} floor: to_vec (new Vec + memcpy)"),
            n,
            per_op(|| {
                black_box(black_box(bytes).to_vec());
            }),
        );
    }
}

/// The built-in values (`flat(i)` of the clone probe and a repeated-text string).
fn builtin() {
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
    rows("[100 objects]", &obj_bytes, &objects);

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
    rows("[3 MB one-byte string]", &str_bytes, &string);
}
