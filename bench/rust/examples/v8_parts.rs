//! Per-item costs on simple payloads (300 ints, 300 short strings, 100 empty objects, 100 one-property
//! objects), CPU time per decode (with a reused `Decoder`, so per-call working memory is not counted) and
//! encode. Linux only (`/proc/thread-self/schedstat`).
//!
//! `cargo run --release --manifest-path bench/rust/Cargo.toml --example v8_parts`
use formwire_v8::{Decoder, Graph, Heap, Value, encode};
use std::time::Duration;
fn cpu() -> Duration {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    Duration::from_nanos(s.split_whitespace().next().unwrap().parse().unwrap())
}
fn time(name: &str, g: &Graph) {
    let b = encode(g).unwrap();
    let n = 20000;
    let mut decoder = Decoder::new();
    let t = cpu();
    for _ in 0..n {
        std::hint::black_box(decoder.decode(std::hint::black_box(&b)).unwrap());
    }
    let d = (cpu() - t) / n;
    let t = cpu();
    for _ in 0..n {
        std::hint::black_box(encode(std::hint::black_box(g)).unwrap());
    }
    let e = (cpu() - t) / n;
    println!(
        "{name:<30} decode {:>8.2} µs  encode {:>8.2} µs  ({} B)",
        d.as_secs_f64() * 1e6,
        e.as_secs_f64() * 1e6,
        b.len()
    );
}
fn main() {
    let mut h = Heap::new();
    let r = h.array((0..300).map(|i| Value::Number(f64::from(i % 50))));
    time("300 ints", &Graph::new(h, r));
    let mut h = Heap::new();
    let r = h.array((0..300).map(|i| Value::str(&format!("Alice{}", i % 10))));
    time("300 strings", &Graph::new(h, r));
    let mut h = Heap::new();
    let items: Vec<Value> = (0..100).map(|_| h.object([])).collect();
    let r = h.array(items);
    time("100 empty objects", &Graph::new(h, r));
    let mut h = Heap::new();
    let items: Vec<Value> = (0..100)
        .map(|i| h.object([("a", Value::Number(f64::from(i)))]))
        .collect();
    let r = h.array(items);
    time("100 objects {a:int}", &Graph::new(h, r));
}
