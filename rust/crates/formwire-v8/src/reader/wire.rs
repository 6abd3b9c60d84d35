//! The decoder options and the pieces of the wire format the reader shares: varints, the shape
//! cache's key encodings, and the duplicate index.

use crate::registry;
use crate::value::ErrorName;
use std::collections::HashMap;

/// Decoder limits (`spec/limits.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Deepest container nesting accepted (`max_depth`, default 1000; `u32::MAX` = unlimited).
    pub max_depth: u32,
    /// Longest input accepted (`max_bytes`, default 256 MiB; `u64::MAX` = unlimited).
    pub max_bytes: u64,
    /// Most values accepted (`max_values`, default 10,000,000; `u64::MAX` = unlimited): the root,
    /// every property value, array element, Map key and value, Set value and Error cause, each
    /// back-reference included (SC-L-03).
    pub max_values: u64,
    /// Longest BigInt accepted, in digit bytes (`max_bigint_bytes`, default 1 MiB; `u32::MAX` =
    /// unlimited) (SC-L-04).
    pub max_bigint_bytes: u32,
    /// Read `\` host objects as Node's child_process `serialization: 'advanced'` writes them (`node_ipc`):
    /// a sub-tag varint first, 0 = a Node view, 1 = a plain object follows. Default `false`.
    pub node_ipc: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            max_depth: registry::MAX_DEPTH,
            max_bytes: registry::MAX_BYTES,
            max_values: registry::MAX_VALUES,
            max_bigint_bytes: registry::MAX_BIGINT_BYTES,
            node_ipc: false,
        }
    }
}
/// The shape cache of one nesting level: the keys of the last object read there.
///
/// `enc[i]` is the encoding of key `i` (`input[at..at + len]`, its first bytes also as a masked word
/// for a one-load compare), and `keys[keys_at + i]` (the key arena) the key itself, for every `i < enc.len()`
/// (while an object at this level learns new keys, the ones past its prefix are on the key stack
/// until it ends and stores its key list). The keys are distinct: they are one object's.
#[derive(Default)]
pub(crate) struct Shape {
    pub(crate) enc: Vec<EncKey>,
    pub(crate) keys_at: u32,
}

#[derive(Clone, Copy)]
pub(crate) struct EncKey {
    pub(crate) at: usize,
    pub(crate) len: u32,
    /// `input[at..at + 16]` as two words masked to `len` bytes, and the masks (meaningful when
    /// `len <= 16`).
    pub(crate) word: [u64; 2],
    pub(crate) mask: [u64; 2],
}

/// Keys remembered per level (beyond that, keys are read one by one).
pub(crate) const SHAPE_MAX: usize = 64;

/// SC-D-04: a u32 varint at `pos` and the position after it, or `None` when it is not a valid one
/// (or the input ends): the caller's slow path then reports it.
#[inline]
pub(crate) fn varint_at(buf: &[u8], pos: usize) -> Option<(u32, usize)> {
    let b0 = *buf.get(pos)?;
    if b0 < 0x80 {
        return Some((u32::from(b0), pos + 1));
    }
    let mut v = u32::from(b0 & 0x7F);
    for i in 1..5 {
        let b = *buf.get(pos + i)?;
        if i == 4 && (b & 0x80 != 0 || b >> 4 != 0) {
            return None;
        }
        v |= u32::from(b & 0x7F) << (7 * i);
        if b < 0x80 {
            return Some((v, pos + i + 1));
        }
    }
    None
}

/// `input[at..at + 8]` as a little-endian word (0 past the end: the callers mask or compare
/// slices then).
#[inline]
pub(crate) fn word_at(buf: &[u8], at: usize) -> u64 {
    match buf.get(at..at + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().unwrap_or([0; 8])),
        None => 0,
    }
}

#[inline]
pub(crate) fn mask(len: usize) -> u64 {
    if len >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * len)) - 1
    }
}

/// The input at `pos` holds the remembered key encoding `ek` (which lies before `pos`).
#[inline]
pub(crate) fn key_matches(buf: &[u8], ek: &EncKey, pos: usize) -> bool {
    let len = ek.len as usize;
    if len <= 16 {
        if let Some(w) = buf.get(pos..pos + 16) {
            let w0 = u64::from_le_bytes(w[..8].try_into().unwrap_or([0; 8]));
            let w1 = u64::from_le_bytes(w[8..].try_into().unwrap_or([0; 8]));
            return ((w0 ^ ek.word[0]) & ek.mask[0]) | ((w1 ^ ek.word[1]) & ek.mask[1]) == 0;
        }
    }
    let a = ek.at;
    match (buf.get(a..a + len), buf.get(pos..pos + len)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

pub(crate) fn zigzag(u: u32) -> i32 {
    ((u >> 1) as i32) ^ -((u & 1) as i32)
}

/// SC-D-17: ECMA-262 TimeClip.
pub(crate) fn time_clip(t: f64) -> f64 {
    if !t.is_finite() || t.abs() > 8.64e15 {
        return f64::NAN;
    }
    let r = t.trunc();
    if r == 0.0 { 0.0 } else { r }
}

pub(crate) fn error_prototype(sub: u8) -> Option<ErrorName> {
    Some(match sub {
        b'E' => ErrorName::EvalError,
        b'R' => ErrorName::RangeError,
        b'F' => ErrorName::ReferenceError,
        b'S' => ErrorName::SyntaxError,
        b'T' => ErrorName::TypeError,
        b'U' => ErrorName::UriError,
        _ => return None,
    })
}

/// Duplicate lookup for keys: a linear scan while small, then a hash table built once. Hashes are
/// only computed once the table exists.
#[derive(Default)]
pub(crate) struct Index {
    // Boxed so that the frames that carry an index stay small (they move on every push and pop).
    #[allow(clippy::box_collection)]
    table: Option<Box<HashMap<u64, Vec<u32>>>>,
}

const LINEAR_LIMIT: usize = 16;

impl Index {
    #[inline]
    pub(crate) fn find(
        &self,
        len: usize,
        hash: impl FnOnce() -> u64,
        eq: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        match &self.table {
            None => (0..len).find(|&i| eq(i)),
            Some(t) => t.get(&hash())?.iter().map(|&i| i as usize).find(|&i| eq(i)),
        }
    }

    #[inline]
    pub(crate) fn insert(
        &mut self,
        i: usize,
        hash: impl FnOnce() -> u64,
        hash_of: impl Fn(usize) -> u64,
    ) {
        if self.table.is_none() {
            if i < LINEAR_LIMIT {
                return;
            }
            let mut t: HashMap<u64, Vec<u32>> = HashMap::with_capacity(i * 2);
            for j in 0..i {
                t.entry(hash_of(j)).or_default().push(j as u32);
            }
            self.table = Some(Box::new(t));
        }
        if let Some(t) = &mut self.table {
            t.entry(hash()).or_default().push(i as u32);
        }
    }
}
