//! The decoder: V8 ValueSerializer bytes (versions 13..=15, raw and Node dialects) to a
//! [`BorrowedGraph`] whose strings and bytes are slices of the input. It is the only wire reader: the
//! owned `decode` is this followed by `to_graph()`, so both give the same values, errors, offsets and
//! object ids.
//!
//! Nesting is handled with an explicit stack of frames, so the decoder never recurses and its depth is
//! bounded by `max_depth` (SC_LIMIT_DEPTH). Every length is checked against the bytes left before
//! anything is reserved for it.
//!
//! Speed notes (the layout is what makes small objects cheap):
//! - Properties and array elements go to the graph's arenas, not to a vector per object. An open
//!   container writes its entries straight at the tail of an arena while it is the only one writing
//!   there (the common case: flat objects, arrays of flat objects): it is the arena's *owner*. When a
//!   nested container starts writing to the same arena, the owner's entries so far move once to a
//!   scratch stack and it continues there; at its end they move back to the arena as one run. So
//!   every entry is moved at most twice, and nothing is allocated per object. Where an open
//!   container's entries are is decoder state (owner, and per nesting level the start of its scratch
//!   part), not frame state, so a nested object read inline can take the arena over from its parent.
//! - A plain object whose keys the shape cache knows and whose values are primitives is read by a
//!   tight loop without a frame (`props_fast`); anything else continues in the general code from
//!   where the loop stopped.
//! - Property keys: each nesting level remembers the keys of the last object read at that level
//!   (their encoded bytes in the input). When the next object's key bytes equal the remembered key at
//!   the same position, the key is taken without decoding it and without the duplicate check (the
//!   remembered keys are distinct, and every key before it matched too): V8's `ReadExpectedString`.
//!
//! What else makes it cheap:
//!
//! - a value is a 16-byte `Slot`; a string is its offset and length in the input (never copied),
//!   so nothing is allocated or dropped per value;
//! - an array with a hole, index properties or the sparse encoding, and Maps and Sets, collect
//!   their entries in their frame and move them to the element arena once, at their end; only
//!   hole-free dense arrays (and the properties of objects and arrays) write at an arena's tail;
//! - a top-level primitive (a string, a number, an oddball) is read without a decoder at all.

use crate::borrowed::{
    Arenas, ArrayRef, BorrowedGraph, ErrSlot, NO_INDEXES, OBJECT_RUN, ObjSlot, Slot,
};
use crate::decode::{
    DecodeOptions, EncKey, Index, SHAPE_MAX, Shape, error_prototype, key_matches, mask, time_clip,
    varint_at, word_at, zigzag,
};
use crate::error::{Error, ErrorCode};
use crate::tags::*;
use crate::value::{ErrorName, Props, Span, View, ViewKind, push_in};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Decodes one value with the default limits, borrowing strings and bytes from `input`.
///
/// Accepts and rejects exactly what [`decode`](crate::decode) does, with the same error codes and
/// offsets, and gives objects the same ids; [`BorrowedGraph::to_graph`] is what `decode` returns.
#[inline]
pub fn decode_borrowed(input: &[u8]) -> Result<BorrowedGraph<'_>, Error> {
    decode_borrowed_with(input, &DecodeOptions::default())
}

/// [`decode_borrowed`] with the given limits.
#[inline]
pub fn decode_borrowed_with<'a>(
    input: &'a [u8],
    options: &DecodeOptions,
) -> Result<BorrowedGraph<'a>, Error> {
    // SC-L-01
    if input.len() as u64 > options.max_bytes {
        return Err(Error::new(
            ErrorCode::LimitBytes,
            0,
            "input longer than max_bytes",
        ));
    }
    // A top-level primitive is one value (SC-L-05: only `max_values` 0 refuses it).
    match primitive_root(input).filter(|_| options.max_values > 0) {
        Some(root) => Ok(graph(input, root)),
        None => decode_general(input, options),
    }
}

