//! Profiling helper: decodes the [100 objects] payload in a loop (`perf record`).
use formwire_v8::{Graph, Heap, Value, decode, encode};
fn main() {
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
    let mut g = Graph::new(heap, root);
    if std::env::args().nth(3).as_deref() == Some("empty") {
        let mut h = Heap::new();
        let items: Vec<Value> = (0..100).map(|_| h.object([])).collect();
        let r = h.array(items);
        g = Graph::new(h, r);
    }
    let b = encode(&g).unwrap();
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20000);
    let mode = std::env::args().nth(2).unwrap_or_default();
    for _ in 0..n {
        if mode == "enc" {
            std::hint::black_box(encode(std::hint::black_box(&g)).unwrap());
        } else {
            std::hint::black_box(decode(std::hint::black_box(&b)).unwrap());
        }
    }
}
