//! The reader's containers (SC-D-12..16): objects, arrays, Maps, Sets and Errors, and the
//! SameValueZero semantics of Map keys and Set values.

use super::fast::{normalize_zero, prepare};
use super::wire::{Index, error_prototype, key_matches, varint_at, zigzag};
use super::{ArrState, Dec, Fast, Fill, Frame, NONE32, ObjState, R, VALUES};
use crate::borrowed::{ArrayRef, NO_INDEXES, OBJECT_RUN, ObjSlot, Slot};
use crate::error::ErrorCode;
use crate::tags::*;
use crate::value::{Props, Span};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

impl<'a, 's> Dec<'a, 's> {
    // ---- containers ---------------------------------------------------------------------------

    /// SC-D-12
    pub(super) fn fill_object(&mut self, me: usize) -> R<Fill> {
        let Frame::Object(st, _) = &self.s.stack[me] else {
            unreachable!("fill_object on another frame")
        };
        let mut st = *st;
        loop {
            // As far as the fast path goes (it reads the common properties; nested containers,
            // unusual keys and values, and errors are read one by one below).
            if !st.pending && !st.has_index && self.buf.get(self.pos) == Some(&TAG_ONE_BYTE_STRING)
            {
                let to_scratch = self.values_owner != me && self.s.scratch_at[me][VALUES] != NONE32;
                if !to_scratch && self.values_owner != me {
                    self.claim_values(me);
                }
                let (c0, limit) = (st.count, self.budget());
                let fast = self.props_fast(me, &mut st, to_scratch, limit);
                self.values += u64::from(st.count - c0);
                if let Fast::Done(next) = fast {
                    self.pos = next;
                    self.finish_object(me, &st);
                    return Ok(Fill::Done);
                }
            }
            if st.pending {
                // The key was read by the fast path: the value follows.
                st.pending = false;
                st.count += 1;
                let at = self.pos;
                let tag = self.buf.get(at).copied();
                if tag == Some(TAG_BEGIN_JS_OBJECT) || tag == Some(TAG_BEGIN_DENSE_JS_ARRAY) {
                    // The common nested values: the id is the next one, so the slot is written
                    // before the value is read (an object may take the value arena over).
                    self.count(at)?;
                    let obj = self.a.objects.len() as u32;
                    self.values_to(me).push(Slot::Object(obj));
                    self.pos = at + 1;
                    let id = if tag == Some(TAG_BEGIN_JS_OBJECT) {
                        self.begin_object(at)?
                    } else if let Some(id) = self.array_fast(at, self.s.stack.len(), self.budget())
                    {
                        id
                    } else {
                        self.begin_array(true, at)?
                    };
                    debug_assert_eq!(id, obj);
                } else {
                    self.values_to(me).push(Slot::Undefined);
                    let v = self.read_value()?;
                    self.set_last_value(me, v);
                }
                if self.s.stack.len() > me + 1 {
                    if let Frame::Object(s, _) = &mut self.s.stack[me] {
                        *s = st;
                    }
                    return Ok(Fill::Open);
                }
                continue;
            }
            let (tag, at) = self.peek_after_padding()?;
            if tag == TAG_END_JS_OBJECT {
                self.pos = at + 1;
                let expected = self.read_u32()?;
                if expected != st.count {
                    return Err(self.err(
                        ErrorCode::Count,
                        at,
                        "object property count does not match",
                    ));
                }
                self.finish_object(me, &st);
                return Ok(Fill::Done);
            }
            let k = st.count;
            if st.matched == k && self.shape_hit(me, k, at) {
                st.matched += 1;
            } else {
                self.object_key(me, &mut st, at)?;
            }
            // The value's slot first (see the speed notes): a nested object takes the arena over.
            self.values_to(me).push(Slot::Undefined);
            st.count += 1;
            let v = self.read_value()?;
            self.set_last_value(me, v);
            if self.s.stack.len() > me + 1 {
                if let Frame::Object(s, _) = &mut self.s.stack[me] {
                    *s = st;
                }
                return Ok(Fill::Open);
            }
        }
    }

    /// The object at level `me` ended: its values and key list become its properties.
    pub(super) fn finish_object(&mut self, me: usize, st: &ObjState) {
        let values = self.close_values(me);
        let keys = self.object_keys(me, st);
        let props = Props {
            keys,
            values,
            len: st.count,
        };
        if st.has_index {
            self.sort_index_keys(props);
        }
        self.a.objects[st.obj as usize] = ObjSlot::Plain(props);
    }