/// Everything but a top-level primitive.
#[inline(never)]
fn decode_general<'a>(
    input: &'a [u8],
    options: &DecodeOptions,
) -> Result<BorrowedGraph<'a>, Error> {
    let mut scratch = Scratch::take();
    let (first, version) = Dec::new(input, options, false, &mut scratch).run();
    let result = match first {
        Ok(g) => Ok(g),
        Err(e) => {
            // SC-D-23: the retry of data labelled 13 that was written with view flags.
            let retry = if version == 13
                && !matches!(
                    e.code,
                    ErrorCode::LimitDepth
                        | ErrorCode::LimitBytes
                        | ErrorCode::LimitValues
                        | ErrorCode::LimitBigint
                ) {
                scratch.clear();
                Dec::new(input, options, true, &mut scratch).run().0.ok()
            } else {
                None
            };
            retry.ok_or(e)
        }
    };
    scratch.give_back();
    result
}

fn graph(input: &[u8], root: Slot) -> BorrowedGraph<'_> {
    BorrowedGraph {
        input,
        root,
        arenas: None,
    }
}

/// SC-D-03/07: the whole input is a header and one primitive (no padding, nothing after it); `None`
/// for anything else, which the decoder proper reads (and reports).
#[inline]
fn primitive_root(input: &[u8]) -> Option<Slot> {
    let [TAG_VERSION, v, tag, ..] = *input else {
        return None;
    };
    if !(13..=15).contains(&v) {
        return None;
    }
    let (slot, end) = match tag {
        TAG_ONE_BYTE_STRING => {
            let (n, s) = match input.get(3) {
                Some(&n) if n < 0x80 => (u32::from(n), 4),
                _ => varint_at(input, 3)?,
            };
            (Slot::Latin1 { len: n, at: s }, s.checked_add(n as usize)?)
        }
        TAG_INT32 => {
            let (z, e) = varint_at(input, 3)?;
            (Slot::Number(f64::from(zigzag(z))), e)
        }
        TAG_DOUBLE => {
            let b: [u8; 8] = input.get(3..11)?.try_into().ok()?;
            let v = f64::from_le_bytes(b);
            (Slot::Number(if v.is_nan() { f64::NAN } else { v }), 11)
        }
        TAG_TRUE => (Slot::Bool(true), 3),
        TAG_FALSE => (Slot::Bool(false), 3),
        TAG_UNDEFINED => (Slot::Undefined, 3),
        TAG_NULL => (Slot::Null, 3),
        _ => return None,
    };
    (end == input.len()).then_some(slot)
}

/// An open plain object.
#[derive(Clone, Copy)]
struct ObjState {
    obj: u32,
    count: u32,
    matched: u32,
    prefix_at: u32,
    keys_from: u32,
    has_index: bool,
    /// The key of property `count` was read (by the fast path); its value comes next.
    pending: bool,
    /// A one-bit-per-key summary ([`name_bit`]) of the keys this object added to the key stack
    /// (all bits once the general path added one): a new name whose bit is clear repeats none of
    /// them, so the fast path compares it with them only when the bit is set.
    seen: u64,
}

/// What [`Dec::props_fast`] stopped at.
enum Fast {
    /// The end tag (with the right count) was read; the position after it.
    Done(usize),
    /// The key of the next property was read and its value is a container (or another value the
    /// fast path leaves to `read_value`): `ObjState::pending` is set.
    Value,
    /// Something the general path reads (and reports, if it is an error).
    Stop,
}

/// An open array.
#[derive(Clone, Copy)]
struct ArrState {
    obj: u32,
    dense: bool,
    length: u32,
    next: u32,
    in_props: bool,
    /// The elements are collected in the frame (`(index, value)`, ascending) instead of at the
    /// element arena's tail: a hole, an index property or the sparse encoding.
    indexed: bool,
    count: u32,
    props: u32,
    keys_from: u32,
    /// The elements so far are the objects `run_start..run_start + run_len` (not written to the
    /// element arena): an array of records is stored as a range of object ids.
    in_run: bool,
    run_start: u32,
    run_len: u32,
}

enum Frame {
    Object(ObjState, Index),
    Array(ArrState, Index, Vec<(u32, Slot)>),
    Map {
        obj: u32,
        entries: Vec<Slot>,
        index: Index,
        read: u32,
        key: Option<Slot>,
    },
    Set {
        obj: u32,
        values: Vec<Slot>,
        index: Index,
        read: u32,
    },
    Error {
        err: u32,
        seen: u8,
    },
}

