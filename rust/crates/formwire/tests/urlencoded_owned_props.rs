//! Randomized differential test of `urlencoded::parse_owned_with` against
//! `parse_with` (which the shared vectors check): the same pairs, or the same
//! error code and offset, for inputs built to hit the owned path's edges —
//! `&`, `=`, `%` and `+` in every position of a 64-byte block, escapes and
//! multibyte characters (raw, escaped, broken) across block and chunk
//! edges, pairs longer than a chunk (16 KiB) and than 64 KiB, and random
//! limits (UE-L-01..03).
//!
//! `FORMWIRE_UE_OWNED_ITERS=N` sets the number of inputs (default 300, so
//! `cargo test` stays quick); a long run is the fuzzing stand-in for this
//! path: `FORMWIRE_UE_OWNED_ITERS=200000 cargo test --release -p formwire
//! --test urlencoded_owned_props`. A failing input is printed in hex with
//! its seed.

use formwire::urlencoded::{self, Options, UNLIMITED};

#[path = "../src/test_rng.rs"]
mod test_rng;
use test_rng::Rng;

/// Pieces an input is built from: plain text, the four special bytes,
/// valid and broken escapes, raw and escaped UTF-8 (valid, truncated,
/// overlong, surrogate), a BOM.
const PIECES: &[&[u8]] = &[
    b"a",
    b"Zq",
    b"key",
    b"0123456789",
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    b"&",
    b"&&",
    b"=",
    b"==",
    b"+",
    b"++",
    b"%",
    b"%%",
    b"%4",
    b"%41",
    b"%2b",
    b"%2B",
    b"%26",
    b"%3D",
    b"%25",
    b"%zz",
    b"%g1",
    b"%C3%A9",
    b"%c3%a9",
    b"%E2%82%AC",
    b"%F0%9F%98%80",
    b"%E2%82",
    b"%C0%AF",
    b"%ED%A0%80",
    b"%FF",
    b"%80",
    b"%EF%BB%BF",
    "\u{e9}".as_bytes(),
    "\u{20ac}".as_bytes(),
    "\u{1f600}".as_bytes(),
    b"\xc3",
    b"\xa9",
    b"\xff",
    b"\xe2\x82",
    b";",
    b" ",
    b"\0",
];

fn input(rng: &mut Rng) -> Vec<u8> {
    let shape = rng.below(10);
    let target = match shape {
        0 => rng.below(40),
        1..=5 => rng.below(2_000),
        6..=8 => rng.below(40_000),
        _ => 70_000 + rng.below(20_000),
    };
    // Some inputs mostly plain (long halves, few specials), some all ASCII.
    let plain = rng.below(3) == 0;
    let ascii = rng.below(3) == 0;
    let mut v = Vec::with_capacity(target + 16);
    while v.len() < target {
        let piece = if plain && rng.below(10) != 0 {
            PIECES[rng.below(5)]
        } else {
            PIECES[rng.below(PIECES.len())]
        };
        if ascii && !piece.is_ascii() {
            continue;
        }
        v.extend_from_slice(piece);
    }
    v
}

fn owned(v: Vec<urlencoded::Pair<'_>>) -> Vec<(String, String)> {
    v.into_iter()
        .map(|(a, b)| (a.into_owned(), b.into_owned()))
        .collect()
}

#[test]
fn parse_owned_with_equals_parse_with() {
    let iters: usize = std::env::var("FORMWIRE_UE_OWNED_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let seed0: u64 = std::env::var("FORMWIRE_UE_OWNED_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED);
    let mut pairs_seen = 0usize;
    for i in 0..iters {
        let seed = seed0.wrapping_add(i as u64);
        let mut rng = Rng(seed);
        let body = input(&mut rng);
        let mut unlimited = Options::default();
        unlimited.max_pairs = UNLIMITED;
        unlimited.max_bytes = UNLIMITED;
        let mut limited = Options::default();
        limited.max_pairs = rng.below(body.len() / 8 + 2) as u64;
        limited.max_bytes = rng.below(body.len() + 2) as u64;
        for o in [&unlimited, &limited, &Options::default()] {
            let want = urlencoded::parse_with(&body, o).map(owned);
            let got = urlencoded::parse_owned_with(&body, o);
            if got != want {
                let hex: String = body.iter().map(|b| format!("{b:02x}")).collect();
                panic!(
                    "seed {seed} options {o:?}: parse_owned_with differs from parse_with\ninput {hex}"
                );
            }
            if let Ok(p) = &got {
                pairs_seen += p.len();
            }
        }
    }
    // The generator makes pairs (the test compared something).
    assert!(iters == 0 || pairs_seen > 0);
}