    #[inline]
    pub(super) fn shape_hit(&mut self, level: usize, k: u32, at: usize) -> bool {
        let buf = self.buf;
        let Some(ek) = self
            .s
            .shapes
            .get_mut(level)
            .and_then(|s| s.enc.get_mut(k as usize))
        else {
            return false;
        };
        prepare(ek, buf);
        if !key_matches(self.buf, ek, at) {
            return false;
        }
        self.pos = at + ek.len as usize;
        true
    }

    /// SC-D-12/13: a key the shape cache did not have.
    pub(super) fn object_key(&mut self, me: usize, st: &mut ObjState, at: usize) -> R<()> {
        let k = st.count;
        self.pos = at;
        let (key, index, kat) = self.read_key()?;
        if self.is_duplicate(me, (st.prefix_at, st.matched), st.keys_from, key) {
            return Err(self.err(ErrorCode::Key, kat, "duplicate property key"));
        }
        st.has_index |= index.is_some();
        st.seen = u64::MAX;
        self.shape_learn(me, k, at, index.is_some());
        self.s.key_stack.push(key);
        Ok(())
    }

    /// SC-D-12/14: `key` is already a key of the container at level `me`.
    pub(super) fn is_duplicate(
        &mut self,
        me: usize,
        prefix: (u32, u32),
        keys_from: u32,
        key: Slot,
    ) -> bool {
        let mut idx = match &mut self.s.stack[me] {
            Frame::Object(_, idx) | Frame::Array(_, idx, _) => std::mem::take(idx),
            _ => unreachable!("only objects and arrays have properties"),
        };
        let a = prefix.0 as usize;
        let first = &self.a.keys[a..a + prefix.1 as usize];
        let rest = &self.s.key_stack[keys_from as usize..];
        let at = |i: usize| {
            if i < first.len() {
                first[i]
            } else {
                rest[i - first.len()]
            }
        };
        let n = first.len() + rest.len();
        let found = idx
            .find(n, || self.hash_key(key), |i| self.same_key(at(i), key))
            .is_some();
        if !found {
            idx.insert(n, || self.hash_key(key), |i| self.hash_key(at(i)));
        }
        if let Frame::Object(_, slot) | Frame::Array(_, slot, _) = &mut self.s.stack[me] {
            *slot = idx;
        }
        found
    }

    /// JS enumeration order for an object with index keys (its key list is its own).
    pub(super) fn sort_index_keys(&mut self, props: Props) {
        let kr = props.key_range();
        let vr = props.value_range();
        let mut order: Vec<usize> = (0..props.len()).collect();
        order.sort_by_key(|&i| match self.array_index(self.a.keys[kr.start + i]) {
            Some(n) => (0u8, n, 0),
            None => (1u8, 0, i),
        });
        let keys: Vec<Slot> = order.iter().map(|&i| self.a.keys[kr.start + i]).collect();
        let values: Vec<Slot> = order.iter().map(|&i| self.a.values[vr.start + i]).collect();
        self.a.keys[kr].copy_from_slice(&keys);
        self.a.values[vr].copy_from_slice(&values);
    }

    /// SC-D-14/15: elements, then other properties, into the array on top of the stack.
    pub(super) fn fill_array(&mut self, me: usize) -> R<Fill> {
        let Frame::Array(st, _, indexed) = &mut self.s.stack[me] else {
            unreachable!("fill_array on another frame")
        };
        let mut st = *st;
        let mut indexed = std::mem::take(indexed);
        let r = self.fill_array_in(me, &mut st, &mut indexed);
        if let Ok(Fill::Open) = r {
            if let Frame::Array(s, _, ix) = &mut self.s.stack[me] {
                *s = st;
                *ix = indexed;
            }
        }
        r
    }