enum Fill {
    Open,
    Done,
}

const NONE: usize = usize::MAX;
/// The slot of an object or array whose frame is open (its end writes the real one). A constant the
/// compiler stores directly: `Plain(Props::EMPTY)` was built aside and copied with overlapping
/// loads, a store-forwarding stall per container. Nothing reads the slot of an open container as
/// anything but a non-buffer.
const OPEN: ObjSlot = ObjSlot::Date(0.0);
/// The fast object loop's input window.
const WINDOW: usize = 64;
const NONE32: u32 = u32::MAX;
/// Scratch part indexes per level.
const VALUES: usize = 0;
const ELEMS: usize = 1;

type R<T> = Result<T, Error>;

/// The decoder's working memory (open containers, scratch stacks, shape caches): kept per thread
/// between calls, as the `regex` crate keeps its match caches, so that decoding a small value
/// allocates nothing but the graph it returns. A scratch that grew past `SCRATCH_KEEP` bytes is
/// dropped instead of kept.
#[derive(Default)]
struct Scratch {
    ids: Vec<Option<u32>>,
    stack: Vec<Frame>,
    scratch_values: Vec<Slot>,
    scratch_elems: Vec<Slot>,
    scratch_at: Vec<[u32; 2]>,
    key_stack: Vec<Slot>,
    shapes: Vec<Shape>,
}

const SCRATCH_KEEP: usize = 1 << 20;

impl Scratch {
    /// This thread's working memory (cleared), or a new one.
    #[inline]
    fn take() -> Box<Scratch> {
        SCRATCH
            .try_with(|c| c.take())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Forgets an earlier decode (the shape caches point into its input).
    fn clear(&mut self) {
        self.ids.clear();
        self.stack.clear();
        self.scratch_values.clear();
        self.scratch_elems.clear();
        self.scratch_at.clear();
        self.key_stack.clear();
        for s in &mut self.shapes {
            s.enc.clear();
            s.keys_at = 0;
        }
    }

    /// Back to this thread's cache, cleared (unless it grew large).
    fn give_back(mut self: Box<Scratch>) {
        if self.bytes() <= SCRATCH_KEEP {
            self.clear();
            let _ = SCRATCH.try_with(|c| c.set(Some(self)));
        }
    }

    fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.ids.capacity() * size_of::<Option<u32>>()
            + self.stack.capacity() * size_of::<Frame>()
            + (self.scratch_values.capacity()
                + self.scratch_elems.capacity()
                + self.key_stack.capacity())
                * size_of::<Slot>()
            + self.scratch_at.capacity() * 8
            + self.shapes.capacity() * size_of::<Shape>()
            + self
                .shapes
                .iter()
                .map(|s| s.enc.capacity() * size_of::<EncKey>())
                .sum::<usize>()
    }
}

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
    /// The arenas of the last graph dropped on this thread (see `recycle_arenas`).
    static ARENAS: std::cell::Cell<Option<Box<Arenas>>> = const { std::cell::Cell::new(None) };
}

/// A dropped graph's arenas are kept (cleared) for the next decode on this thread, unless they
/// grew past `SCRATCH_KEEP` bytes: a loop that decodes and drops one message at a time then
/// allocates nothing in steady state, as with a reused buffer, without an API for it.
pub(crate) fn recycle_arenas(mut a: Box<Arenas>) {
    use std::mem::size_of;
    let bytes = a.objects.capacity() * size_of::<ObjSlot>()
        + (a.keys.capacity() + a.values.capacity() + a.elems.capacity()) * size_of::<Slot>()
        + a.indexes.capacity() * 4
        + a.errors.capacity() * size_of::<ErrSlot>();
    if bytes <= SCRATCH_KEEP {
        a.objects.clear();
        a.keys.clear();
        a.values.clear();
        a.elems.clear();
        a.indexes.clear();
        a.errors.clear();
        // During thread teardown the cache may be gone: the arenas are then simply freed.
        let _ = ARENAS.try_with(|c| c.set(Some(a)));
    }
}

