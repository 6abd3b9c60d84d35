//! The reader's primitives (SC-D-04..11): tags, varints, strings, keys, BigInts; object ids; the
//! arena tails and the shape cache (see the speed notes in `mod.rs`).

use super::fast::{learn_key, span};
use super::wire::{Shape, zigzag};
use super::{ArrState, Dec, ELEMS, NONE, NONE32, ObjState, R, VALUES};
use crate::borrowed::{ObjSlot, Slot, slot_str};
use crate::error::{Error, ErrorCode};
use crate::tags::*;
use crate::value::{Span, push_in};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

impl<'a, 's> Dec<'a, 's> {
    // ---- errors and primitives -----------------------------------------------------------------

    pub(super) fn err(&self, code: ErrorCode, at: usize, msg: &'static str) -> Error {
        Error::new(code, at as u64, msg)
    }

    #[cold]
    pub(super) fn truncated(&self) -> Error {
        Error::new(
            ErrorCode::Truncated,
            self.buf.len() as u64,
            "input ended inside a value",
        )
    }

    pub(super) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// SC-D-06
    #[inline]
    pub(super) fn skip_padding(&mut self) {
        while self.buf.get(self.pos) == Some(&TAG_PADDING) {
            self.pos += 1;
        }
    }

    /// SC-D-06: padding and `?` verify-count prefixes, then the value's tag and its offset.
    #[inline]
    pub(super) fn value_tag(&mut self) -> R<(u8, usize)> {
        loop {
            self.skip_padding();
            let Some(&tag) = self.buf.get(self.pos) else {
                return Err(self.truncated());
            };
            self.pos += 1;
            if tag != TAG_VERIFY_COUNT {
                return Ok((tag, self.pos - 1));
            }
            self.read_u32()?;
        }
    }

    #[inline]
    pub(super) fn peek_after_padding(&mut self) -> R<(u8, usize)> {
        self.skip_padding();
        match self.buf.get(self.pos) {
            Some(&b) => Ok((b, self.pos)),
            None => Err(self.truncated()),
        }
    }