    pub(super) fn fill_array_in(
        &mut self,
        me: usize,
        st: &mut ArrState,
        indexed: &mut Vec<(u32, Slot)>,
    ) -> R<Fill> {
        // SC-D-14: dense elements; `-` is a hole.
        while !st.in_props {
            if st.next >= st.length {
                st.in_props = true;
                break;
            }
            let (tag, at) = match self.buf.get(self.pos) {
                Some(&t) if t != TAG_PADDING => (t, self.pos),
                _ => self.peek_after_padding()?,
            };
            if tag == TAG_THE_HOLE {
                self.pos = at + 1;
                st.next += 1;
                if !st.indexed {
                    self.end_run(me, st);
                    st.indexed = true;
                    *indexed = self.take_elems(me);
                }
                continue;
            }
            if tag == TAG_BEGIN_JS_OBJECT && !st.indexed && self.object_run(me, st) > 0 {
                if self.s.stack.len() > me + 1 {
                    return Ok(Fill::Open);
                }
                continue;
            }
            if tag == TAG_ONE_BYTE_STRING && !st.indexed && self.string_run(me, st) > 0 {
                continue;
            }
            let i = st.next;
            st.next += 1;
            let buf = self.buf;
            // SC-L-05: the elements read here are counted here; `read_value` counts the others.
            let v = match tag {
                TAG_BEGIN_JS_OBJECT => {
                    self.count(at)?;
                    self.pos = at + 1;
                    Slot::Object(self.begin_object(at)?)
                }
                TAG_ONE_BYTE_STRING
                    if varint_at(buf, at + 1).is_some_and(|(n, s)| n as usize <= buf.len() - s) =>
                {
                    self.count(at)?;
                    let (n, s) = varint_at(buf, at + 1).unwrap_or_default();
                    self.pos = s + n as usize;
                    Slot::Latin1 { len: n, at: s }
                }
                TAG_INT32 if varint_at(buf, at + 1).is_some() => {
                    self.count(at)?;
                    let (z, next) = varint_at(buf, at + 1).unwrap_or_default();
                    self.pos = next;
                    Slot::Number(f64::from(zigzag(z)))
                }
                TAG_TRUE => {
                    self.count(at)?;
                    self.pos = at + 1;
                    Slot::Bool(true)
                }
                TAG_FALSE => {
                    self.count(at)?;
                    self.pos = at + 1;
                    Slot::Bool(false)
                }
                TAG_NULL => {
                    self.count(at)?;
                    self.pos = at + 1;
                    Slot::Null
                }
                TAG_UNDEFINED => {
                    self.count(at)?;
                    self.pos = at + 1;
                    Slot::Undefined
                }
                _ => self.read_value()?,
            };
            if st.indexed {
                indexed.push((i, v));
            } else {
                self.push_elem(me, st, v);
            }
            if self.s.stack.len() > me + 1 {
                return Ok(Fill::Open);
            }
        }
        let end_tag = if st.dense {
            TAG_END_DENSE_JS_ARRAY
        } else {
            TAG_END_SPARSE_JS_ARRAY
        };
        loop {
            let (tag, at) = self.peek_after_padding()?;
            if tag == end_tag {
                self.pos = at + 1;
                let expected_props = self.read_u32()?;
                let expected_length = self.read_u32()?;
                if expected_props != st.count || expected_length != st.length {
                    return Err(self.err(ErrorCode::Count, at, "array end counts do not match"));
                }
                let (elems, indexes, length) = if st.indexed {
                    let items = std::mem::take(indexed);
                    // Defining an index at or past `length` grows the array, as in JS.
                    let length = match items.last() {
                        Some((i, _)) if *i >= st.length => i + 1,
                        _ => st.length,
                    };
                    let at = self.a.indexes.len() as u32;
                    self.a.indexes.extend(items.iter().map(|(i, _)| *i));
                    let elems = self.store_elems(me, items.into_iter().map(|(_, v)| v));
                    (elems, at, length)
                } else if st.in_run && st.run_len > 0 {
                    let run = Span {
                        start: st.run_start,
                        len: st.run_len,
                    };
                    (run, OBJECT_RUN, st.length)
                } else {
                    (self.close_elems(me), NO_INDEXES, st.length)
                };
                let values = self.close_values(me);
                let props = if st.props == 0 {
                    Props::EMPTY
                } else {
                    Props {
                        keys: self.close_keys(0, 0, st.keys_from),
                        values,
                        len: st.props,
                    }
                };
                self.a.objects[st.obj as usize] = ObjSlot::Array(ArrayRef {
                    length,
                    props,
                    elems,
                    indexes,
                });
                return Ok(Fill::Done);
            }
            let (key, index, kat) = self.read_key()?;
            st.count += 1;
            // SC-D-14: `length`, or a name already present, is SC_KEY.
            match index {
                Some(i) => {
                    if !st.indexed {
                        self.end_run(me, st);
                        st.indexed = true;
                        *indexed = self.take_elems(me);
                    }
                    let p = indexed.partition_point(|(j, _)| *j < i);
                    if indexed.get(p).is_some_and(|(j, _)| *j == i) {
                        return Err(self.err(ErrorCode::Key, kat, "duplicate array index"));
                    }
                    let v = self.read_value()?;
                    indexed.insert(p, (i, v));
                }
                None => {
                    let duplicate = self.str_of(key).eq_str("length")
                        || self.is_duplicate(me, (0, 0), st.keys_from, key);
                    if duplicate {
                        return Err(self.err(ErrorCode::Key, kat, "duplicate property key"));
                    }
                    self.s.key_stack.push(key);
                    self.values_to(me).push(Slot::Undefined);
                    st.props += 1;
                    let v = self.read_value()?;
                    self.set_last_value(me, v);
                }
            }
            if self.s.stack.len() > me + 1 {
                return Ok(Fill::Open);
            }
        }
    }

