//! Profiling helper: the layers on a deeply nested value.
use formwire_v8::{DecodeOptions, decode_with, neutral};
use std::time::Instant;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let mut b = vec![0xFF, 0x0F];
    for _ in 0..n {
        b.extend_from_slice(&[0x41, 0x01]);
    }
    b.push(0x5F);
    for _ in 0..n {
        b.extend_from_slice(&[0x24, 0x00, 0x01]);
    }
    let t = Instant::now();
    let g = decode_with(
        &b,
        &DecodeOptions {
            max_depth: u32::MAX,
            ..DecodeOptions::default()
        },
    )
    .unwrap();
    println!("decode {:?}", t.elapsed());
    let t = Instant::now();
    let j = neutral::to_json(&g);
    println!("to_json {:?}", t.elapsed());
    let t = Instant::now();
    let back = neutral::from_json(&j).unwrap();
    println!("from_json {:?}", t.elapsed());
    let t = Instant::now();
    assert!(back.same_as(&g));
    println!("same_as {:?}", t.elapsed());
    let t = Instant::now();
    drop(j);
    println!("drop json {:?}", t.elapsed());
}
