//! SplitMix64, the seeded generator of this crate's integration tests and examples (the same sequence
//! as bench/lib/gen.py's), in one place: each includes this file with `#[path]`, since integration
//! tests and examples cannot share a module otherwise. Extra helpers live beside their users.

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
}