struct Dec<'a, 's> {
    /// The working memory (this thread's, kept between calls).
    s: &'s mut Scratch,
    buf: &'a [u8],
    pos: usize,
    version: u32,
    broken_v13: bool,
    node_ipc: bool,
    max_depth: usize,
    /// SC-L-05: values are counted only when the input could hold more than `max_values` of them
    /// (every value has a tag byte after the 2-byte header). The general path counts each value
    /// at its tag; a frame-less fast path adds what it read, and only reads as many values as the
    /// budget left allows, so the value over the limit is always met by the general path.
    counting: bool,
    values: u64,
    max_values: u64,
    max_bigint_bytes: u32,
    /// The graph's arenas (a dropped graph's, cleared, when there was one), filled in place.
    a: Box<Arenas>,
    ids_direct: bool,
    /// The value arena's owner (a level, or `NONE`): its values are `values[values_from..]`.
    values_owner: usize,
    values_from: usize,
    /// The same for the element arena (hole-free dense arrays only).
    elems_owner: usize,
    elems_from: usize,
}

impl<'a, 's> Dec<'a, 's> {
    fn new(
        buf: &'a [u8],
        options: &DecodeOptions,
        broken_v13: bool,
        s: &'s mut Scratch,
    ) -> Dec<'a, 's> {
        let container = matches!(
            buf.get(2),
            Some(
                &(TAG_BEGIN_JS_OBJECT
                    | TAG_BEGIN_DENSE_JS_ARRAY
                    | TAG_BEGIN_SPARSE_JS_ARRAY
                    | TAG_BEGIN_JS_MAP
                    | TAG_BEGIN_JS_SET
                    | TAG_HOST_OBJECT
                    | TAG_ERROR)
            )
        );
        // The arenas are sized once from the input (typical objects take 8-40 bytes, properties
        // and elements 3-12), capped: they grow as needed anyway.
        let n = if container { buf.len().min(1 << 20) } else { 0 };
        // The arenas: a dropped graph's (cleared), or new ones.
        let boxed = if container {
            ARENAS.try_with(|c| c.take()).ok().flatten()
        } else {
            None
        };
        let mut a = boxed.unwrap_or_default();
        a.objects.reserve(if container { n / 16 + 1 } else { 0 });
        a.keys.reserve(n / 16);
        a.values.reserve(n / 6);
        a.elems.reserve(n / 8);
        Dec {
            s,
            buf,
            pos: 0,
            version: 0,
            broken_v13,
            node_ipc: options.node_ipc,
            max_depth: options.max_depth as usize,
            counting: buf.len().saturating_sub(2) as u64 > options.max_values,
            values: 0,
            max_values: options.max_values,
            max_bigint_bytes: options.max_bigint_bytes,
            a,
            ids_direct: true,
            values_owner: NONE,
            values_from: 0,
            elems_owner: NONE,
            elems_from: 0,
        }
    }

    // ---- errors and primitives -----------------------------------------------------------------

    fn err(&self, code: ErrorCode, at: usize, msg: &'static str) -> Error {
        Error::new(code, at as u64, msg)
    }

    #[cold]
    fn truncated(&self) -> Error {
        Error::new(
            ErrorCode::Truncated,
            self.buf.len() as u64,
            "input ended inside a value",
        )
    }

    fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// SC-D-06
    #[inline]
    fn skip_padding(&mut self) {
        while self.buf.get(self.pos) == Some(&TAG_PADDING) {
            self.pos += 1;
        }
    }

