//! The reader's driver and values: the frame loop, one value by its tag, and the fast paths for
//! flat objects and runs of them (see the speed notes in `mod.rs`).

use super::fast::{any_names, learn_key, name_bit, object_run, prepare, span};
use super::wire::{Index, Shape, key_matches, time_clip, varint_at, zigzag};
use super::{ArrState, Dec, ELEMS, Fast, Fill, Frame, NONE, NONE32, OPEN, ObjState, R, Scratch};
use crate::borrowed::{Arenas, ArrayRef, BorrowedGraph, ErrSlot, NO_INDEXES, ObjSlot, Slot};
use crate::error::ErrorCode;
use crate::tags::*;
use crate::value::{ErrorName, Props, Span, View, ViewKind, push_in};

impl<'a, 's> Dec<'a, 's> {
    // ---- driver -------------------------------------------------------------------------------

    /// Reads the whole input; the graph (or the error) and the version the header named.
    pub(super) fn run(mut self) -> (R<BorrowedGraph<'a>>, u32) {
        let root = self.read_all();
        let version = self.version;
        let graph = match root {
            Ok(root) => {
                let arenas = if self.a.objects.is_empty() {
                    self.s.keep_arenas(self.a);
                    None
                } else {
                    Some(self.a)
                };
                Ok(BorrowedGraph {
                    input: self.buf,
                    root,
                    arenas,
                })
            }
            Err(e) => {
                // A rejected input leaves its arenas to the next decode of the same memory too.
                self.s.keep_arenas(self.a);
                Err(e)
            }
        };
        (graph, version)
    }

    pub(super) fn read_all(&mut self) -> R<Slot> {
        self.read_header()?;
        let root = self.read_value()?;
        if !self.s.stack.is_empty() {
            self.drive()?;
        }
        // SC-D-28
        self.skip_padding();
        if self.pos < self.buf.len() {
            return Err(self.err(ErrorCode::Tag, self.pos, "bytes after the top-level value"));
        }
        Ok(root)
    }

    pub(super) fn drive(&mut self) -> R<()> {
        loop {
            let me = self.s.stack.len() - 1;
            let fill = match &self.s.stack[me] {
                Frame::Object(..) => self.fill_object(me)?,
                Frame::Array(..) => self.fill_array(me)?,
                Frame::Map { .. } => self.fill_map(me)?,
                Frame::Set { .. } => self.fill_set(me)?,
                Frame::Error { .. } => self.fill_error(me)?,
            };
            if let Fill::Done = fill {
                // Dropped in place (not moved out first: most frames own nothing).
                self.s.stack.truncate(me);
                if self.s.stack.is_empty() {
                    return Ok(());
                }
            }
        }
    }

    /// SC-D-03
    pub(super) fn read_header(&mut self) -> R<()> {
        match self.buf.first() {
            Some(&TAG_VERSION) => {}
            Some(_) => return Err(self.err(ErrorCode::Version, 0, "no FF version header")),
            None => return Err(self.truncated()),
        }
        self.pos = 1;
        let v = self.read_u32()?;
        if !(13..=15).contains(&v) {
            return Err(self.err(ErrorCode::Version, 0, "version outside 13..=15"));
        }
        self.version = v;
        Ok(())
    }

    /// SC-L-05: how many more values may be read (no bound when not counting).
    #[inline(always)]
    pub(super) fn budget(&self) -> u64 {
        if self.counting {
            self.max_values.saturating_sub(self.values)
        } else {
            u64::MAX
        }
    }

    /// SC-L-05: one more value, whose tag is at `at`.
    #[inline(always)]
    pub(super) fn count(&mut self, at: usize) -> R<()> {
        if self.counting {
            self.values += 1;
            if self.values > self.max_values {
                return Err(self.err(ErrorCode::LimitValues, at, "more than max_values values"));
            }
        }
        Ok(())
    }

    /// SC-D-07: one item at a value position (a container that opens pushes its frame).
    #[inline]
    pub(super) fn read_value(&mut self) -> R<Slot> {
        let (tag, at) = self.value_tag()?;
        self.count(at)?;
        Ok(match tag {
            TAG_ONE_BYTE_STRING => {
                let len = self.read_u32()?;
                let at = self.read_raw(len as usize)?;
                Slot::Latin1 { len, at }
            }
            TAG_INT32 => Slot::Number(f64::from(zigzag(self.read_u32()?))),
            TAG_TRUE => Slot::Bool(true),
            TAG_FALSE => Slot::Bool(false),
            TAG_BEGIN_JS_OBJECT => Slot::Object(self.begin_object(at)?),
            TAG_UNDEFINED => Slot::Undefined,
            TAG_NULL => Slot::Null,
            TAG_DOUBLE => Slot::Number(self.read_double()?),
            _ => return self.read_other_value(tag, at),
        })
    }

