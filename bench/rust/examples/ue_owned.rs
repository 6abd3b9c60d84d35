//! A micro bench of the urlencoded parsers on one body (W4 of bench/ by
//! default): `form_urlencoded` into owned strings, `parse_owned_with`,
//! `parse_with`, and the floor (copying the decoded pairs into owned
//! strings), interleaved round by round; prints medians and ratios.
//! Not the project's benchmark (bench/run is); a tool for profiling:
//!
//! ```text
//! cargo run --release --manifest-path bench/rust/Cargo.toml --example ue_owned -- [body file] [rounds] [only]
//! ```
//!
//! The body defaults to `bench/.work/full/w4.txt` (written by
//! `bench/run --workload W4`). `only` (a substring of a row's name) keeps
//! the rows that contain it, e.g. for `perf record`; the rows then run in
//! their own rhythm, as bench/run's separate processes do, while all rows
//! together interleave (which shifts allocator and cache state between
//! them: compare ratios of one run, not times across runs). Medians and
//! minimums are printed; `UEB_NOCHECK=1` skips the up-front check that
//! `parse_owned_with` equals `form_urlencoded` (for ablation builds).

use std::hint::black_box;
use std::time::Instant;

use formwire::urlencoded::{self, Options, UNLIMITED};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or(concat!(env!("CARGO_MANIFEST_DIR"), "/../.work/full/w4.txt"), String::as_str);
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(200);
    let only = args.get(3).cloned().unwrap_or_default();
    let body = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut o = Options::default();
    o.max_pairs = UNLIMITED;
    let want: Vec<(String, String)> = form_urlencoded::parse(&body).into_owned().collect();
    let got = urlencoded::parse_owned_with(&body, &o).unwrap();
    // UEB_NOCHECK=1 skips the check (for ablation builds that drop work).
    if std::env::var_os("UEB_NOCHECK").is_none() {
        assert!(got == want, "parse_owned_with differs from form_urlencoded");
    }
    let decoded = urlencoded::parse_with(&body, &o).unwrap();
    let n = want.len();
    // Each row leaves its result in `keep`, dropped outside the timer (as bench/rust does).
    let mut keep: (Vec<(String, String)>, Vec<urlencoded::Pair<'_>>) = (Vec::new(), Vec::new());
    type Row<'a, 'b> = Box<dyn FnMut(&mut (Vec<(String, String)>, Vec<urlencoded::Pair<'a>>)) + 'b>;
    let mut rows: Vec<(&str, Row<'_, '_>)> = vec![
        ("form_urlencoded", Box::new(|k| {
            k.0 = form_urlencoded::parse(&body).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        })),
        ("formwire-owned", Box::new(|k| k.0 = urlencoded::parse_owned_with(&body, &o).unwrap())),
        ("formwire", Box::new(|k| k.1 = urlencoded::parse_with(&body, &o).unwrap())),
        ("floor-owned", Box::new(|k| {
            k.0 = decoded.iter().map(|(k, v)| (k.as_ref().to_owned(), v.as_ref().to_owned())).collect();
        })),
    ];
    rows.retain(|(name, _)| name.contains(only.as_str()));
    let mut times = vec![Vec::new(); rows.len()];
    for round in 0..=rounds {
        for (i, (_, f)) in rows.iter_mut().enumerate() {
            let t = Instant::now();
            f(&mut keep);
            let d = t.elapsed().as_secs_f64();
            assert_eq!(black_box(keep.0.len() + keep.1.len()), n);
            keep.0 = Vec::new();
            keep.1 = Vec::new();
            if round > 0 {
                times[i].push(d);
            }
        }
    }
    let median = |t: &mut Vec<f64>| {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    let med: Vec<f64> = times.iter_mut().map(median).collect();
    // Sorted by `median`: the first is the fastest run.
    let mins: Vec<f64> = times.iter().map(|t| t[0]).collect();
    println!("{} B, {n} pairs, {rounds} rounds", body.len());
    for (i, (name, _)) in rows.iter().enumerate() {
        println!(
            "  {name:<16} median {:>7.3} ms  x{:.2} vs first row; min {:>7.3} ms  x{:.2}",
            med[i] * 1e3,
            med[0] / med[i],
            mins[i] * 1e3,
            mins[0] / mins[i]
        );
    }
}
