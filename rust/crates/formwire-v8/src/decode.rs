//! The decoder: V8 ValueSerializer bytes (versions 13..=15, raw and Node dialects) to a [`Graph`].
//!
//! Nesting is handled with an explicit stack of frames, so the decoder never recurses and its depth is
//! bounded by `max_depth` (SC_LIMIT_DEPTH). Every length is checked against the bytes left before
//! anything is reserved for it.
//!
//! Speed notes (the layout is what makes small objects cheap):
//! - Properties and array elements go to the heap's two arenas, not to a vector per object. An open
//!   container writes its entries straight at the tail of an arena while it is the only one writing
//!   there (the common case: flat objects, arrays of flat objects): it is the arena's *owner*. When a
//!   nested container starts writing to the same arena, the owner's entries so far move once to a
//!   scratch stack and it continues there; at its end they move back to the arena as one run. So
//!   every entry is moved at most twice, and nothing is allocated per object. Where an open container's
//!   entries are is decoder state (owner, and per nesting level the start of its scratch part), not
//!   frame state, so a nested object read inline can take the arena over from its parent.
//! - A plain object whose keys the shape cache knows and whose values are primitives is read by a
//!   tight loop without a frame ([`Decoder::object_fast`]); anything else continues in the general
//!   code from where the loop stopped.
//! - Property keys: each nesting level remembers the keys of the last object read at that level
//!   (their encoded bytes in the input). When the next object's key bytes equal the remembered key at
//!   the same position, the key is taken without decoding it and without the duplicate check (the
//!   remembered keys are distinct, and every key before it matched too): V8's `ReadExpectedString`.
//! - The heap is sized once from the input length.