    /// SC-D-20: Map entries until `:`.
    pub(super) fn fill_map(&mut self, me: usize) -> R<Fill> {
        let Frame::Map {
            obj,
            entries,
            index,
            read,
            key,
        } = &mut self.s.stack[me]
        else {
            unreachable!("fill_map on another frame")
        };
        let obj = *obj;
        let mut entries = std::mem::take(entries);
        let mut index = std::mem::take(index);
        let mut read = *read;
        let mut key = key.take();
        let result = loop {
            if key.is_none() {
                let (tag, at) = self.peek_after_padding()?;
                if tag == TAG_END_JS_MAP {
                    self.pos = at + 1;
                    let expected = self.read_u32()?;
                    if u64::from(expected) != 2 * u64::from(read) {
                        return Err(self.err(ErrorCode::Count, at, "map length does not match"));
                    }
                    let n = entries.len() / 2;
                    let s = self.store_elems(me, entries.drain(..));
                    self.a.objects[obj as usize] = ObjSlot::Map(Span {
                        start: s.start,
                        len: n as u32,
                    });
                    break Fill::Done;
                }
                key = Some(self.read_value()?);
                if self.s.stack.len() > me + 1 {
                    break Fill::Open;
                }
            }
            let v = self.read_value()?;
            let k = key.take().unwrap_or(Slot::Undefined);
            self.map_set(&mut entries, &mut index, &mut read, k, v);
            if self.s.stack.len() > me + 1 {
                break Fill::Open;
            }
        };
        if let Fill::Open = result {
            if let Frame::Map {
                entries: e,
                index: i,
                read: r,
                key: k,
                ..
            } = &mut self.s.stack[me]
            {
                *e = entries;
                *i = index;
                *r = read;
                *k = key;
            }
        }
        Ok(result)
    }

    /// SC-D-20: Set values until `,`.
    pub(super) fn fill_set(&mut self, me: usize) -> R<Fill> {
        let Frame::Set {
            obj,
            values,
            index,
            read,
        } = &mut self.s.stack[me]
        else {
            unreachable!("fill_set on another frame")
        };
        let obj = *obj;
        let mut values = std::mem::take(values);
        let mut index = std::mem::take(index);
        let mut read = *read;
        let result = loop {
            let (tag, at) = self.peek_after_padding()?;
            if tag == TAG_END_JS_SET {
                self.pos = at + 1;
                let expected = self.read_u32()?;
                if expected != read {
                    return Err(self.err(ErrorCode::Count, at, "set size does not match"));
                }
                let s = self.store_elems(me, values.drain(..));
                self.a.objects[obj as usize] = ObjSlot::Set(s);
                break Fill::Done;
            }
            let v = self.read_value()?;
            self.set_add(&mut values, &mut index, &mut read, v);
            if self.s.stack.len() > me + 1 {
                break Fill::Open;
            }
        };
        if let Fill::Open = result {
            if let Frame::Set {
                values: v,
                index: i,
                read: r,
                ..
            } = &mut self.s.stack[me]
            {
                *v = values;
                *i = index;
                *r = read;
            }
        }
        Ok(result)
    }

