//! Free helpers of the reader's fast paths: the flat-object loop, key learning and matching.

use super::wire::{EncKey, SHAPE_MAX, mask, word_at, zigzag};
use super::{ArrState, WINDOW};
use crate::borrowed::{ObjSlot, Slot, slot_str};
use crate::tags::*;
use crate::value::{Props, Span};

/// The loop of [`Dec::object_run`](super::Dec::object_run), on its own so that the arenas' lengths stay in registers.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn object_run<const NARROW: bool>(
    buf: &[u8],
    pos: &mut usize,
    (enc, keys_at): (&[EncKey], u32),
    objects: &mut Vec<ObjSlot>,
    values: &mut Vec<Slot>,
    mut elems: Option<&mut Vec<Slot>>,
    st: &mut ArrState,
    max_objects: u32,
) -> usize {
    let (first, length) = (st.next, st.length);
    let length = length.min(first.saturating_add(max_objects));
    let mut next = first;
    let mut at = *pos;
    while next < length && buf.get(at) == Some(&TAG_BEGIN_JS_OBJECT) {
        let start = values.len() as u32;
        let Some((end, k)) = flat_object::<NARROW>(buf, at + 1, enc, values) else {
            break;
        };
        let props = Props {
            keys: if k == 0 { 0 } else { keys_at },
            values: if k == 0 { 0 } else { start },
            len: k as u32,
        };
        if let Some(e) = elems.as_deref_mut() {
            e.push(Slot::Object(objects.len() as u32));
        }
        objects.push(ObjSlot::Plain(props));
        at = end;
        next += 1;
    }
    *pos = at;
    st.next = next;
    (next - first) as usize
}

/// SC-D-12/13 and SC-D-07 for the common object: the object at `pos` (after its `o` tag) has the
/// keys `enc` (all of them, or a prefix), each of at most 16 encoded bytes, byte for byte, with
/// values that are one-byte strings with a one-byte length, int32s of one or two varint bytes or
/// booleans, then the end tag with its one-byte count: its values are appended to `values` and
/// `(position after the end tag, property count)` returned. Anything else, including an error,
/// is `None` with `values` as it was (the general path then reads the object and reports).
#[inline(always)]
pub(super) fn flat_object<const NARROW: bool>(
    buf: &[u8],
    mut pos: usize,
    enc: &[EncKey],
    values: &mut Vec<Slot>,
) -> Option<(usize, usize)> {
    let start = values.len();
    let mut k = 0;
    while let Some(w) = buf.get(pos..pos + WINDOW) {
        let w: &[u8; WINDOW] = w.try_into().unwrap_or(&[0; WINDOW]);
        let w01 = u128::from_le_bytes(w[..16].try_into().unwrap_or([0; 16]));
        let (w0, w1) = (w01 as u64, (w01 >> 64) as u64);
        if let Some(ek) = enc.get(k) {
            let differs = if NARROW {
                (w0 ^ ek.word[0]) & ek.mask[0]
            } else {
                ((w0 ^ ek.word[0]) & ek.mask[0]) | ((w1 ^ ek.word[1]) & ek.mask[1])
            };
            if differs == 0 {
                let v = (ek.len & 31) as usize; // <= 16 (checked by the caller)
                let t = w[v];
                if t == TAG_ONE_BYTE_STRING {
                    let n = w[v + 1] as usize;
                    let s = pos + v + 2;
                    if n >= 0x80 || n > buf.len() - s {
                        break;
                    }
                    values.push(Slot::Latin1 {
                        len: n as u32,
                        at: s,
                    });
                    pos = s + n;
                } else if t == TAG_INT32 {
                    let b0 = u32::from(w[v + 1]);
                    let b1 = u32::from(w[v + 2]);
                    let more = b0 >> 7;
                    if more & (b1 >> 7) != 0 {
                        break;
                    }
                    let z = (b0 & 0x7F) | ((b1 & more.wrapping_neg()) << 7);
                    values.push(Slot::Number(f64::from(zigzag(z))));
                    pos += v + 2 + more as usize;
                } else if is_bool_tag(t) {
                    values.push(Slot::Bool(t & 0x10 != 0));
                    pos += v + 1;
                } else {
                    break;
                }
                k += 1;
                continue;
            }
        }
        if w0 as u8 == TAG_END_JS_OBJECT && (w0 >> 8) as u8 as usize == k {
            return Some((pos + 2, k));
        }
        break;
    }
    values.truncate(start);
    None
}