use crate::bigint::BigInt;
use crate::error::{Error, ErrorCode};
use crate::string::JsString;
use crate::tags::*;
use crate::value::{
    Array, ArrayBuffer, ErrorName, ErrorObject, Graph, Heap, Item, ObjId, Object, Props,
    RegExpFlags, Span, Value, View, ViewKind, push_in, span_of,
};
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Decoder limits (`spec/limits.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Deepest container nesting accepted (`max_depth`, default 1000; `u32::MAX` = unlimited).
    pub max_depth: u32,
    /// Longest input accepted (`max_bytes`, default 256 MiB; `u64::MAX` = unlimited).
    pub max_bytes: u64,
    /// Read `\` host objects as Node's child_process `serialization: 'advanced'` writes them (`node_ipc`):
    /// a sub-tag varint first, 0 = a Node view, 1 = a plain object follows. Default `false`.
    pub node_ipc: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            max_depth: 1000,
            max_bytes: 256 * 1024 * 1024,
            node_ipc: false,
        }
    }
}

/// Decodes one value with the default limits.
pub fn decode(input: &[u8]) -> Result<Graph, Error> {
    decode_with(input, &DecodeOptions::default())
}

/// Decodes one value with the given limits.
pub fn decode_with(input: &[u8], options: &DecodeOptions) -> Result<Graph, Error> {
    // SC-L-01
    if input.len() as u64 > options.max_bytes {
        return Err(Error::new(
            ErrorCode::LimitBytes,
            0,
            "input longer than max_bytes",
        ));
    }
    if let Some(root) = primitive_root(input) {
        return Ok(Graph::primitive(root));
    }
    decode_general(input, options)
}

/// SC-D-03/07: the whole input is a header and one primitive (no padding, nothing after it),
/// read without a decoder; `None` for anything else, which the decoder proper reads and reports.
#[inline]
fn primitive_root(input: &[u8]) -> Option<Value> {
    let [TAG_VERSION, v, tag, ..] = *input else {
        return None;
    };
    if !(13..=15).contains(&v) {
        return None;
    }
    let (value, end) = match tag {
        TAG_ONE_BYTE_STRING => {
            let (n, s) = match input.get(3) {
                Some(&n) if n < 0x80 => (usize::from(n), 4),
                _ => varint_at(input, 3).map(|(n, s)| (n as usize, s))?,
            };
            let end = s.checked_add(n)?;
            let bytes = input.get(s..end)?;
            (Value::String(JsString::from_latin1_slice(bytes)), end)
        }
        TAG_INT32 => {
            let (z, e) = varint_at(input, 3)?;
            (Value::Number(f64::from(zigzag(z))), e)
        }
        TAG_DOUBLE => {
            let b: [u8; 8] = input.get(3..11)?.try_into().ok()?;
            let v = f64::from_le_bytes(b);
            (Value::Number(if v.is_nan() { f64::NAN } else { v }), 11)
        }
        TAG_TRUE => (Value::Bool(true), 3),
        TAG_FALSE => (Value::Bool(false), 3),
        TAG_UNDEFINED => (Value::Undefined, 3),
        TAG_NULL => (Value::Null, 3),
        _ => return None,
    };
    (end == input.len()).then_some(value)
}

/// Everything but a top-level primitive.
#[inline(never)]
fn decode_general(input: &[u8], options: &DecodeOptions) -> Result<Graph, Error> {
    let mut d = Decoder::new(input, options, false);
    let first = d.run();
    match first {
        Ok(g) => Ok(g),
        Err(e) => {
            // SC-D-23: V8's retry for data labelled 13 that was written with view flags
            // (crbug.com/1284506). The first error stands when the retry fails too.
            if d.version == 13 && e.code != ErrorCode::LimitDepth && e.code != ErrorCode::LimitBytes
            {
                let mut retry = Decoder::new(input, options, true);
                if let Ok(g) = retry.run() {
                    return Ok(g);
                }
            }
            Err(e)
        }
    }
}

/// An open plain object.
#[derive(Clone, Copy)]
struct ObjState {
    obj: ObjId,
    /// Properties read so far.
    count: u32,
    /// The first `matched` keys are the shape cache's (at `prefix_at` in the heap's key arena); the
    /// others are on the key stack from `keys_from`.
    matched: u32,
    prefix_at: u32,
    keys_from: u32,
    /// A key is an array index: the properties are sorted into enumeration order at the end.
    has_index: bool,
}

/// An open array.
#[derive(Clone, Copy)]
struct ArrState {
    obj: ObjId,
    dense: bool,
    length: u32,
    /// The next dense index.
    next: u32,
    /// Past the dense elements (always, for a sparse array).
    in_props: bool,
    /// Key/value pairs read after the dense elements (the end tag's property count).
    count: u32,
    /// Other properties: their keys are on the key stack from `keys_from`.
    props: u32,
    keys_from: u32,
}

/// An open container. All of them sit on `Decoder::stack`; the top one is being filled. Frames are
/// addressed by their stack index, which is also the nesting level of the shape cache.
enum Frame {
    Object(ObjState, Index),
    Array(ArrState, Index),
    Map {
        obj: ObjId,
        entries: Vec<(Value, Value)>,
        index: Index,
        read: u32,
        key: Option<Value>,
    },
    Set {
        obj: ObjId,
        values: Vec<Value>,
        index: Index,
        read: u32,
    },
    Error {
        obj: ObjId,
        err: Option<Box<ErrorObject>>,
        /// Subtag kinds seen so far: bit 0 prototype, 1 message, 2 stack, 3 cause (SC-D-24).
        seen: u8,
    },
}

/// What filling the top container ended with: a child container opened (now on top of the stack),
/// or the container finished (its object written to the heap; the driver pops it).
enum Fill {
    Open,
    Done,
}

/// The shape cache of one nesting level: the keys of the last object read there.
///
/// `enc[i]` is the encoding of key `i` (`input[at..at + len]`, its first bytes also as a masked word
/// for a one-load compare), and `heap.keys[keys_at + i]` the key itself, for every `i < enc.len()`
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

/// The fast object loop's input window.
const WINDOW: usize = 64;
/// Longest string the fast object loop reads (one that is stored inline).
const INLINE_MAX: usize = crate::string::INLINE;

/// `LATIN1_MASKS[n]`: masks keeping the first `n` bytes of three consecutive 8-byte words.
const LATIN1_MASKS: [[u64; 3]; INLINE_MAX + 1] = {
    let mut t = [[0u64; 3]; INLINE_MAX + 1];
    let mut n = 0;
    while n <= INLINE_MAX {
        let mut i = 0;
        while i < 3 {
            let from = i * 8;
            t[n][i] = if n <= from {
                0
            } else if n >= from + 8 {
                u64::MAX
            } else {
                (1u64 << (8 * (n - from))) - 1
            };
            i += 1;
        }
        n += 1;
    }
    t
};

/// No frame (arena owner).
const NONE: usize = usize::MAX;
/// No scratch part.
const NONE32: u32 = u32::MAX;

struct Decoder<'a> {
    buf: &'a [u8],
    pos: usize,
    version: u32,
    broken_v13: bool,
    node_ipc: bool,
    max_depth: usize,
    heap: Heap,
    /// Wire ids equal heap ids until a host object breaks the correspondence; `ids` is filled then.
    ids_direct: bool,
    /// Wire id to heap id (when not `ids_direct`); `None` while an id is assigned but its object is
    /// not readable yet.
    ids: Vec<Option<ObjId>>,
    /// Open containers (SC-D-29: their number is the nesting depth).
    stack: Vec<Frame>,
    /// The value arena's owner (a nesting level, or `NONE`): its values are `values[values_from..]`.
    values_owner: usize,
    values_from: usize,
    /// The same for the element arena.
    items_owner: usize,
    items_from: usize,
    /// Entries of open containers that had to leave the arena tail to a nested container.
    scratch_values: Vec<Value>,
    scratch_items: Vec<Item>,
    /// Per nesting level: where that level's open container's part of the scratch stacks starts
    /// (values, elements), `NONE32` while it has none.
    scratch_at: Vec<(u32, u32)>,
    /// Keys of open containers not taken from the shape cache (each container's run ends before
    /// the enclosing one continues, so this is a stack).
    key_stack: Vec<JsString>,
    /// Per nesting level, the keys of the last object read there.
    shapes: Vec<Shape>,
}

type R<T> = Result<T, Error>;

impl<'a> Decoder<'a> {
    fn new(buf: &'a [u8], options: &DecodeOptions, broken_v13: bool) -> Decoder<'a> {
        // One allocation per arena, sized from the input when the top-level value is a container
        // (typical objects take 8-40 bytes, properties and elements 3-12), capped: the arenas grow
        // as needed anyway.
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
        let heap = if container {
            let n = buf.len().min(1 << 20);
            Heap::with_capacities(n / 16 + 1, n / 6, n / 8)
        } else {
            Heap::new()
        };
        Decoder {
            buf,
            pos: 0,
            version: 0,
            broken_v13,
            node_ipc: options.node_ipc,
            max_depth: options.max_depth as usize,
            heap,
            ids_direct: true,
            ids: Vec::new(),
            stack: Vec::new(),
            values_owner: NONE,
            values_from: 0,
            items_owner: NONE,
            items_from: 0,
            scratch_values: Vec::new(),
            scratch_items: Vec::new(),
            scratch_at: Vec::new(),
            key_stack: Vec::new(),
            shapes: Vec::new(),
        }
    }

    // ---- errors -------------------------------------------------------------------------------

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

    // ---- primitives ---------------------------------------------------------------------------

    fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// SC-D-06: skips `00` padding.
    #[inline]
    fn skip_padding(&mut self) {
        while self.buf.get(self.pos) == Some(&TAG_PADDING) {
            self.pos += 1;
        }
    }

    /// SC-D-06: before a value, padding and `?` verify-count prefixes are skipped. Returns the value's
    /// tag and its offset, with the position just after the tag.
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

    /// The next byte after padding, without consuming it (for end tags and holes).
    #[inline]
    fn peek_after_padding(&mut self) -> R<(u8, usize)> {
        self.skip_padding();
        match self.buf.get(self.pos) {
            Some(&b) => Ok((b, self.pos)),
            None => Err(self.truncated()),
        }
    }

    /// SC-D-04: an unsigned LEB128 varint of at most 5 bytes whose last byte carries no bit above 32.
    #[inline]
    fn read_u32(&mut self) -> R<u32> {
        // Fast path: one byte.
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

    /// SC-D-04: a varint read into a byte: at most 2 bytes, the second carrying at most one bit.
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
        // V8 canonicalises every NaN to the quiet NaN on read.
        Ok(if v.is_nan() { f64::NAN } else { v })
    }

    /// SC-D-05: a length is checked against the bytes left before anything is allocated.
    #[inline]
    fn read_raw(&mut self, n: usize) -> R<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.truncated());
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// SC-D-09: bitfield (bit 0 sign, bits 1-30 byte length) then little-endian digits; `-0n` is refused.
    fn read_bigint(&mut self, tag_pos: usize) -> R<BigInt> {
        let bitfield = self.read_u32()?;
        let negative = bitfield & 1 == 1;
        let byte_len = ((bitfield >> 1) & 0x3FFF_FFFF) as usize;
        let bytes = self.read_raw(byte_len)?;
        if byte_len == 0 && negative {
            return Err(self.err(
                ErrorCode::Tag,
                tag_pos,
                "BigInt with a sign and no digits (-0n)",
            ));
        }
        Ok(BigInt::from_slice(negative, bytes))
    }

    /// SC-D-10: the payload of a string tag read at `tag_pos`.
    #[inline]
    fn read_string_payload(&mut self, tag: u8, tag_pos: usize) -> R<JsString> {
        let len = self.read_u32()? as usize;
        if tag == TAG_ONE_BYTE_STRING {
            if len > self.remaining() {
                return Err(self.truncated());
            }
            let start = self.pos;
            self.pos += len;
            return Ok(JsString::latin1_at(self.buf, start, len));
        }
        self.read_other_string(tag, tag_pos, len)
    }

    /// SC-D-10: `c` (UTF-16LE) and `S` (UTF-8) payloads of `len` bytes (an odd `c` length is SC_STRING
    /// before the length is checked against the input).
    fn read_other_string(&mut self, tag: u8, tag_pos: usize, len: usize) -> R<JsString> {
        if tag == TAG_TWO_BYTE_STRING && len % 2 != 0 {
            return Err(self.err(
                ErrorCode::String,
                tag_pos,
                "two-byte string with an odd byte length",
            ));
        }
        let bytes = self.read_raw(len)?;
        if tag == TAG_TWO_BYTE_STRING {
            return Ok(JsString::from_utf16(
                bytes
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect(),
            ));
        }
        match std::str::from_utf8(bytes) {
            Ok(s) if s.is_ascii() => Ok(JsString::from_latin1_slice(bytes)),
            Ok(s) => Ok(JsString::from_str(s)),
            Err(_) => Err(self.err(ErrorCode::String, tag_pos, "`S` string is not valid UTF-8")),
        }
    }

    /// SC-D-11: a value that must be a string (RegExp source, String object, Error message and stack).
    fn read_string_value(&mut self) -> R<JsString> {
        let (tag, at) = self.value_tag()?;
        match tag {
            TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                self.read_string_payload(tag, at)
            }
            _ => Err(self.err(ErrorCode::Tag, at, "a string is required here")),
        }
    }

    /// SC-D-12/13: a property key, a string or a number, as the JS property name; with its array
    /// index, if it is one, and the key's tag offset.
    fn read_key(&mut self) -> R<(JsString, Option<u32>, usize)> {
        let (tag, at) = self.value_tag()?;
        let n: i64 = match tag {
            TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                let key = self.read_string_payload(tag, at)?;
                let index = key.as_array_index();
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
        let (digits, len) = crate::string::digits(n);
        let key = JsString::from_latin1_slice(&digits[20 - len..]);
        let index = if (0..=0xFFFF_FFFE).contains(&n) {
            Some(n as u32)
        } else {
            None
        };
        Ok((key, index, at))
    }

    // ---- ids ----------------------------------------------------------------------------------

    /// Allocates an object and assigns it the next wire id (readable at once).
    #[inline]
    fn new_object(&mut self, object: Object) -> ObjId {
        let obj = self.heap.alloc(object);
        if !self.ids_direct {
            self.ids.push(Some(obj));
        }
        obj
    }

    /// The heap object a wire id names, if it is assigned and readable.
    #[inline]
    fn wire_object(&self, id: u32) -> Option<ObjId> {
        if self.ids_direct {
            ((id as usize) < self.heap.len()).then_some(ObjId(id))
        } else {
            self.ids.get(id as usize).copied().flatten()
        }
    }

    /// Wire ids stop being heap ids (host objects): the mapping becomes explicit.
    fn ids_explicit(&mut self) {
        if self.ids_direct {
            self.ids_direct = false;
            self.ids = (0..self.heap.len() as u32)
                .map(|i| Some(ObjId(i)))
                .collect();
        }
    }

    /// SC-D-29: a container may open at level `open + 1` only when that is within `max_depth`.
    #[inline]
    fn check_depth(&self, tag_pos: usize) -> R<()> {
        if self.stack.len() >= self.max_depth {
            return Err(self.err(
                ErrorCode::LimitDepth,
                tag_pos,
                "nesting deeper than max_depth",
            ));
        }
        Ok(())
    }

    // ---- arenas -------------------------------------------------------------------------------

    /// A container opens at level `me`: it has no scratch part yet.
    #[inline]
    fn open_level(&mut self, me: usize) {
        if self.scratch_at.len() <= me {
            self.scratch_at.resize(me + 1, (NONE32, NONE32));
        } else {
            self.scratch_at[me] = (NONE32, NONE32);
        }
    }

    /// Where the container at level `me` (the innermost open one) appends its next property
    /// value: the arena tail (claimed if need be) or its part of the scratch stack. Callers build the
    /// value in the push (`push_in(self.values_to(me), ..)`), after any claim, so it is built in place.
    #[inline(always)]
    fn values_to(&mut self, me: usize) -> &mut Vec<Value> {
        if self.values_owner != me {
            if self.scratch_at[me].0 != NONE32 {
                return &mut self.scratch_values;
            }
            self.claim_values(me);
        }
        self.heap.values_vec()
    }

    /// Level `me` starts writing at the tail of the value arena. The owner so far (an enclosing
    /// container: a container with a scratch part never owns again, so it has none) moves its values
    /// to the top of the scratch stack, which is where its part starts from now on.
    #[inline]
    fn claim_values(&mut self, me: usize) {
        let owner = self.values_owner;
        // An owner that wrote nothing yet just gives the arena up.
        if owner != NONE && owner != me && self.values_from < self.heap.arena_lens().1 {
            self.demote_values(owner);
        }
        self.values_owner = me;
        self.values_from = self.heap.arena_lens().1;
    }

    #[inline(never)]
    fn demote_values(&mut self, owner: usize) {
        let from = self.values_from;
        self.scratch_at[owner].0 = self.scratch_values.len() as u32;
        let Decoder {
            heap,
            scratch_values,
            ..
        } = self;
        scratch_values.extend(heap.values_vec().drain(from..));
    }

    /// Sets the last property value of the container at level `me`, pushed before the value was
    /// read: it is still last where that container's values are now (the arena tail when it still
    /// owns the arena, else the top of the scratch stack: nested containers have no scratch part
    /// while they are open).
    #[inline]
    fn set_last_value(&mut self, me: usize, v: Value) {
        let last = if self.values_owner == me {
            self.heap.values_vec().last_mut()
        } else {
            self.scratch_values.last_mut()
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
        match self.scratch_at[me].0 {
            NONE32 => self.heap.arena_lens().1 as u32,
            at => {
                // Nobody owns the arena now (the owner, if any, was nested in this container).
                let start = self.heap.arena_lens().1;
                let Decoder {
                    heap,
                    scratch_values,
                    ..
                } = self;
                heap.values_vec()
                    .extend(scratch_values.drain(at as usize..));
                start as u32
            }
        }
    }

    /// Stores the key list of a container that ends: the `prefix` keys at `prefix_at` then the ones on
    /// the key stack from `keys_from`. Returns where it starts in the key arena.
    fn close_keys(&mut self, prefix_at: u32, prefix: u32, keys_from: u32) -> u32 {
        let Decoder {
            heap, key_stack, ..
        } = self;
        let keys = heap.keys_vec();
        let start = keys.len();
        for i in 0..prefix as usize {
            let k = keys[prefix_at as usize + i].clone();
            keys.push(k);
        }
        keys.extend(key_stack.drain(keys_from as usize..));
        start as u32
    }

    /// Where the array at level `me` (the innermost open container) appends its next element
    /// (indexes ascending: dense arrays); see [`Decoder::values_to`].
    #[inline(always)]
    fn items_to(&mut self, me: usize) -> &mut Vec<Item> {
        if self.items_owner != me {
            if self.scratch_at[me].1 != NONE32 {
                return &mut self.scratch_items;
            }
            self.claim_items(me);
        }
        self.heap.items_vec()
    }

    /// Inserts an element at position `p` of the elements of the array at level `me` (sparse arrays
    /// keep indexes sorted).
    fn insert_item(&mut self, me: usize, p: usize, it: Item) {
        if self.items_owner != me {
            let at = self.scratch_at[me].1;
            if at != NONE32 {
                self.scratch_items.insert(at as usize + p, it);
                return;
            }
            self.claim_items(me);
        }
        let at = self.items_from + p;
        self.heap.items_vec().insert(at, it);
    }

    fn claim_items(&mut self, me: usize) {
        let owner = self.items_owner;
        let from = self.items_from;
        if owner != NONE && owner != me && from < self.heap.arena_lens().2 {
            self.scratch_at[owner].1 = self.scratch_items.len() as u32;
            let Decoder {
                heap,
                scratch_items,
                ..
            } = self;
            scratch_items.extend(heap.items_vec().drain(from..));
        }
        self.items_owner = me;
        self.items_from = self.heap.arena_lens().2;
    }

    /// The elements read so far by the array at level `me` (the innermost open container).
    fn own_items(&mut self, me: usize) -> &[Item] {
        if self.items_owner == me {
            let from = self.items_from;
            &self.heap.items_vec()[from..]
        } else {
            match self.scratch_at[me].1 {
                NONE32 => &[],
                at => &self.scratch_items[at as usize..],
            }
        }
    }

    /// The array at level `me` ends: its elements become one span of the arena.
    fn close_items(&mut self, me: usize) -> Span {
        if self.items_owner == me {
            self.items_owner = NONE;
            return span_of(self.items_from, self.heap.arena_lens().2);
        }
        match self.scratch_at[me].1 {
            NONE32 => Span::EMPTY,
            at => {
                let start = self.heap.arena_lens().2;
                let Decoder {
                    heap,
                    scratch_items,
                    ..
                } = self;
                heap.items_vec().extend(scratch_items.drain(at as usize..));
                span_of(start, heap.arena_lens().2)
            }
        }
    }

    // ---- shape cache ----

    /// Remembers key `k` of the object at level `level` (its encoding is `input[at..self.pos]`) for
    /// the next object there; only while the remembered keys before it are this object's, so they
    /// stay distinct. An index key ends the remembered list.
    fn shape_learn(&mut self, level: usize, k: u32, at: usize, index: bool) {
        if self.shapes.len() <= level {
            self.shapes.resize_with(level + 1, Shape::default);
        }
        let enc = &mut self.shapes[level].enc;
        let k = k as usize;
        if enc.len() < k {
            return;
        }
        enc.truncate(k);
        if !index && k < SHAPE_MAX {
            let len = self.pos - at;
            let mask = [mask(len), mask(len.saturating_sub(8))];
            enc.push(EncKey {
                at,
                len: len as u32,
                word: [
                    word_at(self.buf, at) & mask[0],
                    word_at(self.buf, at + 8) & mask[1],
                ],
                mask,
            });
        }
    }

    /// An object at level `level` with `count` keys, of which the first `matched` came from the
    /// shape cache and the rest sit on the key stack from `keys_from`, ends: its key list. A list the
    /// cache fully covers is shared; a new one is stored and becomes the level's cached list (unless
    /// its keys are reordered, `has_index`).
    fn object_keys(&mut self, level: usize, st: &ObjState) -> u32 {
        if st.matched == st.count {
            return if st.count == 0 { 0 } else { st.prefix_at };
        }
        let start = self.close_keys(st.prefix_at, st.matched, st.keys_from);
        if let Some(shape) = self.shapes.get_mut(level) {
            if st.has_index {
                // The sorted list is this object's own; the cache keeps its unchanged prefix.
                shape.enc.truncate(st.matched as usize);
            } else {
                shape.keys_at = start;
            }
        }
        start
    }

    // ---- driver -------------------------------------------------------------------------------

    fn run(&mut self) -> R<Graph> {
        self.read_header()?;
        let root = self.read_value()?;
        if !self.stack.is_empty() {
            self.drive()?;
        }
        // SC-D-28: only padding may follow the top-level value.
        self.skip_padding();
        if self.pos < self.buf.len() {
            return Err(self.err(ErrorCode::Tag, self.pos, "bytes after the top-level value"));
        }
        let heap = std::mem::take(&mut self.heap);
        Ok(Graph { heap, root })
    }

    /// Fills containers until the outermost one is done. Nothing here recurses: a container that
    /// opens inside another is filled by the next turn of this loop.
    fn drive(&mut self) -> R<()> {
        loop {
            let me = self.stack.len() - 1;
            let fill = match &self.stack[me] {
                Frame::Object(..) => self.fill_object(me)?,
                Frame::Array(..) => self.fill_array(me)?,
                Frame::Map { .. } => self.fill_map(me)?,
                Frame::Set { .. } => self.fill_set(me)?,
                Frame::Error { .. } => self.fill_error(me)?,
            };
            if let Fill::Done = fill {
                self.stack.pop();
                if self.stack.is_empty() {
                    return Ok(());
                }
            }
        }
    }

    /// SC-D-03: `FF` then a version varint in 13..=15.
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

    /// SC-D-07: one item at a value position. A container that opens is returned as its object, with
    /// its frame pushed on the stack (the caller sees the stack grow) to be filled next.
    #[inline]
    fn read_value(&mut self) -> R<Value> {
        let (tag, at) = self.value_tag()?;
        Ok(match tag {
            TAG_ONE_BYTE_STRING => {
                let len = self.read_u32()? as usize;
                if len > self.remaining() {
                    return Err(self.truncated());
                }
                let start = self.pos;
                self.pos += len;
                Value::String(JsString::latin1_at(self.buf, start, len))
            }
            TAG_INT32 => Value::Number(f64::from(zigzag(self.read_u32()?))),
            TAG_TRUE => Value::Bool(true),
            TAG_FALSE => Value::Bool(false),
            TAG_BEGIN_JS_OBJECT => {
                let obj = self.begin_object(at)?;
                Value::Object(obj)
            }
            TAG_UNDEFINED => Value::Undefined,
            TAG_NULL => Value::Null,
            TAG_DOUBLE => Value::Number(self.read_double()?),
            _ => return self.read_other_value(tag, at),
        })
    }

    /// SC-D-07: the less common tags.
    fn read_other_value(&mut self, tag: u8, at: usize) -> R<Value> {
        Ok(match tag {
            TAG_UINT32 => Value::Number(f64::from(self.read_u32()?)),
            TAG_BIGINT => Value::BigInt(self.read_bigint(at)?),
            TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                let len = self.read_u32()? as usize;
                Value::String(self.read_other_string(tag, at, len)?)
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
                // SC-D-14, SC-D-15
                self.check_depth(at)?;
                let dense = tag == TAG_BEGIN_DENSE_JS_ARRAY;
                let length = self.read_u32()?;
                // A dense array's length is checked against the bytes left (each element takes at least
                // one byte) before anything is reserved.
                if dense && length as usize > self.remaining() {
                    return Err(self.truncated());
                }
                let obj = self.new_object(Object::Array(Array::default()));
                let me = self.stack.len();
                self.open_level(me);
                self.stack.push(Frame::Array(
                    ArrState {
                        obj,
                        dense,
                        length,
                        next: 0,
                        in_props: !dense,
                        count: 0,
                        props: 0,
                        keys_from: self.key_stack.len() as u32,
                    },
                    Index::default(),
                ));
                Value::Object(obj)
            }
            TAG_DATE => {
                // SC-D-17: the time value goes through TimeClip.
                let t = time_clip(self.read_double()?);
                Value::Object(self.new_object(Object::Date(t)))
            }
            TAG_TRUE_OBJECT => Value::Object(self.new_object(Object::BooleanObject(true))),
            TAG_FALSE_OBJECT => Value::Object(self.new_object(Object::BooleanObject(false))),
            TAG_NUMBER_OBJECT => {
                let obj = self.new_object(Object::NumberObject(0.0));
                let n = self.read_double()?;
                self.heap.replace(obj, Object::NumberObject(n));
                Value::Object(obj)
            }
            TAG_BIGINT_OBJECT => {
                let obj = self.new_object(Object::BigIntObject(BigInt::zero()));
                let b = self.read_bigint(at)?;
                self.heap.replace(obj, Object::BigIntObject(b));
                Value::Object(obj)
            }
            TAG_STRING_OBJECT => {
                let obj = self.new_object(Object::StringObject(JsString::new()));
                let s = self.read_string_value()?;
                self.heap.replace(obj, Object::StringObject(s));
                Value::Object(obj)
            }
            TAG_REGEXP => {
                // SC-D-19
                let obj = self.new_object(Object::RegExp {
                    source: JsString::new(),
                    flags: RegExpFlags(0),
                });
                let source = self.read_string_value()?;
                let flags = self.read_u32()?;
                // The 9 known flag bits except `linear` (64); `u` and `v` are exclusive.
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
                self.heap.replace(
                    obj,
                    Object::RegExp {
                        source,
                        flags: RegExpFlags(flags),
                    },
                );
                Value::Object(obj)
            }
            TAG_BEGIN_JS_MAP => {
                // SC-D-20
                self.check_depth(at)?;
                let obj = self.new_object(Object::Map(Vec::new()));
                self.stack.push(Frame::Map {
                    obj,
                    entries: Vec::new(),
                    index: Index::default(),
                    read: 0,
                    key: None,
                });
                Value::Object(obj)
            }
            TAG_BEGIN_JS_SET => {
                self.check_depth(at)?;
                let obj = self.new_object(Object::Set(Vec::new()));
                self.stack.push(Frame::Set {
                    obj,
                    values: Vec::new(),
                    index: Index::default(),
                    read: 0,
                });
                Value::Object(obj)
            }
            TAG_ARRAY_BUFFER | TAG_RESIZABLE_ARRAY_BUFFER => {
                // SC-D-21
                let obj = self.new_object(Object::ArrayBuffer(ArrayBuffer {
                    data: Vec::new(),
                    max_byte_length: None,
                }));
                let byte_length = self.read_u32()?;
                let max_byte_length = if tag == TAG_RESIZABLE_ARRAY_BUFFER {
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
                let data = self.read_raw(byte_length as usize)?.to_vec();
                self.heap.replace(
                    obj,
                    Object::ArrayBuffer(ArrayBuffer {
                        data,
                        max_byte_length,
                    }),
                );
                self.maybe_view(obj)?
            }
            TAG_ERROR => {
                // SC-D-24
                self.check_depth(at)?;
                let empty = || {
                    Box::new(ErrorObject {
                        name: ErrorName::Error,
                        message: None,
                        stack: None,
                        cause: None,
                    })
                };
                let obj = self.new_object(Object::Error(empty()));
                self.stack.push(Frame::Error {
                    obj,
                    err: Some(empty()),
                    seen: 0,
                });
                Value::Object(obj)
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

    /// SC-D-12: an object whose `o` tag was at `at`. Read at once as far as the fast path goes (see
    /// [`Decoder::object_fast`]); the rest, if any, by [`Decoder::fill_object`] from a pushed frame.
    #[inline]
    fn begin_object(&mut self, at: usize) -> R<ObjId> {
        self.check_depth(at)?;
        // The id the object gets: the fast path allocates nothing before it stores the object.
        let obj = ObjId(self.heap.len() as u32);
        if let Some(st) = self.object_fast(obj)? {
            self.new_object(Object::Plain(Props::EMPTY));
            // From here on the object is a frame at this level: it has no scratch part yet.
            let me = self.stack.len();
            self.open_level(me);
            self.stack.push(Frame::Object(st, Index::default()));
        }
        Ok(obj)
    }

    /// The common case of SC-D-12 without a frame: keys the shape cache knows, primitive values, the
    /// end tag. Stops at the first thing it does not handle (a new key, a container value, padding,
    /// anything unusual) and returns the object's state so far for [`Decoder::fill_object`], which
    /// continues from exactly there (and reports any error). `None`: the object is complete.
    #[inline]
    fn object_fast(&mut self, obj: ObjId) -> R<Option<ObjState>> {
        // The frame index this object has (or would have): its shape cache level.
        let me = self.stack.len();
        self.claim_values(me);
        let Decoder {
            buf, heap, shapes, ..
        } = self;
        let buf: &[u8] = buf;
        let (enc, keys_at): (&[EncKey], u32) = match shapes.get(me) {
            Some(sh) => (&sh.enc, sh.keys_at),
            None => (&[], 0),
        };
        let values = heap.values_vec();
        let start = values.len();
        let mut pos = self.pos;
        let mut k = 0usize;
        // While 64 bytes of input are left, a property is read from a fixed-size window: offsets
        // into it are bounded by construction, so there is one bounds check per property. It handles
        // keys of up to 16 encoded bytes, one-byte strings of up to 22 units, small integers and the
        // oddballs; anything else (and the end tag) is left to the loop after it.
        while let Some(w) = buf.get(pos..pos + WINDOW) {
            let w: &[u8; WINDOW] = w.try_into().unwrap_or(&[0; WINDOW]);
            let Some(ek) = enc.get(k) else { break };
            let word = |i: usize| u64::from_le_bytes(w[i..i + 8].try_into().unwrap_or([0; 8]));
            if ek.len > 16
                || ((word(0) ^ ek.word[0]) & ek.mask[0]) | ((word(8) ^ ek.word[1]) & ek.mask[1])
                    != 0
            {
                break;
            }
            let v = (ek.len & 15) as usize; // ek.len <= 16: the value tag is within the window
            let v = if ek.len == 16 { 16 } else { v };
            match w[v] {
                TAG_ONE_BYTE_STRING => {
                    let n = w[v + 1] as usize;
                    if n > INLINE_MAX {
                        break;
                    }
                    let s = v + 2; // s + 24 <= 42 < WINDOW
                    let m = &LATIN1_MASKS[n];
                    push_in(
                        values,
                        Value::String(JsString::inline_words(
                            n,
                            word(s) & m[0],
                            word(s + 8) & m[1],
                            word(s + 16) & m[2],
                        )),
                    );
                    pos += s + n;
                }
                TAG_INT32 => {
                    let b0 = w[v + 1];
                    let (z, used) = if b0 < 0x80 {
                        (u32::from(b0), 2)
                    } else if w[v + 2] < 0x80 {
                        (u32::from(b0 & 0x7F) | (u32::from(w[v + 2]) << 7), 3)
                    } else {
                        break;
                    };
                    push_in(values, Value::Number(f64::from(zigzag(z))));
                    pos += v + used;
                }
                TAG_TRUE => {
                    push_in(values, Value::Bool(true));
                    pos += v + 1;
                }
                TAG_FALSE => {
                    push_in(values, Value::Bool(false));
                    pos += v + 1;
                }
                TAG_NULL => {
                    push_in(values, Value::Null);
                    pos += v + 1;
                }
                TAG_UNDEFINED => {
                    push_in(values, Value::Undefined);
                    pos += v + 1;
                }
                _ => break,
            }
            k += 1;
        }
        while let Some(&tag) = buf.get(pos) {
            if tag == TAG_END_JS_OBJECT {
                match varint_at(buf, pos + 1) {
                    Some((n, next)) if n as usize == k => {
                        pos = next;
                    }
                    Some(_) => {
                        return Err(Error::new(
                            ErrorCode::Count,
                            pos as u64,
                            "object property count does not match",
                        ));
                    }
                    None => break,
                }
                self.pos = pos;
                self.values_owner = NONE;
                let props = if k == 0 {
                    Props::EMPTY
                } else {
                    Props {
                        keys: keys_at,
                        values: start as u32,
                        len: k as u32,
                    }
                };
                let id = self.new_object(Object::Plain(props));
                debug_assert_eq!(id, obj);
                return Ok(None);
            }
            // SC-D-12/13: the key remembered at this position, byte for byte.
            let Some(ek) = enc.get(k) else { break };
            let len = ek.len as usize;
            if !key_matches(buf, ek, pos) {
                break;
            }
            let vpos = pos + len;
            // SC-D-07: a primitive value, written straight into the arena: `push_in` keeps the
            // capacity check ahead of the value (a value built on the stack first, to survive a
            // possible reallocation, and then copied in stalls on store forwarding).
            let Some(&vtag) = buf.get(vpos) else { break };
            let next = match vtag {
                TAG_ONE_BYTE_STRING => match varint_at(buf, vpos + 1) {
                    Some((n, s)) if n as usize <= buf.len() - s => {
                        let n = n as usize;
                        push_in(values, Value::String(JsString::new()));
                        if let Some(Value::String(js)) = values.last_mut() {
                            js.set_latin1_at(buf, s, n);
                        }
                        s + n
                    }
                    _ => break,
                },
                TAG_INT32 => match varint_at(buf, vpos + 1) {
                    Some((n, next)) => {
                        push_in(values, Value::Number(f64::from(zigzag(n))));
                        next
                    }
                    None => break,
                },
                TAG_TRUE => {
                    push_in(values, Value::Bool(true));
                    vpos + 1
                }
                TAG_FALSE => {
                    push_in(values, Value::Bool(false));
                    vpos + 1
                }
                TAG_UNDEFINED => {
                    push_in(values, Value::Undefined);
                    vpos + 1
                }
                TAG_NULL => {
                    push_in(values, Value::Null);
                    vpos + 1
                }
                TAG_DOUBLE => {
                    let Some(b) = buf.get(vpos + 1..vpos + 9) else {
                        break;
                    };
                    let v = f64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
                    push_in(values, Value::Number(if v.is_nan() { f64::NAN } else { v }));
                    vpos + 9
                }
                _ => break,
            };
            pos = next;
            k += 1;
        }
        self.pos = pos;
        if k == 0 {
            // Nothing written: the arena is not this object's until it writes.
            self.values_owner = NONE;
        }
        Ok(Some(ObjState {
            obj,
            count: k as u32,
            matched: k as u32,
            prefix_at: keys_at,
            keys_from: self.key_stack.len() as u32,
            has_index: false,
        }))
    }

    /// SC-D-22: a buffer-valued item followed (after padding only) by `V` becomes a view over it.
    fn maybe_view(&mut self, obj: ObjId) -> R<Value> {
        let (buffer_len, resizable) = match self.heap.get(obj) {
            Some(Object::ArrayBuffer(b)) => (b.data.len() as u64, b.max_byte_length.is_some()),
            _ => return Ok(Value::Object(obj)),
        };
        self.skip_padding();
        if self.buf.get(self.pos) != Some(&TAG_ARRAY_BUFFER_VIEW) {
            return Ok(Value::Object(obj));
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
        // SC-D-23: flags from version 14 on (and in the broken-v13 retry).
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
        // A length-tracking view is as long as its buffer allows (whole elements).
        let byte_length = if length_tracking {
            ((buffer_len as u32 - byte_offset) / size) * size
        } else {
            byte_length
        };
        let view = View {
            kind,
            buffer: obj,
            byte_offset,
            byte_length,
            length_tracking,
        };
        Ok(Value::Object(self.new_object(Object::View(view))))
    }

    /// SC-D-26/27: `\` host objects: Node's `v8.serialize` views, and with `node_ipc` the child_process
    /// sub-tag (0 = a view follows, 1 = a plain object follows).
    fn read_host_object(&mut self, at: usize) -> R<Value> {
        self.ids_explicit();
        if self.node_ipc {
            let sub = self.read_u32()?;
            if sub == 1 {
                // The host object takes an id, then the object takes its own; both name the object.
                self.ids.push(None);
                let host_id = self.ids.len() - 1;
                let (tag, tag_at) = self.value_tag()?;
                if tag != TAG_BEGIN_JS_OBJECT {
                    return Err(self.err(
                        ErrorCode::Host,
                        at,
                        "IPC host object sub-tag 1 must be followed by an object",
                    ));
                }
                let obj = self.begin_object(tag_at)?;
                self.ids[host_id] = Some(obj);
                return Ok(Value::Object(obj));
            }
            if sub != 0 {
                return Err(self.err(ErrorCode::Host, at, "unknown IPC host object sub-tag"));
            }
        }
        self.ids.push(None);
        let wire = self.ids.len() - 1;
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
        let buffer = self.heap.alloc(Object::ArrayBuffer(ArrayBuffer {
            data: data.to_vec(),
            max_byte_length: None,
        }));
        let view = View {
            kind,
            buffer,
            byte_offset: 0,
            byte_length,
            length_tracking: false,
        };
        let obj = self.heap.alloc(Object::View(view));
        self.ids[wire] = Some(obj);
        Ok(Value::Object(obj))
    }

    // ---- containers ---------------------------------------------------------------------------

    /// SC-D-12: reads properties into the object on top of the stack (frame `me`) until a child
    /// container opens or the object ends.
    fn fill_object(&mut self, me: usize) -> R<Fill> {
        let Frame::Object(st, _) = &self.stack[me] else {
            unreachable!("fill_object on another frame")
        };
        let mut st = *st;
        loop {
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
                let values = self.close_values(me);
                let keys = self.object_keys(me, &st);
                let props = Props {
                    keys,
                    values,
                    len: st.count,
                };
                if st.has_index {
                    self.sort_index_keys(props);
                }
                self.heap.replace(st.obj, Object::Plain(props));
                return Ok(Fill::Done);
            }
            let k = st.count;
            if st.matched == k && self.shape_hit(me, k, at) {
                st.matched += 1;
            } else {
                self.object_key(me, &mut st, at)?;
            }
            // The value's slot is in place before the value is read: an object value read inline
            // takes the arena over (moving this object's values to the scratch stack), and one that
            // continues in a frame is entered after this object's entries.
            push_in(self.values_to(me), Value::Undefined);
            st.count += 1;
            let v = self.read_value()?;
            self.set_last_value(me, v);
            if self.stack.len() > me + 1 {
                if let Frame::Object(s, _) = &mut self.stack[me] {
                    *s = st;
                }
                return Ok(Fill::Open);
            }
        }
    }

    /// The key at position `k` of the object at level `level` is the one the shape cache remembers
    /// there, byte for byte: the position moves past it.
    #[inline]
    fn shape_hit(&mut self, level: usize, k: u32, at: usize) -> bool {
        let Some(ek) = self.shapes.get(level).and_then(|s| s.enc.get(k as usize)) else {
            return false;
        };
        if !key_matches(self.buf, ek, at) {
            return false;
        }
        self.pos = at + ek.len as usize;
        true
    }

    /// SC-D-12/13: a key the shape cache did not have: read, checked against the object's keys so
    /// far (a repeat is SC_KEY), put on the key stack and remembered for the next object at this level.
    fn object_key(&mut self, me: usize, st: &mut ObjState, at: usize) -> R<()> {
        let k = st.count;
        self.pos = at;
        let (key, index, kat) = self.read_key()?;
        if self.is_duplicate(me, (st.prefix_at, st.matched), st.keys_from, &key) {
            return Err(self.err(ErrorCode::Key, kat, "duplicate property key"));
        }
        st.has_index |= index.is_some();
        self.shape_learn(me, k, at, index.is_some());
        self.key_stack.push(key);
        Ok(())
    }

    /// SC-D-12/14: `key` is already a key of the container at level `me`: one of the `prefix` keys at
    /// `prefix.0` in the key arena, or on the key stack from `keys_from`. The container's index
    /// remembers it when it is not.
    fn is_duplicate(
        &mut self,
        me: usize,
        prefix: (u32, u32),
        keys_from: u32,
        key: &JsString,
    ) -> bool {
        let mut idx = match &mut self.stack[me] {
            Frame::Object(_, idx) | Frame::Array(_, idx) => std::mem::take(idx),
            _ => unreachable!("only objects and arrays have properties"),
        };
        let Decoder {
            heap, key_stack, ..
        } = &mut *self;
        let a = prefix.0 as usize;
        let first: &[JsString] = &heap.keys_vec()[a..a + prefix.1 as usize];
        let rest: &[JsString] = &key_stack[keys_from as usize..];
        let at = |i: usize| {
            if i < first.len() {
                &first[i]
            } else {
                &rest[i - first.len()]
            }
        };
        let n = first.len() + rest.len();
        let found = idx.find(n, || hash_str(key), |i| at(i) == key).is_some();
        if !found {
            idx.insert(n, || hash_str(key), |i| hash_str(at(i)));
        }
        if let Frame::Object(_, slot) | Frame::Array(_, slot) = &mut self.stack[me] {
            *slot = idx;
        }
        found
    }

    /// JS property enumeration order for an object with index keys: array-index keys ascending,
    /// then the rest in insertion order. Its key list is its own (not shared), so it is reordered in
    /// place with the values.
    fn sort_index_keys(&mut self, props: Props) {
        let keys = self.heap.keys(props);
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by_key(|&i| match keys[i].as_array_index() {
            Some(n) => (0u8, n, 0),
            None => (1u8, 0, i),
        });
        let keys: Vec<JsString> = order.iter().map(|&i| keys[i].clone()).collect();
        let values = self.heap.values(props);
        let values: Vec<Value> = order.iter().map(|&i| values[i].clone()).collect();
        let kr = props.key_range();
        self.heap.keys_vec()[kr].clone_from_slice(&keys);
        self.heap.values_mut(props).clone_from_slice(&values);
    }

    /// SC-D-14/15: reads elements, then other properties, into the array on top of the stack.
    fn fill_array(&mut self, me: usize) -> R<Fill> {
        let Frame::Array(st, _) = &self.stack[me] else {
            unreachable!("fill_array on another frame")
        };
        let mut st = *st;
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
                continue;
            }
            let i = st.next;
            st.next += 1;
            // The common elements are built in place (a value returned from `read_value` and
            // then moved into the arena stalls on store forwarding).
            let buf = self.buf;
            match tag {
                TAG_BEGIN_JS_OBJECT => {
                    self.pos = at + 1;
                    let obj = self.begin_object(at)?;
                    push_in(self.items_to(me), (i, Value::Object(obj)));
                }
                TAG_INT32 if varint_at(buf, at + 1).is_some() => {
                    let (z, next) = varint_at(buf, at + 1).unwrap_or_default();
                    self.pos = next;
                    push_in(self.items_to(me), (i, Value::Number(f64::from(zigzag(z)))));
                }
                TAG_ONE_BYTE_STRING
                    if varint_at(buf, at + 1).is_some_and(|(n, s)| n as usize <= buf.len() - s) =>
                {
                    let (n, s) = varint_at(buf, at + 1).unwrap_or_default();
                    self.pos = s + n as usize;
                    let items = self.items_to(me);
                    push_in(items, (i, Value::String(JsString::new())));
                    if let Some((_, Value::String(js))) = items.last_mut() {
                        js.set_latin1_at(buf, s, n as usize);
                    }
                }
                TAG_TRUE | TAG_FALSE | TAG_NULL | TAG_UNDEFINED => {
                    self.pos = at + 1;
                    let v = match tag {
                        TAG_TRUE => Value::Bool(true),
                        TAG_FALSE => Value::Bool(false),
                        TAG_NULL => Value::Null,
                        _ => Value::Undefined,
                    };
                    push_in(self.items_to(me), (i, v));
                }
                _ => {
                    let v = self.read_value()?;
                    push_in(self.items_to(me), (i, v));
                }
            }
            if self.stack.len() > me + 1 {
                self.save_array(me, st);
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
                let items = self.close_items(me);
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
                // Defining an index at or past `length` grows the array, as in JS.
                let length = match self.heap.items(items).last() {
                    Some((i, _)) if *i >= st.length => i + 1,
                    _ => st.length,
                };
                self.heap.replace(
                    st.obj,
                    Object::Array(Array {
                        length,
                        items,
                        props,
                    }),
                );
                return Ok(Fill::Done);
            }
            let (key, index, kat) = self.read_key()?;
            st.count += 1;
            // SC-D-14: `length`, or a name already present, is SC_KEY.
            match index {
                Some(i) => {
                    let items = self.own_items(me);
                    let p = items.partition_point(|(j, _)| *j < i);
                    if items.get(p).is_some_and(|(j, _)| *j == i) {
                        return Err(self.err(ErrorCode::Key, kat, "duplicate array index"));
                    }
                    let v = self.read_value()?;
                    self.insert_item(me, p, (i, v));
                }
                None => {
                    let duplicate = key.eq_ascii(b"length")
                        || self.is_duplicate(me, (0, 0), st.keys_from, &key);
                    if duplicate {
                        return Err(self.err(ErrorCode::Key, kat, "duplicate property key"));
                    }
                    self.key_stack.push(key);
                    push_in(self.values_to(me), Value::Undefined);
                    st.props += 1;
                    let v = self.read_value()?;
                    self.set_last_value(me, v);
                }
            }
            if self.stack.len() > me + 1 {
                self.save_array(me, st);
                return Ok(Fill::Open);
            }
        }
    }

    fn save_array(&mut self, me: usize, st: ArrState) {
        if let Frame::Array(s, _) = &mut self.stack[me] {
            *s = st;
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
        } = &mut self.stack[me]
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
                    self.heap
                        .replace(obj, Object::Map(std::mem::take(&mut entries)));
                    break Fill::Done;
                }
                key = Some(self.read_value()?);
                if self.stack.len() > me + 1 {
                    break Fill::Open;
                }
            }
            let v = self.read_value()?;
            let k = key.take().expect("map key");
            map_set(&mut entries, &mut index, &mut read, k, v);
            if self.stack.len() > me + 1 {
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
            } = &mut self.stack[me]
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
        } = &mut self.stack[me]
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
                self.heap
                    .replace(obj, Object::Set(std::mem::take(&mut values)));
                break Fill::Done;
            }
            let v = self.read_value()?;
            set_add(&mut values, &mut index, &mut read, v);
            if self.stack.len() > me + 1 {
                break Fill::Open;
            }
        };
        if let Fill::Open = result {
            if let Frame::Set {
                values: v,
                index: i,
                read: r,
                ..
            } = &mut self.stack[me]
            {
                *v = values;
                *i = index;
                *r = read;
            }
        }
        Ok(result)
    }

    /// SC-D-24: Error subtags until `.`: at most one prototype, message, stack and cause each.
    fn fill_error(&mut self, me: usize) -> R<Fill> {
        let Frame::Error { obj, err, seen } = &mut self.stack[me] else {
            unreachable!("fill_error on another frame")
        };
        let obj = *obj;
        let mut seen = *seen;
        let Some(mut err) = err.take() else {
            unreachable!("an open Error frame holds its error")
        };
        loop {
            let sub_at = self.pos;
            let sub = self.read_u8()?;
            if sub == ERROR_END {
                self.heap.replace(obj, Object::Error(err));
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
                ERROR_MESSAGE => err.message = Some(self.read_string_value()?),
                ERROR_STACK => err.stack = Some(self.read_string_value()?),
                ERROR_CAUSE => {
                    err.cause = Some(self.read_value()?);
                    if self.stack.len() > me + 1 {
                        if let Frame::Error {
                            err: e, seen: s, ..
                        } = &mut self.stack[me]
                        {
                            *e = Some(err);
                            *s = seen;
                        }
                        return Ok(Fill::Open);
                    }
                }
                _ => {
                    if let Some(name) = proto {
                        err.name = name;
                    }
                }
            }
        }
    }
}

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

/// SC-D-20: `Map.prototype.set`: -0 becomes +0; an existing key keeps its place and takes the value.
fn map_set(
    entries: &mut Vec<(Value, Value)>,
    index: &mut Index,
    read: &mut u32,
    k: Value,
    v: Value,
) {
    *read += 1;
    let k = normalize_zero(k);
    match index.find(
        entries.len(),
        || hash_value(&k),
        |i| same_value_zero(&entries[i].0, &k),
    ) {
        Some(i) => entries[i].1 = v,
        None => {
            index.insert(
                entries.len(),
                || hash_value(&k),
                |i| hash_value(&entries[i].0),
            );
            entries.push((k, v));
        }
    }
}

/// SC-D-20: `Set.prototype.add`: a repeat is dropped.
fn set_add(values: &mut Vec<Value>, index: &mut Index, read: &mut u32, v: Value) {
    *read += 1;
    let v = normalize_zero(v);
    if index
        .find(
            values.len(),
            || hash_value(&v),
            |i| same_value_zero(&values[i], &v),
        )
        .is_none()
    {
        index.insert(values.len(), || hash_value(&v), |i| hash_value(&values[i]));
        values.push(v);
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

#[allow(clippy::redundant_guards)]
fn normalize_zero(v: Value) -> Value {
    match v {
        Value::Number(n) if n == 0.0 => Value::Number(0.0),
        v => v,
    }
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

fn hash_str(s: &JsString) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

fn hash_value(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    match v {
        Value::Undefined => 0u8.hash(&mut h),
        Value::Null => 1u8.hash(&mut h),
        Value::Bool(b) => (2u8, *b).hash(&mut h),
        Value::Number(n) => {
            let bits = if n.is_nan() {
                f64::NAN.to_bits()
            } else if *n == 0.0 {
                0
            } else {
                n.to_bits()
            };
            (3u8, bits).hash(&mut h)
        }
        Value::BigInt(b) => (4u8, b).hash(&mut h),
        Value::String(s) => (5u8, s).hash(&mut h),
        Value::Object(o) => (6u8, o).hash(&mut h),
    }
    h.finish()
}

fn same_value_zero(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    }
}
#[cfg(test)]
mod size_tests {
    /// Frames move on every container open and close, objects live in the heap: keep them small.
    #[test]
    fn hot_types_stay_small() {
        assert!(std::mem::size_of::<super::Frame>() <= 80);
        assert!(std::mem::size_of::<crate::Object>() <= 40);
        assert!(std::mem::size_of::<crate::Value>() <= 24);
        assert!(std::mem::size_of::<crate::JsString>() <= 24);
        assert!(std::mem::size_of::<crate::Prop>() <= 48);
        assert!(std::mem::size_of::<crate::Props>() <= 12);
    }
}
