// Writes N bytes of splitmix64 output (vectors/SCHEMA.md: each 64-bit output little-endian, the last one
// truncated) for a seed, to a file. Used by bench/lib/gen.py for the large random payloads; the pure-Python
// fallback there produces the same bytes, only slower. Usage: splitmix SEED N OUTFILE [APPEND=0|1]
use std::io::Write;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let mut state: u64 = a[1].parse().expect("seed");
    let n: usize = a[2].parse().expect("length");
    let append = a.get(4).map(|s| s == "1").unwrap_or(false);
    let f = std::fs::OpenOptions::new().create(true).write(true).append(append).truncate(!append).open(&a[3]).expect("open");
    let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
    let mut buf = vec![0u8; 1 << 20];
    let mut left = n;
    while left > 0 {
        let take = left.min(buf.len());
        for chunk in buf[..take].chunks_mut(8) {
            state = state.wrapping_add(0x9E3779B97F4A7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
            z ^= z >> 31;
            let b = z.to_le_bytes();
            chunk.copy_from_slice(&b[..chunk.len()]);
        }
        w.write_all(&buf[..take]).expect("write");
        left -= take;
    }
    w.flush().expect("flush");
}