    /// SC-D-24: Error subtags until `.`.
    pub(super) fn fill_error(&mut self, me: usize) -> R<Fill> {
        let Frame::Error { err, seen } = &mut self.s.stack[me] else {
            unreachable!("fill_error on another frame")
        };
        let e = *err as usize;
        let mut seen = *seen;
        loop {
            let sub_at = self.pos;
            let sub = self.read_u8()?;
            if sub == ERROR_END {
                return Ok(Fill::Done);
            }
            let proto = error_prototype(sub);
            let bit = match sub {
                _ if proto.is_some() => 1u8,
                ERROR_MESSAGE => 2,
                ERROR_STACK => 4,
                ERROR_CAUSE => 8,
                _ => return Err(self.err(ErrorCode::Tag, sub_at, "unknown Error subtag")),
            };
            if seen & bit != 0 {
                return Err(self.err(ErrorCode::Tag, sub_at, "repeated Error subtag"));
            }
            seen |= bit;
            match sub {
                ERROR_MESSAGE => self.a.errors[e].message = Some(self.read_string_value()?),
                ERROR_STACK => self.a.errors[e].stack = Some(self.read_string_value()?),
                ERROR_CAUSE => {
                    self.a.errors[e].cause = Some(self.read_value()?);
                    if self.s.stack.len() > me + 1 {
                        if let Frame::Error { seen: s, .. } = &mut self.s.stack[me] {
                            *s = seen;
                        }
                        return Ok(Fill::Open);
                    }
                }
                _ => {
                    if let Some(name) = proto {
                        self.a.errors[e].name = name;
                    }
                }
            }
        }
    }

    // ---- Map and Set semantics ------------------------------------------------------------------

    /// SC-D-20: `Map.prototype.set`: -0 becomes +0; an existing key keeps its place and takes the value.
    pub(super) fn map_set(
        &self,
        entries: &mut Vec<Slot>,
        index: &mut Index,
        read: &mut u32,
        k: Slot,
        v: Slot,
    ) {
        *read += 1;
        let k = normalize_zero(k);
        let n = entries.len() / 2;
        match index.find(
            n,
            || self.hash_value(k),
            |i| self.same_value_zero(entries[2 * i], k),
        ) {
            Some(i) => entries[2 * i + 1] = v,
            None => {
                index.insert(
                    n,
                    || self.hash_value(k),
                    |i| self.hash_value(entries[2 * i]),
                );
                entries.push(k);
                entries.push(v);
            }
        }
    }

    /// SC-D-20: `Set.prototype.add`: a repeat is dropped.
    pub(super) fn set_add(
        &self,
        values: &mut Vec<Slot>,
        index: &mut Index,
        read: &mut u32,
        v: Slot,
    ) {
        *read += 1;
        let v = normalize_zero(v);
        if index
            .find(
                values.len(),
                || self.hash_value(v),
                |i| self.same_value_zero(values[i], v),
            )
            .is_none()
        {
            index.insert(
                values.len(),
                || self.hash_value(v),
                |i| self.hash_value(values[i]),
            );
            values.push(v);
        }
    }

    pub(super) fn same_value_zero(&self, a: Slot, b: Slot) -> bool {
        match (a, b) {
            (Slot::Number(x), Slot::Number(y)) => x == y || (x.is_nan() && y.is_nan()),
            (Slot::Undefined, Slot::Undefined) | (Slot::Null, Slot::Null) => true,
            (Slot::Bool(x), Slot::Bool(y)) => x == y,
            (Slot::Object(x), Slot::Object(y)) => x == y,
            (Slot::BigInt { .. }, Slot::BigInt { .. }) => self.bigint(a) == self.bigint(b),
            (Slot::Latin1 { .. } | Slot::Utf16 { .. } | Slot::Utf8 { .. }, _)
                if matches!(
                    b,
                    Slot::Latin1 { .. } | Slot::Utf16 { .. } | Slot::Utf8 { .. }
                ) =>
            {
                self.same_key(a, b)
            }
            _ => false,
        }
    }

    pub(super) fn bigint(&self, s: Slot) -> (bool, &'a [u8]) {
        let Slot::BigInt { negative, len, at } = s else {
            return (false, &[]);
        };
        let m = &self.buf[at..at + len as usize];
        let n = m.len() - m.iter().rev().take_while(|&&b| b == 0).count();
        (negative && n > 0, &m[..n])
    }

    pub(super) fn hash_value(&self, v: Slot) -> u64 {
        let mut h = DefaultHasher::new();
        match v {
            Slot::Undefined => 0u8.hash(&mut h),
            Slot::Null => 1u8.hash(&mut h),
            Slot::Bool(b) => (2u8, b).hash(&mut h),
            Slot::Number(n) => {
                let bits = if n.is_nan() {
                    f64::NAN.to_bits()
                } else if n == 0.0 {
                    0
                } else {
                    n.to_bits()
                };
                (3u8, bits).hash(&mut h)
            }
            Slot::BigInt { .. } => (4u8, self.bigint(v)).hash(&mut h),
            Slot::Object(o) => (6u8, o).hash(&mut h),
            s => {
                5u8.hash(&mut h);
                self.str_of(s).hash(&mut h)
            }
        }
        h.finish()
    }
}
