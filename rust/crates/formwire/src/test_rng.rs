//! SplitMix64 (as in vectors/SCHEMA.md and bench/lib/gen.py), the seeded generator of this crate's
//! tests and examples, in one place: unit tests use it as `crate::test_rng`, integration tests and
//! examples include this file with `#[path]` (they cannot share a module otherwise). Helpers that
//! only one user needs live beside that user.
#![allow(dead_code)] // each includer uses its own part

/// A SplitMix64 state.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