/// Remembers key `k` of an object (its encoding is `buf[at..end]`) in a level's shape cache
/// `enc`, for the next object there; only while the remembered keys before it are this object's,
/// so they stay distinct. An index key ends the remembered list.
pub(super) fn learn_key(enc: &mut Vec<EncKey>, k: usize, at: usize, end: usize, index: bool) {
    if enc.len() < k {
        return;
    }
    enc.truncate(k);
    if !index && k < SHAPE_MAX {
        // Its compare words are made when a later object is checked against it (`prepare`):
        // most keys of unique objects (a configuration) never are.
        enc.push(EncKey {
            at,
            len: (end - at) as u32,
            word: [0; 2],
            mask: [0; 2],
        });
    }
}

/// Makes a learned key's compare words (`input[at..at + 16]` masked to its length).
#[inline]
pub(super) fn prepare(ek: &mut EncKey, buf: &[u8]) {
    if ek.mask[0] == 0 {
        let len = ek.len as usize;
        ek.mask = [mask(len), mask(len.saturating_sub(8))];
        ek.word = [
            word_at(buf, ek.at) & ek.mask[0],
            word_at(buf, ek.at + 8) & ek.mask[1],
        ];
    }
}

/// The summary bit of the one-byte name `buf[at..at + n]` (its length and first byte): two names
/// with different bits differ.
#[inline(always)]
pub(super) fn name_bit(buf: &[u8], at: usize, n: usize) -> u64 {
    let first = match buf.get(at) {
        Some(&b) if n > 0 => b as usize,
        _ => 0,
    };
    1u64 << ((first + n * 8) & 63)
}

/// One of `keys` names the one-byte string `buf[at..at + n]`.
#[inline(never)]
pub(super) fn any_names(buf: &[u8], keys: &[Slot], at: usize, n: usize) -> bool {
    let name = &buf[at..at + n];
    for &q in keys {
        let same = match q {
            // Most keys differ in length.
            Slot::Latin1 { len, at: qa } => len as usize == n && buf[qa..qa + n] == *name,
            q => slot_str(buf, q) == crate::borrowed::Str::Latin1(name),
        };
        if same {
            return true;
        }
    }
    false
}
/// `t` is `T` (0x54) or `F` (0x46), decided without a branch on which: random booleans would
/// mispredict one. They differ from each other in bits 4 and 1, and from `D` (0x44) and `V` (0x56),
/// the only other bytes that agree with them outside those bits, in having exactly one of them.
/// (`T` is the one with bit 4.)
#[inline(always)]
pub(super) fn is_bool_tag(t: u8) -> bool {
    (t & !0x12 == 0x44) & (((t >> 4) ^ (t >> 1)) & 1 == 1)
}

#[allow(clippy::redundant_guards)]
pub(super) fn normalize_zero(v: Slot) -> Slot {
    match v {
        Slot::Number(n) if n == 0.0 => Slot::Number(0.0),
        v => v,
    }
}

#[inline]
pub(super) fn span(start: usize, end: usize) -> Span {
    Span {
        start: start as u32,
        len: (end - start) as u32,
    }
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn bool_tags() {
        for t in 0..=255u8 {
            assert_eq!(super::is_bool_tag(t), t == b'T' || t == b'F', "{t:#x}");
        }
        assert_ne!(b'T' & 0x10, 0);
        assert_eq!(b'F' & 0x10, 0);
    }

    #[test]
    fn slots_stay_small() {
        assert_eq!(std::mem::size_of::<crate::borrowed::Slot>(), 16);
        assert!(std::mem::size_of::<crate::borrowed::ObjSlot>() <= 40);
        assert!(std::mem::size_of::<crate::reader::Frame>() <= 96);
    }
}