    /// SC-D-07: the less common tags.
    pub(super) fn read_other_value(&mut self, tag: u8, at: usize) -> R<Slot> {
        Ok(match tag {
            TAG_UINT32 => Slot::Number(f64::from(self.read_u32()?)),
            TAG_BIGINT => self.read_bigint(at)?,
            TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                let len = self.read_u32()?;
                self.read_other_string(tag, at, len)?
            }
            TAG_OBJECT_REFERENCE => {
                // SC-D-25
                let id = self.read_u32()?;
                match self.wire_object(id) {
                    Some(obj) => self.maybe_view(obj)?,
                    None => {
                        return Err(self.err(
                            ErrorCode::Ref,
                            at,
                            "back-reference to an unassigned id",
                        ));
                    }
                }
            }
            TAG_BEGIN_DENSE_JS_ARRAY | TAG_BEGIN_SPARSE_JS_ARRAY => {
                Slot::Object(self.begin_array(tag == TAG_BEGIN_DENSE_JS_ARRAY, at)?)
            }
            TAG_DATE => {
                // SC-D-17
                let t = time_clip(self.read_double()?);
                Slot::Object(self.new_object(ObjSlot::Date(t)))
            }
            TAG_TRUE_OBJECT => Slot::Object(self.new_object(ObjSlot::BooleanObject(true))),
            TAG_FALSE_OBJECT => Slot::Object(self.new_object(ObjSlot::BooleanObject(false))),
            TAG_NUMBER_OBJECT => {
                let obj = self.new_object(ObjSlot::NumberObject(0.0));
                let n = self.read_double()?;
                self.a.objects[obj as usize] = ObjSlot::NumberObject(n);
                Slot::Object(obj)
            }
            TAG_BIGINT_OBJECT => {
                let obj = self.new_object(ObjSlot::BigIntObject(Slot::Undefined));
                let b = self.read_bigint(at)?;
                self.a.objects[obj as usize] = ObjSlot::BigIntObject(b);
                Slot::Object(obj)
            }
            TAG_STRING_OBJECT => {
                let obj = self.new_object(ObjSlot::StringObject(Slot::Undefined));
                let s = self.read_string_value()?;
                self.a.objects[obj as usize] = ObjSlot::StringObject(s);
                Slot::Object(obj)
            }
            TAG_REGEXP => {
                // SC-D-19
                let obj = self.new_object(ObjSlot::RegExp {
                    source: Slot::Undefined,
                    flags: 0,
                });
                let source = self.read_string_value()?;
                let flags = self.read_u32()?;
                if flags & !0x1BF != 0 {
                    return Err(self.err(
                        ErrorCode::Tag,
                        at,
                        "RegExp flags hold an unknown or linear (l) bit",
                    ));
                }
                if flags & 16 != 0 && flags & 256 != 0 {
                    return Err(self.err(ErrorCode::Tag, at, "RegExp flags u and v together"));
                }
                self.a.objects[obj as usize] = ObjSlot::RegExp { source, flags };
                Slot::Object(obj)
            }
            TAG_BEGIN_JS_MAP => {
                // SC-D-20
                self.check_depth(at)?;
                let obj = self.new_object(ObjSlot::Map(Span::EMPTY));
                self.s.stack.push(Frame::Map {
                    obj,
                    entries: Vec::new(),
                    index: Index::default(),
                    read: 0,
                    key: None,
                });
                Slot::Object(obj)
            }
            TAG_BEGIN_JS_SET => {
                self.check_depth(at)?;
                let obj = self.new_object(ObjSlot::Set(Span::EMPTY));
                self.s.stack.push(Frame::Set {
                    obj,
                    values: Vec::new(),
                    index: Index::default(),
                    read: 0,
                });
                Slot::Object(obj)
            }
            TAG_ARRAY_BUFFER | TAG_RESIZABLE_ARRAY_BUFFER => {
                // SC-D-21
                let obj = self.new_object(ObjSlot::ArrayBuffer {
                    at: 0,
                    len: 0,
                    max: None,
                });
                let byte_length = self.read_u32()?;
                let max = if tag == TAG_RESIZABLE_ARRAY_BUFFER {
                    let m = self.read_u32()?;
                    if byte_length > m {
                        return Err(self.err(
                            ErrorCode::Tag,
                            at,
                            "resizable buffer longer than its maximum",
                        ));
                    }
                    Some(m)
                } else {
                    None
                };
                let data = self.read_raw(byte_length as usize)?;
                self.a.objects[obj as usize] = ObjSlot::ArrayBuffer {
                    at: data,
                    len: byte_length,
                    max,
                };
                self.maybe_view(obj)?
            }
            TAG_ERROR => {
                // SC-D-24
                self.check_depth(at)?;
                let err = self.a.errors.len() as u32;
                self.a.errors.push(ErrSlot {
                    name: ErrorName::Error,
                    message: None,
                    stack: None,
                    cause: None,
                });
                let obj = self.new_object(ObjSlot::Error(err));
                self.s.stack.push(Frame::Error { err, seen: 0 });
                Slot::Object(obj)
            }
            TAG_HOST_OBJECT => self.read_host_object(at)?,
            TAG_ARRAY_BUFFER_VIEW => {
                return Err(self.err(
                    ErrorCode::View,
                    at,
                    "view not directly after an ArrayBuffer",
                ));
            }
            TAG_ARRAY_BUFFER_TRANSFER
            | TAG_SHARED_ARRAY_BUFFER
            | TAG_WASM_MODULE_TRANSFER
            | TAG_WASM_MEMORY_TRANSFER => {
                return Err(self.err(
                    ErrorCode::Unsupported,
                    at,
                    "tag only has meaning inside one process",
                ));
            }
            TAG_SHARED_OBJECT if self.version >= 15 => {
                return Err(self.err(ErrorCode::Unsupported, at, "shared object tag p"));
            }
            _ => return Err(self.err(ErrorCode::Tag, at, "tag not allowed here")),
        })
    }

    /// SC-D-14 without a frame: the dense array whose `A` tag is at `at`, when its elements are
    /// one-byte strings with a one-byte length, one-byte int32s, booleans, null or undefined and it
    /// has no other properties: its elements go to the element arena, its id is returned and the
    /// position is after its end. `None` (nothing read, the arenas as they were) for anything else,
    /// which [`Dec::begin_array`] reads (and reports) from `at`.
    ///
    /// `open`: the containers open around it, counted as the general path counts them at the
    /// array's depth check (its parent's frame included, pushed or not).
    pub(super) fn array_fast(&mut self, at: usize, open: usize, limit: u64) -> Option<u32> {
        let buf = self.buf;
        let (length, mut p) = varint_at(buf, at + 1)?;
        // SC-D-29; the element arena's tail must be free (no open array's elements there);
        // SC-L-05: at most `limit` elements (it counts them, the caller counts the array).
        if open >= self.max_depth
            || u64::from(length) > limit
            || length as usize > buf.len() - p
            || (self.elems_owner != NONE && self.elems_from < self.a.elems.len())
        {
            return None;
        }
        let elems = &mut self.a.elems;
        let start = elems.len();
        let mut i = 0;
        while i < length {
            let (Some(&t), Some(&b)) = (buf.get(p), buf.get(p + 1)) else {
                break;
            };
            let (slot, next) = match t {
                TAG_ONE_BYTE_STRING if b < 0x80 && b as usize <= buf.len() - (p + 2) => (
                    Slot::Latin1 {
                        len: u32::from(b),
                        at: p + 2,
                    },
                    p + 2 + b as usize,
                ),
                TAG_INT32 if b < 0x80 => (Slot::Number(f64::from(zigzag(u32::from(b)))), p + 2),
                TAG_TRUE => (Slot::Bool(true), p + 1),
                TAG_FALSE => (Slot::Bool(false), p + 1),
                TAG_NULL => (Slot::Null, p + 1),
                TAG_UNDEFINED => (Slot::Undefined, p + 1),
                _ => break,
            };
            elems.push(slot);
            p = next;
            i += 1;
        }
        // SC-D-14: `$`, no other properties, the same length.
        let end = match (buf.get(p), buf.get(p + 1)) {
            (Some(&TAG_END_DENSE_JS_ARRAY), Some(&0)) if i == length => match varint_at(buf, p + 2)
            {
                Some((n, end)) if n == length => Some(end),
                _ => None,
            },
            _ => None,
        };
        let Some(end) = end else {
            elems.truncate(start);
            return None;
        };
        let elems = span(start, elems.len());
        // The arena's tail owner had nothing there: it claims the tail afresh when it writes.
        self.elems_owner = NONE;
        self.pos = end;
        self.values += u64::from(length);
        Some(self.new_object(ObjSlot::Array(ArrayRef {
            length,
            props: Props::EMPTY,
            elems,
            indexes: NO_INDEXES,
        })))
    }

    /// SC-D-14, SC-D-15: an array whose `A` (`dense`) or `a` tag was at `at` opens its frame; its id.
    pub(super) fn begin_array(&mut self, dense: bool, at: usize) -> R<u32> {
        self.check_depth(at)?;
        let length = self.read_u32()?;
        if dense && length as usize > self.remaining() {
            return Err(self.truncated());
        }
        let obj = self.new_object(OPEN);
        let me = self.s.stack.len();
        self.open_level(me);
        push_in(
            &mut self.s.stack,
            Frame::Array(
                ArrState {
                    obj,
                    dense,
                    length,
                    next: 0,
                    in_props: !dense,
                    indexed: !dense,
                    count: 0,
                    props: 0,
                    keys_from: self.s.key_stack.len() as u32,
                    in_run: dense,
                    run_start: 0,
                    run_len: 0,
                },
                Index::default(),
                Vec::new(),
            ),
        );
        Ok(obj)
    }

    /// SC-D-12: an object whose `o` tag was at `at`: the frame-less fast path, then a frame.
    #[inline]
    pub(super) fn begin_object(&mut self, at: usize) -> R<u32> {
        self.check_depth(at)?;
        let obj = self.a.objects.len() as u32;
        // The common case without a frame: the properties `props_fast` reads, then the end tag.
        // It stops at the first thing it does not handle, for `fill_object` to continue from
        // exactly there (the frame is pushed then).
        let me = self.s.stack.len();
        self.claim_values(me);
        if self.s.shapes.len() <= me {
            self.s.shapes.resize_with(me + 1, Shape::default);
        }
        let mut st = ObjState {
            obj,
            count: 0,
            matched: 0,
            prefix_at: self.s.shapes[me].keys_at,
            keys_from: self.s.key_stack.len() as u32,
            has_index: false,
            pending: false,
            seen: 0,
        };
        let start = self.a.values.len();
        // Its slot, once a value (an array read without a frame) needs an id after it.
        let mut placed = false;
        loop {
            let (c0, limit) = (st.count, self.budget());
            let fast = self.props_fast(me, &mut st, false, limit);
            self.values += u64::from(st.count - c0);
            match fast {
                Fast::Done(next) => {
                    self.pos = next;
                    self.values_owner = NONE;
                    let keys = self.object_keys(me, &st);
                    let props = if st.count == 0 {
                        Props::EMPTY
                    } else {
                        Props {
                            keys,
                            values: start as u32,
                            len: st.count,
                        }
                    };
                    if placed {
                        self.a.objects[obj as usize] = ObjSlot::Plain(props);
                    } else {
                        self.new_object(ObjSlot::Plain(props));
                    }
                    return Ok(obj);
                }
                // A value that is an array of primitives is read here too (it writes no
                // property values, so this object keeps the value arena's tail).
                Fast::Value if self.buf.get(self.pos) == Some(&TAG_BEGIN_DENSE_JS_ARRAY) => {
                    if !placed {
                        self.new_object(OPEN);
                        placed = true;
                    }
                    // (This object's frame is not pushed: it counts as open.) The array is
                    // a value, its elements are more.
                    let limit = self.budget().saturating_sub(1);
                    if self.budget() == 0 {
                        break;
                    }
                    let Some(id) = self.array_fast(self.pos, me + 1, limit) else {
                        break;
                    };
                    self.values += 1;
                    if self.values_owner != me {
                        self.claim_values(me);
                    }
                    self.a.values.push(Slot::Object(id));
                    st.pending = false;
                    st.count += 1;
                }
                _ => break,
            }
        }
        if st.count == 0 {
            // Nothing written: the arena is not this object's until it writes.
            self.values_owner = NONE;
        }
        if !placed {
            self.new_object(OPEN);
        }
        self.open_level(me);
        push_in(&mut self.s.stack, Frame::Object(st, Index::default()));
        Ok(obj)
    }

    /// SC-D-12/13 and SC-D-07 for the common properties of the object at level `me` (whose shape
    /// cache exists), from the current position: keys the cache knows (byte for byte, no repeat
    /// check needed) or one-byte-string keys that are no array index, checked against the
    /// object's keys so far (only while it has fewer than 16: then its frame's index takes over)
    /// and learned; values that are one-byte strings, numbers, booleans, null or undefined,
    /// appended to the scratch stack (`to_scratch`) or the value arena. Stops before the first
    /// property it does not read that way, with `st` and the position at that property; returns
    /// the position after the end tag when it reads the end tag with the right count. It reads at
    /// most `limit` values (SC-L-05: the caller counts them).
    #[inline(always)]
    pub(super) fn props_fast(
        &mut self,
        me: usize,
        st: &mut ObjState,
        to_scratch: bool,
        limit: u64,
    ) -> Fast {
        let c0 = st.count;
        let Dec { buf, pos, a, s, .. } = self;
        let Arenas { keys, values, .. } = &mut **a;
        let Scratch {
            scratch_values,
            key_stack,
            shapes,
            ..
        } = &mut **s;
        let buf: &[u8] = buf;
        let dest = if to_scratch { scratch_values } else { values };
        let enc = &mut shapes[me].enc;
        let mut p = *pos;
        while let Some(&tag) = buf.get(p) {
            if tag == TAG_END_JS_OBJECT {
                match varint_at(buf, p + 1) {
                    Some((n, next)) if n == st.count => {
                        *pos = p;
                        return Fast::Done(next);
                    }
                    _ => break,
                }
            }
            if u64::from(st.count - c0) >= limit {
                break;
            }
            let k = st.count as usize;
            let cached = match enc.get_mut(k) {
                Some(ek) if st.matched as usize == k => {
                    prepare(ek, buf);
                    key_matches(buf, ek, p).then_some(ek.len as usize)
                }
                _ => None,
            };
            let (key_end, learned) = match cached {
                Some(len) => (p + len, None),
                _ => {
                    if tag != TAG_ONE_BYTE_STRING || k >= 16 {
                        break;
                    }
                    let Some(&n) = buf.get(p + 1) else { break };
                    let (n, s) = (n as usize, p + 2);
                    if n >= 0x80 || n > buf.len() - s || (n > 0 && buf[s].is_ascii_digit()) {
                        break;
                    }
                    let prefix = match st.matched {
                        0 => &[][..],
                        m => {
                            let a = st.prefix_at as usize;
                            keys.get(a..a + m as usize).unwrap_or(&[])
                        }
                    };
                    let bit = name_bit(buf, s, n);
                    let rest = if st.seen & bit != 0 {
                        key_stack.get(st.keys_from as usize..).unwrap_or(&[])
                    } else {
                        &[]
                    };
                    if (!prefix.is_empty() && any_names(buf, prefix, s, n))
                        || (!rest.is_empty() && any_names(buf, rest, s, n))
                    {
                        break; // a repeat: the general path reports it
                    }
                    st.seen |= bit;
                    (
                        s + n,
                        Some(Slot::Latin1 {
                            len: n as u32,
                            at: s,
                        }),
                    )
                }
            };
            let Some(&vtag) = buf.get(key_end) else { break };
            let value = match vtag {
                TAG_ONE_BYTE_STRING => match varint_at(buf, key_end + 1) {
                    Some((n, s)) if n as usize <= buf.len() - s => {
                        Some((Slot::Latin1 { len: n, at: s }, s + n as usize))
                    }
                    _ => None,
                },
                TAG_INT32 => varint_at(buf, key_end + 1)
                    .map(|(n, next)| (Slot::Number(f64::from(zigzag(n))), next)),
                TAG_TRUE => Some((Slot::Bool(true), key_end + 1)),
                TAG_FALSE => Some((Slot::Bool(false), key_end + 1)),
                TAG_UNDEFINED => Some((Slot::Undefined, key_end + 1)),
                TAG_NULL => Some((Slot::Null, key_end + 1)),
                TAG_DOUBLE => buf.get(key_end + 1..key_end + 9).map(|b| {
                    let v = f64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
                    (
                        Slot::Number(if v.is_nan() { f64::NAN } else { v }),
                        key_end + 9,
                    )
                }),
                _ => None,
            };
            // The key is this property's (a value the fast path does not read is left, with the
            // key taken, to `read_value`: nested containers mostly).
            match learned {
                None => st.matched += 1,
                Some(key) => {
                    learn_key(enc, k, p, key_end, false);
                    key_stack.push(key);
                }
            }
            let Some((slot, next)) = value else {
                *pos = key_end;
                st.pending = true;
                return Fast::Value;
            };
            dest.push(slot);
            st.count += 1;
            p = next;
        }
        *pos = p;
        Fast::Stop
    }

    /// A run of elements of the hole-free dense array at level `me` that are objects of the shape
    /// the level below remembers, with primitive values (the W6b shape: an array of records): each
    /// read by [`flat_object`] and stored, with no frame and no per-object bookkeeping beyond its
    /// slot. Stops before the first element it does not read that way, for the general path.
    /// Returns how many elements it read.
    pub(super) fn object_run(&mut self, me: usize, st: &mut ArrState) -> usize {
        let level = me + 1;
        // SC-D-29: an object here opens level `me + 2`; the general path reports a violation.
        if level >= self.max_depth || !self.ids_direct {
            return 0;
        }
        let buf = self.buf;
        let Some(shape) = self.s.shapes.get_mut(level) else {
            return 0;
        };
        if shape.enc.is_empty() || shape.enc.iter().any(|e| e.len > 16) {
            return 0;
        }
        // SC-L-05: an object and its properties (at most the remembered keys) are values.
        let per_object = 1 + shape.enc.len() as u64;
        let max_objects = match self.counting {
            true => (self.max_values.saturating_sub(self.values) / per_object)
                .min(u64::from(u32::MAX)) as u32,
            false => u32::MAX,
        };
        if max_objects == 0 {
            return 0;
        }
        for ek in &mut shape.enc {
            prepare(ek, buf);
        }
        // In a run of objects the elements are only counted (their ids follow on).
        let first = self.a.objects.len() as u32;
        let ranged = st.in_run && (st.run_len == 0 || first == st.run_start + st.run_len);
        if !ranged {
            self.end_run(me, st);
            if self.elems_owner != me {
                if self.s.scratch_at[me][ELEMS] != NONE32 {
                    return 0;
                }
                self.claim_elems(me);
            }
        }
        self.claim_values(level);
        let shape = &self.s.shapes[level];
        let elems = (!ranged).then_some(&mut self.a.elems);
        let (buf, pos, o, v) = (
            self.buf,
            &mut self.pos,
            &mut self.a.objects,
            &mut self.a.values,
        );
        let enc = (&shape.enc[..], shape.keys_at);
        let props_before = v.len();
        // Keys of up to 8 encoded bytes (the common short names) compare as one word.
        let read = if shape.enc.iter().all(|e| e.len <= 8) {
            object_run::<true>(buf, pos, enc, o, v, elems, st, max_objects)
        } else {
            object_run::<false>(buf, pos, enc, o, v, elems, st, max_objects)
        };
        self.values += (read + (self.a.values.len() - props_before)) as u64;
        self.values_owner = NONE;
        if ranged && read > 0 {
            if st.run_len == 0 {
                st.run_start = first;
            }
            st.run_len += read as u32;
        }
        read
    }

    /// A run of elements of the hole-free dense array at level `me` that are one-byte strings with
    /// a one-byte length (an array of names): appended by a loop of their own. Stops before the
    /// first element it does not read that way, for the general path; returns how many it read.
    pub(super) fn string_run(&mut self, me: usize, st: &mut ArrState) -> usize {
        // SC-L-05: as many strings as the budget allows.
        let limit = self.budget().min(u64::from(u32::MAX)) as u32;
        if limit == 0 || (self.elems_owner != me && self.s.scratch_at[me][ELEMS] != NONE32) {
            return 0;
        }
        self.end_run(me, st);
        if self.elems_owner != me {
            self.claim_elems(me);
        }
        let (buf, elems) = (self.buf, &mut self.a.elems);
        let (first, length) = (st.next, st.length.min(st.next.saturating_add(limit)));
        let mut at = self.pos;
        let mut next = first;
        while next < length {
            let (Some(&TAG_ONE_BYTE_STRING), Some(&n)) = (buf.get(at), buf.get(at + 1)) else {
                break;
            };
            let s = at + 2;
            if n >= 0x80 || n as usize > buf.len() - s {
                break;
            }
            elems.push(Slot::Latin1 {
                len: u32::from(n),
                at: s,
            });
            at = s + n as usize;
            next += 1;
        }
        self.pos = at;
        st.next = next;
        self.values += u64::from(next - first);
        (next - first) as usize
    }

    /// SC-D-22: a buffer-valued item followed (after padding only) by `V` becomes a view over it.
    pub(super) fn maybe_view(&mut self, obj: u32) -> R<Slot> {
        let (buffer_len, resizable) = match self.a.objects.get(obj as usize) {
            Some(ObjSlot::ArrayBuffer { len, max, .. }) => (u64::from(*len), max.is_some()),
            _ => return Ok(Slot::Object(obj)),
        };
        self.skip_padding();
        if self.buf.get(self.pos) != Some(&TAG_ARRAY_BUFFER_VIEW) {
            return Ok(Slot::Object(obj));
        }
        let at = self.pos;
        self.pos += 1;
        let subtag = self.read_u8()?;
        let byte_offset = self.read_u32()?;
        let byte_length = self.read_u32()?;
        if u64::from(byte_offset) > buffer_len
            || u64::from(byte_length) > buffer_len - u64::from(byte_offset)
        {
            return Err(self.err(ErrorCode::View, at, "view out of bounds"));
        }
        // SC-D-23
        let flags = if self.version >= 14 || self.broken_v13 {
            self.read_u32()?
        } else {
            0
        };
        let Some(kind) = ViewKind::from_subtag(subtag) else {
            return Err(self.err(ErrorCode::View, at, "unknown view subtag"));
        };
        let size = kind.element_size();
        if byte_offset % size != 0 || byte_length % size != 0 {
            return Err(self.err(ErrorCode::View, at, "view misaligned for its element size"));
        }
        let length_tracking = flags & 1 != 0;
        let backed_by_rab = flags & 2 != 0;
        if (length_tracking || backed_by_rab) && !resizable {
            return Err(self.err(ErrorCode::View, at, "view flags need a resizable buffer"));
        }
        if resizable && !backed_by_rab {
            return Err(self.err(
                ErrorCode::View,
                at,
                "view on a resizable buffer must be flagged backed-by-RAB",
            ));
        }
        let byte_length = if length_tracking {
            ((buffer_len as u32 - byte_offset) / size) * size
        } else {
            byte_length
        };
        let view = View {
            kind,
            buffer: crate::ObjId(obj),
            byte_offset,
            byte_length,
            length_tracking,
        };
        Ok(Slot::Object(self.new_object(ObjSlot::View(view))))
    }

    /// SC-D-26/27: `\` host objects.
    pub(super) fn read_host_object(&mut self, at: usize) -> R<Slot> {
        self.ids_explicit();
        if self.node_ipc {
            let sub = self.read_u32()?;
            if sub == 1 {
                self.s.ids.push(None);
                let host_id = self.s.ids.len() - 1;
                let (tag, tag_at) = self.value_tag()?;
                if tag != TAG_BEGIN_JS_OBJECT {
                    return Err(self.err(
                        ErrorCode::Host,
                        at,
                        "IPC host object sub-tag 1 must be followed by an object",
                    ));
                }
                let obj = self.begin_object(tag_at)?;
                self.s.ids[host_id] = Some(obj);
                return Ok(Slot::Object(obj));
            }
            if sub != 0 {
                return Err(self.err(ErrorCode::Host, at, "unknown IPC host object sub-tag"));
            }
        }
        self.s.ids.push(None);
        let wire = self.s.ids.len() - 1;
        let index = self.read_u32()?;
        let byte_length = self.read_u32()?;
        let data = self.read_raw(byte_length as usize)?;
        let Some(kind) = ViewKind::from_node_index(index) else {
            return Err(self.err(ErrorCode::Host, at, "unknown Node host object type"));
        };
        if byte_length % kind.element_size() != 0 {
            return Err(self.err(
                ErrorCode::Host,
                at,
                "host view length is not a multiple of its element size",
            ));
        }
        let buffer = self.alloc(ObjSlot::ArrayBuffer {
            at: data,
            len: byte_length,
            max: None,
        });
        let view = View {
            kind,
            buffer: crate::ObjId(buffer),
            byte_offset: 0,
            byte_length,
            length_tracking: false,
        };
        let obj = self.alloc(ObjSlot::View(view));
        self.s.ids[wire] = Some(obj);
        Ok(Slot::Object(obj))
    }
}