    /// SC-D-06: padding and `?` verify-count prefixes, then the value's tag and its offset.
    #[inline]
    fn value_tag(&mut self) -> R<(u8, usize)> {
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
    fn peek_after_padding(&mut self) -> R<(u8, usize)> {
        self.skip_padding();
        match self.buf.get(self.pos) {
            Some(&b) => Ok((b, self.pos)),
            None => Err(self.truncated()),
        }
    }

    /// SC-D-04
    #[inline]
    fn read_u32(&mut self) -> R<u32> {
        if let Some(&b) = self.buf.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(u32::from(b));
            }
        }
        self.read_u32_long()
    }

    fn read_u32_long(&mut self) -> R<u32> {
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
    fn read_u8(&mut self) -> R<u8> {
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
    fn read_double(&mut self) -> R<f64> {
        let Some(b) = self.buf.get(self.pos..self.pos + 8) else {
            return Err(self.truncated());
        };
        self.pos += 8;
        let v = f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        Ok(if v.is_nan() { f64::NAN } else { v })
    }

    /// SC-D-05: `n` bytes, checked against the bytes left; their offset.
    #[inline]
    fn read_raw(&mut self, n: usize) -> R<usize> {
        if n > self.remaining() {
            return Err(self.truncated());
        }
        let at = self.pos;
        self.pos += n;
        Ok(at)
    }

    /// SC-D-09
    fn read_bigint(&mut self, tag_pos: usize) -> R<Slot> {
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
    fn read_string_payload(&mut self, tag: u8, tag_pos: usize) -> R<Slot> {
        let len = self.read_u32()?;
        if tag == TAG_ONE_BYTE_STRING {
            let at = self.read_raw(len as usize)?;
            return Ok(Slot::Latin1 { len, at });
        }
        self.read_other_string(tag, tag_pos, len)
    }

    /// SC-D-10: `c` (UTF-16LE) and `S` (UTF-8) payloads.
    fn read_other_string(&mut self, tag: u8, tag_pos: usize, len: u32) -> R<Slot> {
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
    fn read_string_value(&mut self) -> R<Slot> {
        let (tag, at) = self.value_tag()?;
        match tag {
            TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                self.read_string_payload(tag, at)
            }
            _ => Err(self.err(ErrorCode::Tag, at, "a string is required here")),
        }
    }

    /// SC-D-12/13: a property key, its array index if it is one, and the key's tag offset.
    fn read_key(&mut self) -> R<(Slot, Option<u32>, usize)> {
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
    fn array_index(&self, key: Slot) -> Option<u32> {
        if let Slot::Latin1 { len, at } = key {
            // Fast reject: most names do not start with a digit.
            if len == 0 || !self.buf[at].is_ascii_digit() {
                return None;
            }
        }
        self.str_of(key).as_array_index()
    }

    #[inline]
    fn str_of(&self, s: Slot) -> crate::borrowed::Str<'a> {
        slot_str(self.buf, s)
    }

    /// Two keys name the same property.
    #[inline]
    fn same_key(&self, a: Slot, b: Slot) -> bool {
        match (a, b) {
            (Slot::Latin1 { len: la, at: aa }, Slot::Latin1 { len: lb, at: ab }) => {
                la == lb && self.buf[aa..aa + la as usize] == self.buf[ab..ab + lb as usize]
            }
            _ => self.str_of(a) == self.str_of(b),
        }
    }

    fn hash_key(&self, k: Slot) -> u64 {
        let mut h = DefaultHasher::new();
        self.str_of(k).hash(&mut h);
        h.finish()
    }

    // ---- ids ----------------------------------------------------------------------------------

    #[inline]
    fn alloc(&mut self, o: ObjSlot) -> u32 {
        push_in(&mut self.a.objects, o);
        (self.a.objects.len() - 1) as u32
    }

    /// Allocates an object and assigns it the next wire id.
    #[inline]
    fn new_object(&mut self, o: ObjSlot) -> u32 {
        let obj = self.alloc(o);
        if !self.ids_direct {
            self.s.ids.push(Some(obj));
        }
        obj
    }

    #[inline]
    fn wire_object(&self, id: u32) -> Option<u32> {
        if self.ids_direct {
            ((id as usize) < self.a.objects.len()).then_some(id)
        } else {
            self.s.ids.get(id as usize).copied().flatten()
        }
    }

    fn ids_explicit(&mut self) {
        if self.ids_direct {
            self.ids_direct = false;
            self.s.ids = (0..self.a.objects.len() as u32).map(Some).collect();
        }
    }

    /// SC-D-29
    #[inline]
    fn check_depth(&self, tag_pos: usize) -> R<()> {
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
    fn open_level(&mut self, me: usize) {
        if self.s.scratch_at.len() <= me {
            self.s.scratch_at.resize(me + 1, [NONE32, NONE32]);
        } else {
            self.s.scratch_at[me] = [NONE32, NONE32];
        }
    }

    /// Where the container at level `me` (the innermost open one) appends its next property value.
    #[inline(always)]
    fn values_to(&mut self, me: usize) -> &mut Vec<Slot> {
        if self.values_owner != me {
            if self.s.scratch_at[me][VALUES] != NONE32 {
                return &mut self.s.scratch_values;
            }
            self.claim_values(me);
        }
        &mut self.a.values
    }

    #[inline]
    fn claim_values(&mut self, me: usize) {
        let owner = self.values_owner;
        if owner != NONE && owner != me && self.values_from < self.a.values.len() {
            self.demote_values(owner);
        }
        self.values_owner = me;
        self.values_from = self.a.values.len();
    }

    #[inline(never)]
    fn demote_values(&mut self, owner: usize) {
        self.s.scratch_at[owner][VALUES] = self.s.scratch_values.len() as u32;
        self.s
            .scratch_values
            .extend_from_slice(&self.a.values[self.values_from..]);
        self.a.values.truncate(self.values_from);
    }

    #[inline]
    fn set_last_value(&mut self, me: usize, v: Slot) {
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
    fn close_values(&mut self, me: usize) -> u32 {
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
    fn close_keys(&mut self, prefix_at: u32, prefix: u32, keys_from: u32) -> u32 {
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
    fn elems_to(&mut self, me: usize) -> &mut Vec<Slot> {
        if self.elems_owner != me {
            if self.s.scratch_at[me][ELEMS] != NONE32 {
                return &mut self.s.scratch_elems;
            }
            self.claim_elems(me);
        }
        &mut self.a.elems
    }

    #[inline]
    fn claim_elems(&mut self, me: usize) {
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
    fn close_elems(&mut self, me: usize) -> Span {
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
    fn push_elem(&mut self, me: usize, st: &mut ArrState, v: Slot) {
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
    fn end_run(&mut self, me: usize, st: &mut ArrState) {
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
    fn take_elems(&mut self, me: usize) -> Vec<(u32, Slot)> {
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
    fn store_elems(&mut self, me: usize, slots: impl IntoIterator<Item = Slot>) -> Span {
        self.claim_elems(me);
        self.a.elems.extend(slots);
        self.elems_owner = NONE;
        span(self.elems_from, self.a.elems.len())
    }

    // ---- shape cache (see the speed notes at the top) --------------------------------------------

    fn shape_learn(&mut self, level: usize, k: u32, at: usize, index: bool) {
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

    fn object_keys(&mut self, level: usize, st: &ObjState) -> u32 {
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

    // ---- driver -------------------------------------------------------------------------------

    /// Reads the whole input; the graph (or the error) and the version the header named.
    fn run(mut self) -> (R<BorrowedGraph<'a>>, u32) {
        let root = self.read_all();
        let version = self.version;
        let graph = match root {
            Ok(root) => {
                let arenas = if self.a.objects.is_empty() {
                    recycle_arenas(self.a);
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
                // A rejected input leaves its arenas to the next decode on the thread too.
                recycle_arenas(self.a);
                Err(e)
            }
        };
        (graph, version)
    }

    fn read_all(&mut self) -> R<Slot> {
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

    fn drive(&mut self) -> R<()> {
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
    fn read_header(&mut self) -> R<()> {
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
    fn budget(&self) -> u64 {
        if self.counting {
            self.max_values.saturating_sub(self.values)
        } else {
            u64::MAX
        }
    }

    /// SC-L-05: one more value, whose tag is at `at`.
    #[inline(always)]
    fn count(&mut self, at: usize) -> R<()> {
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
    fn read_value(&mut self) -> R<Slot> {
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
    fn read_other_value(&mut self, tag: u8, at: usize) -> R<Slot> {
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
    fn array_fast(&mut self, at: usize, open: usize, limit: u64) -> Option<u32> {
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
    fn begin_array(&mut self, dense: bool, at: usize) -> R<u32> {
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
    fn begin_object(&mut self, at: usize) -> R<u32> {
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
    fn props_fast(&mut self, me: usize, st: &mut ObjState, to_scratch: bool, limit: u64) -> Fast {
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
    fn object_run(&mut self, me: usize, st: &mut ArrState) -> usize {
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
    fn string_run(&mut self, me: usize, st: &mut ArrState) -> usize {
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
    fn maybe_view(&mut self, obj: u32) -> R<Slot> {
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
    fn read_host_object(&mut self, at: usize) -> R<Slot> {
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

    // ---- containers ---------------------------------------------------------------------------

    /// SC-D-12
    fn fill_object(&mut self, me: usize) -> R<Fill> {
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
    fn finish_object(&mut self, me: usize, st: &ObjState) {
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
    fn shape_hit(&mut self, level: usize, k: u32, at: usize) -> bool {
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
    fn object_key(&mut self, me: usize, st: &mut ObjState, at: usize) -> R<()> {
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
    fn is_duplicate(&mut self, me: usize, prefix: (u32, u32), keys_from: u32, key: Slot) -> bool {
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
    fn sort_index_keys(&mut self, props: Props) {
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
    fn fill_array(&mut self, me: usize) -> R<Fill> {
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

    fn fill_array_in(
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
    fn fill_map(&mut self, me: usize) -> R<Fill> {
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
    fn fill_set(&mut self, me: usize) -> R<Fill> {
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
    fn fill_error(&mut self, me: usize) -> R<Fill> {
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
    fn map_set(
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
    fn set_add(&self, values: &mut Vec<Slot>, index: &mut Index, read: &mut u32, v: Slot) {
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

    fn same_value_zero(&self, a: Slot, b: Slot) -> bool {
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

    fn bigint(&self, s: Slot) -> (bool, &'a [u8]) {
        let Slot::BigInt { negative, len, at } = s else {
            return (false, &[]);
        };
        let m = &self.buf[at..at + len as usize];
        let n = m.len() - m.iter().rev().take_while(|&&b| b == 0).count();
        (negative && n > 0, &m[..n])
    }

    fn hash_value(&self, v: Slot) -> u64 {
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

/// The loop of [`Dec::object_run`], on its own so that the arenas' lengths stay in registers.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn object_run<const NARROW: bool>(
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
fn flat_object<const NARROW: bool>(
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
fn learn_key(enc: &mut Vec<EncKey>, k: usize, at: usize, end: usize, index: bool) {
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
fn prepare(ek: &mut EncKey, buf: &[u8]) {
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
fn name_bit(buf: &[u8], at: usize, n: usize) -> u64 {
    let first = match buf.get(at) {
        Some(&b) if n > 0 => b as usize,
        _ => 0,
    };
    1u64 << ((first + n * 8) & 63)
}

/// One of `keys` names the one-byte string `buf[at..at + n]`.
#[inline(never)]
fn any_names(buf: &[u8], keys: &[Slot], at: usize, n: usize) -> bool {
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

/// A key or string slot as the string it names.
pub(crate) fn slot_str(buf: &[u8], s: Slot) -> crate::borrowed::Str<'_> {
    use crate::borrowed::Str;
    let bytes = |at: usize, len: u32| buf.get(at..at + len as usize).unwrap_or(&[]);
    match s {
        Slot::Latin1 { len, at } => Str::Latin1(bytes(at, len)),
        Slot::Utf16 { len, at } => Str::Utf16Le(bytes(at, len)),
        Slot::Utf8 { len, at } => Str::Utf8(std::str::from_utf8(bytes(at, len)).unwrap_or("")),
        Slot::Int(n) => Str::Int(n),
        _ => Str::Latin1(&[]),
    }
}

/// `t` is `T` (0x54) or `F` (0x46), decided without a branch on which: random booleans would
/// mispredict one. They differ from each other in bits 4 and 1, and from `D` (0x44) and `V` (0x56),
/// the only other bytes that agree with them outside those bits, in having exactly one of them.
/// (`T` is the one with bit 4.)
#[inline(always)]
fn is_bool_tag(t: u8) -> bool {
    (t & !0x12 == 0x44) & (((t >> 4) ^ (t >> 1)) & 1 == 1)
}

#[allow(clippy::redundant_guards)]
fn normalize_zero(v: Slot) -> Slot {
    match v {
        Slot::Number(n) if n == 0.0 => Slot::Number(0.0),
        v => v,
    }
}

#[inline]
fn span(start: usize, end: usize) -> Span {
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
        assert!(std::mem::size_of::<super::Frame>() <= 96);
    }
}
