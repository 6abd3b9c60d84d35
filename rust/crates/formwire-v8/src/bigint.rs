//! JavaScript BigInt values: a sign and a little-endian magnitude.

use core::fmt;

/// A JavaScript BigInt: sign and magnitude (little-endian bytes, no high zero bytes; zero is empty and never negative).
///
/// Stored as one boxed slice (16 bytes: the magnitude followed by a sign byte, empty for zero), so that
/// a [`Value`](crate::Value) stays 24 bytes.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct BigInt {
    /// Empty for zero; else the magnitude (little-endian, no high zero byte) then 1 (negative) or 0.
    repr: Box<[u8]>,
}

impl BigInt {
    /// Zero.
    pub fn zero() -> BigInt {
        BigInt::default()
    }

    /// A BigInt from a sign and little-endian magnitude bytes (high zero bytes are dropped; `-0n` is `0n`).
    pub fn from_parts(negative: bool, mut magnitude_le: Vec<u8>) -> BigInt {
        while magnitude_le.last() == Some(&0) {
            magnitude_le.pop();
        }
        if magnitude_le.is_empty() {
            return BigInt::zero();
        }
        magnitude_le.push(u8::from(negative));
        BigInt {
            repr: magnitude_le.into_boxed_slice(),
        }
    }

    /// A BigInt from a sign and little-endian magnitude bytes, copied.
    pub fn from_slice(negative: bool, magnitude_le: &[u8]) -> BigInt {
        let n = magnitude_le.len() - magnitude_le.iter().rev().take_while(|&&b| b == 0).count();
        if n == 0 {
            return BigInt::zero();
        }
        let mut repr = Vec::with_capacity(n + 1);
        repr.extend_from_slice(&magnitude_le[..n]);
        repr.push(u8::from(negative));
        BigInt {
            repr: repr.into_boxed_slice(),
        }
    }

    /// A BigInt from an `i128`.
    pub fn from_i128(v: i128) -> BigInt {
        BigInt::from_slice(v < 0, &v.unsigned_abs().to_le_bytes())
    }

    /// A BigInt from a `u128`.
    pub fn from_u128(v: u128) -> BigInt {
        BigInt::from_slice(false, &v.to_le_bytes())
    }

    /// `true` for values below zero.
    pub fn is_negative(&self) -> bool {
        self.repr.last() == Some(&1)
    }

    /// `true` for zero.
    pub fn is_zero(&self) -> bool {
        self.repr.is_empty()
    }

    /// The magnitude, little-endian, without high zero bytes.
    pub fn magnitude_le(&self) -> &[u8] {
        match self.repr.split_last() {
            Some((_, m)) => m,
            None => &[],
        }
    }

    /// The value as an `i128`, if it fits.
    pub fn to_i128(&self) -> Option<i128> {
        let mag = self.magnitude_le();
        if mag.len() > 16 {
            return None;
        }
        let mut b = [0u8; 16];
        b[..mag.len()].copy_from_slice(mag);
        let m = u128::from_le_bytes(b);
        if self.is_negative() {
            if m <= (i128::MAX as u128) + 1 {
                Some((m as i128).wrapping_neg())
            } else {
                None
            }
        } else {
            i128::try_from(m).ok()
        }
    }

    /// The value as a `u128`, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        let mag = self.magnitude_le();
        if self.is_negative() || mag.len() > 16 {
            return None;
        }
        let mut b = [0u8; 16];
        b[..mag.len()].copy_from_slice(mag);
        Some(u128::from_le_bytes(b))
    }

    /// Parses a decimal integer with an optional leading `-` (the neutral description's form).
    pub fn parse_decimal(s: &str) -> Option<BigInt> {
        let (neg, digits) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Base 10^9 chunks multiplied into u32 limbs.
        let mut limbs: Vec<u32> = Vec::new();
        let bytes = digits.as_bytes();
        let first = bytes.len() % 9;
        let mut chunks: Vec<&[u8]> = Vec::new();
        if first > 0 {
            chunks.push(&bytes[..first]);
        }
        let mut i = first;
        while i < bytes.len() {
            chunks.push(&bytes[i..i + 9]);
            i += 9;
        }
        for chunk in chunks {
            let mut add: u64 = 0;
            let mut mul: u64 = 1;
            for &b in chunk {
                add = add * 10 + u64::from(b - b'0');
                mul *= 10;
            }
            let mut carry = add;
            for limb in limbs.iter_mut() {
                let v = u64::from(*limb) * mul + carry;
                *limb = v as u32;
                carry = v >> 32;
            }
            if carry > 0 {
                limbs.push(carry as u32);
            }
        }
        let mut mag = Vec::with_capacity(limbs.len() * 4);
        for l in limbs {
            mag.extend_from_slice(&l.to_le_bytes());
        }
        Some(BigInt::from_parts(neg, mag))
    }

    /// The decimal form with a leading `-` for negatives (JS `String(n)`).
    pub fn to_decimal(&self) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let mut limbs: Vec<u32> = self
            .magnitude_le()
            .chunks(4)
            .map(|c| {
                let mut b = [0u8; 4];
                b[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect();
        let mut parts: Vec<u32> = Vec::new();
        while !limbs.is_empty() {
            let mut rem: u64 = 0;
            for limb in limbs.iter_mut().rev() {
                let v = (rem << 32) | u64::from(*limb);
                *limb = (v / 1_000_000_000) as u32;
                rem = v % 1_000_000_000;
            }
            parts.push(rem as u32);
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        let mut out = String::new();
        if self.is_negative() {
            out.push('-');
        }
        let mut iter = parts.iter().rev();
        if let Some(first) = iter.next() {
            out.push_str(&first.to_string());
        }
        for p in iter {
            out.push_str(&format!("{p:09}"));
        }
        out
    }
}

impl fmt::Debug for BigInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}n", self.to_decimal())
    }
}

impl fmt::Display for BigInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_decimal())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_round_trip() {
        for s in [
            "0",
            "1",
            "-1",
            "10",
            "999999999",
            "1000000000",
            "18446744073709551616",
            "-18446744073709551616",
            "123456789012345678901234567890123456789",
        ] {
            assert_eq!(BigInt::parse_decimal(s).unwrap().to_decimal(), s);
        }
        assert_eq!(BigInt::parse_decimal("-0").unwrap(), BigInt::zero());
        assert_eq!(BigInt::parse_decimal("007").unwrap().to_decimal(), "7");
        assert!(BigInt::parse_decimal("").is_none());
        assert!(BigInt::parse_decimal("1.5").is_none());
        assert!(BigInt::parse_decimal("-").is_none());
    }

    #[test]
    fn parts() {
        let b = BigInt::from_parts(true, vec![10, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(b.magnitude_le(), &[10]);
        assert_eq!(b.to_i128(), Some(-10));
        assert_eq!(BigInt::from_parts(true, vec![0, 0]), BigInt::zero());
        assert!(!BigInt::from_parts(true, vec![0, 0]).is_negative());
        assert_eq!(BigInt::from_slice(true, &[10, 0, 0]), b);
        assert!(b.is_negative() && !b.is_zero());
        assert!(BigInt::zero().magnitude_le().is_empty());
        assert_eq!(BigInt::from_i128(i128::MIN).to_i128(), Some(i128::MIN));
        assert_eq!(BigInt::from_u128(u128::MAX).to_u128(), Some(u128::MAX));
        assert_eq!(BigInt::from_u128(u128::MAX).to_i128(), None);
        assert_eq!(
            BigInt::from_i128(-(1i128 << 64)).to_decimal(),
            "-18446744073709551616"
        );
    }
}