    /// SC-D-04
    #[inline]
    pub(super) fn read_u32(&mut self) -> R<u32> {
        if let Some(&b) = self.buf.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(u32::from(b));
            }
        }
        self.read_u32_long()
    }

    pub(super) fn read_u32_long(&mut self) -> R<u32> {
        let start = self.pos;
        let mut v: u32 = 0;
        for i in 0..5 {
            let Some(&b) = self.buf.get(self.pos) else {
                return Err(self.truncated());
            };
            self.pos += 1;
            if i == 4 && (b & 0x80 != 0 || b >> 4 != 0) {
                return Err(self.err(ErrorCode::Varint, start, "varint does not fit in u32"));
            }
            v |= u32::from(b & 0x7F) << (7 * i);
            if b < 0x80 {
                break;
            }
        }
        Ok(v)
    }

    /// SC-D-04: a varint read into a byte.
    pub(super) fn read_u8(&mut self) -> R<u8> {
        let start = self.pos;
        let Some(&b0) = self.buf.get(self.pos) else {
            return Err(self.truncated());
        };
        self.pos += 1;
        if b0 < 0x80 {
            return Ok(b0);
        }
        let Some(&b1) = self.buf.get(self.pos) else {
            return Err(self.truncated());
        };
        self.pos += 1;
        if b1 & 0x80 != 0 || b1 >> 1 != 0 {
            return Err(self.err(ErrorCode::Varint, start, "varint does not fit in u8"));
        }
        Ok((b0 & 0x7F) | (b1 << 7))
    }

    #[inline]
    pub(super) fn read_double(&mut self) -> R<f64> {
        let Some(b) = self.buf.get(self.pos..self.pos + 8) else {
            return Err(self.truncated());
        };
        self.pos += 8;
        let v = f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        Ok(if v.is_nan() { f64::NAN } else { v })
    }

    /// SC-D-05: `n` bytes, checked against the bytes left; their offset.
    #[inline]
    pub(super) fn read_raw(&mut self, n: usize) -> R<usize> {
        if n > self.remaining() {
            return Err(self.truncated());
        }
        let at = self.pos;
        self.pos += n;
        Ok(at)
    }

    /// SC-D-09
    pub(super) fn read_bigint(&mut self, tag_pos: usize) -> R<Slot> {
        let bitfield = self.read_u32()?;
        let negative = bitfield & 1 == 1;
        let byte_len = (bitfield >> 1) & 0x3FFF_FFFF;
        // SC-L-06: before the digits are read.
        if byte_len > self.max_bigint_bytes {
            return Err(self.err(
                ErrorCode::LimitBigint,
                tag_pos,
                "BigInt longer than max_bigint_bytes",
            ));
        }
        let at = self.read_raw(byte_len as usize)?;
        if byte_len == 0 && negative {
            return Err(self.err(
                ErrorCode::Tag,
                tag_pos,
                "BigInt with a sign and no digits (-0n)",
            ));
        }
        Ok(Slot::BigInt {
            negative,
            len: byte_len,
            at,
        })
    }

    /// SC-D-10: the payload of a string tag read at `tag_pos`.
    #[inline]
    pub(super) fn read_string_payload(&mut self, tag: u8, tag_pos: usize) -> R<Slot> {
        let len = self.read_u32()?;
        if tag == TAG_ONE_BYTE_STRING {
            let at = self.read_raw(len as usize)?;
            return Ok(Slot::Latin1 { len, at });
        }
        self.read_other_string(tag, tag_pos, len)
    }

    /// SC-D-10: `c` (UTF-16LE) and `S` (UTF-8) payloads.
    pub(super) fn read_other_string(&mut self, tag: u8, tag_pos: usize, len: u32) -> R<Slot> {
        if tag == TAG_TWO_BYTE_STRING && len % 2 != 0 {
            return Err(self.err(
                ErrorCode::String,
                tag_pos,
                "two-byte string with an odd byte length",
            ));
        }
        let at = self.read_raw(len as usize)?;
        if tag == TAG_TWO_BYTE_STRING {
            return Ok(Slot::Utf16 { len, at });
        }
        let bytes = &self.buf[at..at + len as usize];
        match std::str::from_utf8(bytes) {
            Ok(_) if bytes.is_ascii() => Ok(Slot::Latin1 { len, at }),
            Ok(_) => Ok(Slot::Utf8 { len, at }),
            Err(_) => Err(self.err(ErrorCode::String, tag_pos, "`S` string is not valid UTF-8")),
        }
    }

    /// SC-D-11
    pub(super) fn read_string_value(&mut self) -> R<Slot> {
        let (tag, at) = self.value_tag()?;
        match tag {
            TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                self.read_string_payload(tag, at)
            }
            _ => Err(self.err(ErrorCode::Tag, at, "a string is required here")),
        }
    }

    /// SC-D-12/13: a property key, its array index if it is one, and the key's tag offset.
    pub(super) fn read_key(&mut self) -> R<(Slot, Option<u32>, usize)> {
        let (tag, at) = self.value_tag()?;
        let n: i64 = match tag {
            TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                let key = self.read_string_payload(tag, at)?;
                let index = self.array_index(key);
                return Ok((key, index, at));
            }
            TAG_INT32 => i64::from(zigzag(self.read_u32()?)),
            TAG_UINT32 => i64::from(self.read_u32()?),
            TAG_DOUBLE => {
                let d = self.read_double()?;
                if d.fract() != 0.0 || d.is_nan() || d.abs() > 9007199254740991.0 {
                    return Err(self.err(
                        ErrorCode::Key,
                        at,
                        "a number key must be a safe integer",
                    ));
                }
                d as i64
            }
            _ => {
                return Err(self.err(
                    ErrorCode::Key,
                    at,
                    "a property key must be a string or a number",
                ));
            }
        };
        let index = if (0..=0xFFFF_FFFE).contains(&n) {
            Some(n as u32)
        } else {
            None
        };
        Ok((Slot::Int(n), index, at))
    }

    /// The array index a key names, if any.
    #[inline]
    pub(super) fn array_index(&self, key: Slot) -> Option<u32> {
        if let Slot::Latin1 { len, at } = key {
            // Fast reject: most names do not start with a digit.
            if len == 0 || !self.buf[at].is_ascii_digit() {
                return None;
            }
        }
        self.str_of(key).as_array_index()
    }

    #[inline]
    pub(super) fn str_of(&self, s: Slot) -> crate::borrowed::Str<'a> {
        slot_str(self.buf, s)
    }

    /// Two keys name the same property.
    #[inline]
    pub(super) fn same_key(&self, a: Slot, b: Slot) -> bool {
        match (a, b) {
            (Slot::Latin1 { len: la, at: aa }, Slot::Latin1 { len: lb, at: ab }) => {
                la == lb && self.buf[aa..aa + la as usize] == self.buf[ab..ab + lb as usize]
            }
            _ => self.str_of(a) == self.str_of(b),
        }
    }

    pub(super) fn hash_key(&self, k: Slot) -> u64 {
        let mut h = DefaultHasher::new();
        self.str_of(k).hash(&mut h);
        h.finish()
    }

    // ---- ids ----------------------------------------------------------------------------------

    #[inline]
    pub(super) fn alloc(&mut self, o: ObjSlot) -> u32 {
        push_in(&mut self.a.objects, o);
        (self.a.objects.len() - 1) as u32
    }

    /// Allocates an object and assigns it the next wire id.
    #[inline]
    pub(super) fn new_object(&mut self, o: ObjSlot) -> u32 {
        let obj = self.alloc(o);
        if !self.ids_direct {
            self.s.ids.push(Some(obj));
        }
        obj
    }

    #[inline]
    pub(super) fn wire_object(&self, id: u32) -> Option<u32> {
        if self.ids_direct {
            ((id as usize) < self.a.objects.len()).then_some(id)
        } else {
            self.s.ids.get(id as usize).copied().flatten()
        }
    }

    pub(super) fn ids_explicit(&mut self) {
        if self.ids_direct {
            self.ids_direct = false;
            self.s.ids = (0..self.a.objects.len() as u32).map(Some).collect();
        }
    }

    /// SC-D-29
    #[inline]
    pub(super) fn check_depth(&self, tag_pos: usize) -> R<()> {
        if self.s.stack.len() >= self.max_depth {
            return Err(self.err(
                ErrorCode::LimitDepth,
                tag_pos,
                "nesting deeper than max_depth",
            ));
        }
        Ok(())
    }

    // ---- arena tails (see the speed notes at the top) --------------------------------------------

    #[inline]
    pub(super) fn open_level(&mut self, me: usize) {
        if self.s.scratch_at.len() <= me {
            self.s.scratch_at.resize(me + 1, [NONE32, NONE32]);
        } else {
            self.s.scratch_at[me] = [NONE32, NONE32];
        }
    }

    /// Where the container at level `me` (the innermost open one) appends its next property value.
    #[inline(always)]
    pub(super) fn values_to(&mut self, me: usize) -> &mut Vec<Slot> {
        if self.values_owner != me {
            if self.s.scratch_at[me][VALUES] != NONE32 {
                return &mut self.s.scratch_values;
            }
            self.claim_values(me);
        }
        &mut self.a.values
    }

    #[inline]
    pub(super) fn claim_values(&mut self, me: usize) {
        let owner = self.values_owner;
        if owner != NONE && owner != me && self.values_from < self.a.values.len() {
            self.demote_values(owner);
        }
        self.values_owner = me;
        self.values_from = self.a.values.len();
    }

    #[inline(never)]
    pub(super) fn demote_values(&mut self, owner: usize) {
        self.s.scratch_at[owner][VALUES] = self.s.scratch_values.len() as u32;
        self.s
            .scratch_values
            .extend_from_slice(&self.a.values[self.values_from..]);
        self.a.values.truncate(self.values_from);
    }

    #[inline]
    pub(super) fn set_last_value(&mut self, me: usize, v: Slot) {
        let last = if self.values_owner == me {
            self.a.values.last_mut()
        } else {
            self.s.scratch_values.last_mut()
        };
        if let Some(slot) = last {
            *slot = v;
        }
    }

    /// The container at level `me` ends: its values become one run of the arena (its start).
    #[inline]
    pub(super) fn close_values(&mut self, me: usize) -> u32 {
        if self.values_owner == me {
            self.values_owner = NONE;
            return self.values_from as u32;
        }
        match self.s.scratch_at[me][VALUES] {
            NONE32 => self.a.values.len() as u32,
            at => {
                let start = self.a.values.len();
                self.a
                    .values
                    .extend_from_slice(&self.s.scratch_values[at as usize..]);
                self.s.scratch_values.truncate(at as usize);
                start as u32
            }
        }
    }

    /// Stores a key list: `prefix` keys at `prefix_at`, then the key stack from `keys_from`.
    pub(super) fn close_keys(&mut self, prefix_at: u32, prefix: u32, keys_from: u32) -> u32 {
        let start = self.a.keys.len();
        if prefix > 0 {
            let a = prefix_at as usize;
            self.a.keys.extend_from_within(a..a + prefix as usize);
        }
        self.a
            .keys
            .extend_from_slice(&self.s.key_stack[keys_from as usize..]);
        self.s.key_stack.truncate(keys_from as usize);
        start as u32
    }

    /// Where the hole-free dense array at level `me` appends its next element.
    #[inline(always)]
    pub(super) fn elems_to(&mut self, me: usize) -> &mut Vec<Slot> {
        if self.elems_owner != me {
            if self.s.scratch_at[me][ELEMS] != NONE32 {
                return &mut self.s.scratch_elems;
            }
            self.claim_elems(me);
        }
        &mut self.a.elems
    }

    #[inline]
    pub(super) fn claim_elems(&mut self, me: usize) {
        let owner = self.elems_owner;
        if owner != NONE && owner != me && self.elems_from < self.a.elems.len() {
            self.s.scratch_at[owner][ELEMS] = self.s.scratch_elems.len() as u32;
            self.s
                .scratch_elems
                .extend_from_slice(&self.a.elems[self.elems_from..]);
            self.a.elems.truncate(self.elems_from);
        }
        self.elems_owner = me;
        self.elems_from = self.a.elems.len();
    }

    /// The dense array at level `me` ends: its elements become one span of the arena.
    pub(super) fn close_elems(&mut self, me: usize) -> Span {
        if self.elems_owner == me {
            self.elems_owner = NONE;
            return span(self.elems_from, self.a.elems.len());
        }
        match self.s.scratch_at[me][ELEMS] {
            NONE32 => Span::EMPTY,
            at => {
                let start = self.a.elems.len();
                self.a
                    .elems
                    .extend_from_slice(&self.s.scratch_elems[at as usize..]);
                self.s.scratch_elems.truncate(at as usize);
                span(start, self.a.elems.len())
            }
        }
    }

    /// Appends an element of the hole-free dense array at level `me`: an object that continues
    /// its run of consecutive object ids is only counted.
    #[inline]
    pub(super) fn push_elem(&mut self, me: usize, st: &mut ArrState, v: Slot) {
        if st.in_run {
            if let Slot::Object(id) = v {
                if st.run_len == 0 {
                    st.run_start = id;
                    st.run_len = 1;
                    return;
                }
                if id == st.run_start.wrapping_add(st.run_len) {
                    st.run_len += 1;
                    return;
                }
            }
            self.end_run(me, st);
        }
        self.elems_to(me).push(v);
    }

    /// The array at level `me` stops being a run of objects: the run's elements are written.
    pub(super) fn end_run(&mut self, me: usize, st: &mut ArrState) {
        if !st.in_run {
            return;
        }
        st.in_run = false;
        let (a, n) = (st.run_start, st.run_len);
        if n > 0 {
            self.elems_to(me).extend((a..a + n).map(Slot::Object));
        }
    }

    /// The dense array at level `me` stops writing at the arena tail: its elements so far, as
    /// `(index, value)` pairs.
    pub(super) fn take_elems(&mut self, me: usize) -> Vec<(u32, Slot)> {
        let own: Vec<Slot> = if self.elems_owner == me {
            self.elems_owner = NONE;
            self.a.elems.drain(self.elems_from..).collect()
        } else {
            match self.s.scratch_at[me][ELEMS] {
                NONE32 => Vec::new(),
                at => {
                    self.s.scratch_at[me][ELEMS] = NONE32;
                    self.s.scratch_elems.drain(at as usize..).collect()
                }
            }
        };
        own.into_iter()
            .enumerate()
            .map(|(i, s)| (i as u32, s))
            .collect()
    }

    /// A container that collected its entries in its frame (at level `me`, the innermost open
    /// one) ends: they go to the element arena as one run.
    pub(super) fn store_elems(&mut self, me: usize, slots: impl IntoIterator<Item = Slot>) -> Span {
        self.claim_elems(me);
        self.a.elems.extend(slots);
        self.elems_owner = NONE;
        span(self.elems_from, self.a.elems.len())
    }

    // ---- shape cache (see the speed notes at the top) --------------------------------------------

    pub(super) fn shape_learn(&mut self, level: usize, k: u32, at: usize, index: bool) {
        if self.s.shapes.len() <= level {
            self.s.shapes.resize_with(level + 1, Shape::default);
        }
        learn_key(
            &mut self.s.shapes[level].enc,
            k as usize,
            at,
            self.pos,
            index,
        );
    }

    pub(super) fn object_keys(&mut self, level: usize, st: &ObjState) -> u32 {
        if st.matched == st.count {
            return if st.count == 0 { 0 } else { st.prefix_at };
        }
        let start = self.close_keys(st.prefix_at, st.matched, st.keys_from);
        if let Some(shape) = self.s.shapes.get_mut(level) {
            if st.has_index {
                shape.enc.truncate(st.matched as usize);
            } else {
                shape.keys_at = start;
            }
        }
        start
    }
}
