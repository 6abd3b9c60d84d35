//! The decoder: V8 ValueSerializer bytes (versions 13..=15, raw and Node dialects) to a [`Graph`].
//!
//! Nesting is handled with an explicit stack of frames, so the decoder never recurses and its depth is
//! bounded by `max_depth` (SC_LIMIT_DEPTH). Every length is checked against the bytes left before
//! anything is reserved for it.

use crate::bigint::BigInt;
use crate::error::{Error, ErrorCode};
use crate::string::JsString;
use crate::tags::*;
use crate::value::{
    Array, ArrayBuffer, ErrorName, ErrorObject, Graph, Heap, ObjId, Object, RegExpFlags, Value,
    View, ViewKind,
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

/// A property key read for an object or array, waiting for its value.
struct PendingKey {
    key: JsString,
    /// The array index the key names, if it is one.
    index: Option<u32>,
}

/// An open container. The one being filled is held by the driver; the others wait on `Decoder::stack`.
enum Frame {
    Object {
        obj: ObjId,
        props: Vec<(JsString, Value)>,
        /// The last property's value is a container still being read.
        pending: bool,
        has_index: bool,
        index: Index,
    },
    Array {
        obj: ObjId,
        dense: bool,
        length: u32,
        next: u32,
        in_props: bool,
        items: Vec<(u32, Value)>,
        props: Vec<(JsString, Value)>,
        count: u32,
        /// Where the value of a container still being read goes.
        pending: Slot,
        index: Index,
    },
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
        err: Box<ErrorObject>,
        /// Subtag kinds seen so far: bit 0 prototype, 1 message, 2 stack, 3 cause (SC-D-24).
        seen: u8,
    },
}

/// The place a child container's value is delivered to.
#[derive(Clone, Copy)]
enum Slot {
    None,
    Item(usize),
    Prop,
}

/// One item read at a value position: a finished value, or a container that was opened (its frame
/// is then on top of `Decoder::stack`). Kept small: it is returned for every value.
enum Item {
    Value(Value),
    Open(ObjId),
}

/// What filling a container ended with: a child container opened (on top of the stack), or the
/// container finished.
enum Fill {
    Open,
    Done(ObjId),
}

struct Decoder<'a> {
    buf: &'a [u8],
    pos: usize,
    version: u32,
    broken_v13: bool,
    node_ipc: bool,
    max_depth: usize,
    /// Containers open right now (SC-D-29).
    open: usize,
    heap: Heap,
    /// Wire id to heap id; `None` while an id is assigned but its object is not readable yet.
    ids: Vec<Option<ObjId>>,
    /// Open containers below the one being filled.
    stack: Vec<Frame>,
}

type R<T> = Result<T, Error>;

impl<'a> Decoder<'a> {
    fn new(buf: &'a [u8], options: &DecodeOptions, broken_v13: bool) -> Decoder<'a> {
        // A rough guess at the object count saves regrowing the heap; it never exceeds the input size.
        let guess = (buf.len() / 32).min(1 << 16);
        Decoder {
            buf,
            pos: 0,
            version: 0,
            broken_v13,
            node_ipc: options.node_ipc,
            max_depth: options.max_depth as usize,
            open: 0,
            heap: Heap::with_capacity(guess),
            ids: Vec::with_capacity(guess),
            stack: Vec::new(),
        }
    }

    // ---- errors -------------------------------------------------------------------------------

    fn err(&self, code: ErrorCode, at: usize, msg: &'static str) -> Error {
        Error::new(code, at as u64, msg)
    }

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
        let start = self.pos;
        // Fast path: one byte.
        if let Some(&b) = self.buf.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(u32::from(b));
            }
        }
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
        Ok(BigInt::from_parts(negative, bytes.to_vec()))
    }

    /// SC-D-10: the payload of a string tag read at `tag_pos`.
    fn read_string_payload(&mut self, tag: u8, tag_pos: usize) -> R<JsString> {
        let mut s = JsString::new();
        self.read_string_into(tag, tag_pos, &mut s)?;
        Ok(s)
    }

    /// SC-D-10: the payload of a string tag read at `tag_pos`, written into `out` in place.
    #[inline]
    fn read_string_into(&mut self, tag: u8, tag_pos: usize, out: &mut JsString) -> R<()> {
        let len = self.read_u32()? as usize;
        if tag == TAG_TWO_BYTE_STRING && len % 2 != 0 {
            return Err(self.err(
                ErrorCode::String,
                tag_pos,
                "two-byte string with an odd byte length",
            ));
        }
        let bytes = self.read_raw(len)?;
        match tag {
            TAG_ONE_BYTE_STRING => out.set_latin1(bytes),
            TAG_TWO_BYTE_STRING => {
                *out = JsString::from_utf16(
                    bytes
                        .chunks_exact(2)
                        .map(|c| u16::from_le_bytes([c[0], c[1]]))
                        .collect(),
                )
            }
            _ => match std::str::from_utf8(bytes) {
                Ok(s) if s.is_ascii() => out.set_latin1(bytes),
                Ok(s) => *out = JsString::from_str(s),
                Err(_) => {
                    return Err(self.err(
                        ErrorCode::String,
                        tag_pos,
                        "`S` string is not valid UTF-8",
                    ));
                }
            },
        }
        Ok(())
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

    /// SC-D-12/13: a property key, a string or a number, as the JS property name.
    /// SC-D-12/13: a property key written into `out` in place; returns its array index, if it is one,
    /// and the key's tag offset.
    fn read_key_into(&mut self, out: &mut JsString) -> R<(Option<u32>, usize)> {
        let (tag, at) = self.value_tag()?;
        let n: i64 = match tag {
            TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                self.read_string_into(tag, at, out)?;
                return Ok((out.as_array_index(), at));
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
        let mut digits = [0u8; 24];
        out.set_latin1(format_int(n, &mut digits));
        let index = if (0..=0xFFFF_FFFE).contains(&n) {
            Some(n as u32)
        } else {
            None
        };
        Ok((index, at))
    }

    fn read_key(&mut self) -> R<(PendingKey, usize)> {
        let (tag, at) = self.value_tag()?;
        let key = match tag {
            TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                let key = self.read_string_payload(tag, at)?;
                let index = key.as_array_index();
                PendingKey { key, index }
            }
            TAG_INT32 => int_key(i64::from(zigzag(self.read_u32()?))),
            TAG_UINT32 => int_key(i64::from(self.read_u32()?)),
            TAG_DOUBLE => {
                let d = self.read_double()?;
                if d.fract() != 0.0 || d.is_nan() || d.abs() > 9007199254740991.0 {
                    return Err(self.err(
                        ErrorCode::Key,
                        at,
                        "a number key must be a safe integer",
                    ));
                }
                int_key(d as i64)
            }
            _ => {
                return Err(self.err(
                    ErrorCode::Key,
                    at,
                    "a property key must be a string or a number",
                ));
            }
        };
        Ok((key, at))
    }

    // ---- ids ----------------------------------------------------------------------------------

    /// Allocates an object and assigns it the next wire id (readable at once).
    #[inline]
    fn new_object(&mut self, object: Object) -> ObjId {
        let obj = self.heap.alloc(object);
        self.ids.push(Some(obj));
        obj
    }

    /// SC-D-29: a container may open at level `open + 1` only when that is within `max_depth`.
    #[inline]
    fn check_depth(&self, tag_pos: usize) -> R<()> {
        if self.open >= self.max_depth {
            return Err(self.err(
                ErrorCode::LimitDepth,
                tag_pos,
                "nesting deeper than max_depth",
            ));
        }
        Ok(())
    }

    /// A container item was read: it is now open, its frame on top of the stack.
    #[inline]
    fn opened(&mut self, frame: Frame) {
        self.open += 1;
        self.stack.push(frame);
    }

    // ---- driver -------------------------------------------------------------------------------

    fn run(&mut self) -> R<Graph> {
        self.read_header()?;
        let root = match self.read_item()? {
            Item::Value(v) => v,
            Item::Open(_) => {
                let frame = self.stack.pop().expect("opened frame");
                self.drive(frame)?
            }
        };
        // SC-D-28: only padding may follow the top-level value.
        self.skip_padding();
        if self.pos < self.buf.len() {
            return Err(self.err(ErrorCode::Tag, self.pos, "bytes after the top-level value"));
        }
        let heap = std::mem::take(&mut self.heap);
        Ok(Graph { heap, root })
    }

    /// Fills containers until the outermost one is done. The container being filled is a local;
    /// only suspended ones sit on `self.stack`, so nothing here recurses.
    fn drive(&mut self, first: Frame) -> R<Value> {
        let mut cur = first;
        loop {
            match self.fill(&mut cur)? {
                Fill::Open => {
                    // The child is on top of the stack: it becomes current, the parent waits below it.
                    let n = self.stack.len();
                    std::mem::swap(&mut cur, &mut self.stack[n - 1]);
                }
                Fill::Done(obj) => {
                    self.open -= 1;
                    match self.stack.pop() {
                        None => return Ok(Value::Object(obj)),
                        Some(mut parent) => {
                            deliver(&mut parent, obj);
                            cur = parent;
                        }
                    }
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

    /// SC-D-07: one item at a value position.
    fn read_item(&mut self) -> R<Item> {
        let mut v = Value::Undefined;
        Ok(match (self.read_into(&mut v)?, v) {
            (true, v) => Item::Value(v),
            (false, Value::Object(obj)) => Item::Open(obj),
            (false, _) => unreachable!("an opened container is an object"),
        })
    }

    /// SC-D-07: one item at a value position, written straight into `out` (no intermediate copies on the
    /// hot path). `Ok(false)`: a container opened instead (its frame is on the stack, `out` untouched).
    fn read_into(&mut self, out: &mut Value) -> R<bool> {
        let (tag, at) = self.value_tag()?;
        *out = match tag {
            TAG_UNDEFINED => Value::Undefined,
            TAG_NULL => Value::Null,
            TAG_TRUE => Value::Bool(true),
            TAG_FALSE => Value::Bool(false),
            TAG_INT32 => Value::Number(f64::from(zigzag(self.read_u32()?))),
            TAG_UINT32 => Value::Number(f64::from(self.read_u32()?)),
            TAG_DOUBLE => Value::Number(self.read_double()?),
            TAG_BIGINT => Value::BigInt(self.read_bigint(at)?),
            TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                // Written in place: no temporary string moved into `out`.
                *out = Value::String(JsString::new());
                if let Value::String(s) = out {
                    self.read_string_into(tag, at, s)?;
                }
                return Ok(true);
            }
            TAG_OBJECT_REFERENCE => {
                // SC-D-25
                let id = self.read_u32()?;
                match self.ids.get(id as usize) {
                    Some(Some(obj)) => {
                        let obj = *obj;
                        self.maybe_view(obj)?
                    }
                    _ => {
                        return Err(self.err(
                            ErrorCode::Ref,
                            at,
                            "back-reference to an unassigned id",
                        ));
                    }
                }
            }
            TAG_BEGIN_JS_OBJECT => {
                let obj = self.begin_object(at)?;
                *out = Value::Object(obj);
                return Ok(false);
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
                let items = if dense {
                    Vec::with_capacity(length as usize)
                } else {
                    Vec::new()
                };
                self.opened(Frame::Array {
                    obj,
                    dense,
                    length,
                    next: 0,
                    in_props: !dense,
                    items,
                    props: Vec::new(),
                    count: 0,
                    pending: Slot::None,
                    index: Index::default(),
                });
                *out = Value::Object(obj);
                return Ok(false);
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
                self.opened(Frame::Map {
                    obj,
                    entries: Vec::new(),
                    index: Index::default(),
                    read: 0,
                    key: None,
                });
                *out = Value::Object(obj);
                return Ok(false);
            }
            TAG_BEGIN_JS_SET => {
                self.check_depth(at)?;
                let obj = self.new_object(Object::Set(Vec::new()));
                self.opened(Frame::Set {
                    obj,
                    values: Vec::new(),
                    index: Index::default(),
                    read: 0,
                });
                *out = Value::Object(obj);
                return Ok(false);
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
                let err = Box::new(ErrorObject {
                    name: ErrorName::Error,
                    message: None,
                    stack: None,
                    cause: None,
                });
                let obj = self.new_object(Object::Error(err.clone()));
                self.opened(Frame::Error { obj, err, seen: 0 });
                *out = Value::Object(obj);
                return Ok(false);
            }
            TAG_HOST_OBJECT => match self.read_host_object(at)? {
                Item::Value(v) => v,
                Item::Open(obj) => {
                    *out = Value::Object(obj);
                    return Ok(false);
                }
            },
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
        };
        Ok(true)
    }

    fn begin_object(&mut self, at: usize) -> R<ObjId> {
        self.check_depth(at)?;
        let obj = self.new_object(Object::Plain(Vec::new()));
        let frame = Frame::Object {
            obj,
            props: Vec::new(),
            pending: false,
            has_index: false,
            index: Index::default(),
        };
        self.opened(frame);
        Ok(obj)
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
    fn read_host_object(&mut self, at: usize) -> R<Item> {
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
                return Ok(Item::Open(obj));
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
        Ok(Item::Value(Value::Object(obj)))
    }

    // ---- containers ---------------------------------------------------------------------------

    /// Reads into `f` until it opens a child container or ends. Scalars are taken in this loop,
    /// without going back to the driver.
    fn fill(&mut self, f: &mut Frame) -> R<Fill> {
        match f {
            Frame::Object {
                obj,
                props,
                pending,
                has_index,
                index,
            } => loop {
                let (tag, at) = self.peek_after_padding()?;
                if tag == TAG_END_JS_OBJECT {
                    // SC-D-12
                    self.pos = at + 1;
                    let expected = self.read_u32()?;
                    if expected as usize != props.len() {
                        return Err(self.err(
                            ErrorCode::Count,
                            at,
                            "object property count does not match",
                        ));
                    }
                    let mut props = std::mem::take(props);
                    if *has_index {
                        sort_index_keys_first(&mut props);
                    }
                    self.heap.replace(*obj, Object::Plain(props));
                    return Ok(Fill::Done(*obj));
                }
                // The key and value are read straight into a new last property.
                props.push((JsString::new(), Value::Undefined));
                let n = props.len() - 1;
                let (key_index, kat) = self.read_key_into(&mut props[n].0)?;
                let (done, last) = props.split_at_mut(n);
                let key = &last[0].0;
                if index
                    .find(n, || hash_str(key), |i| done[i].0 == *key)
                    .is_some()
                {
                    return Err(self.err(ErrorCode::Key, kat, "duplicate property key"));
                }
                *has_index |= key_index.is_some();
                index.insert(n, || hash_str(key), |i| hash_str(&done[i].0));
                let slot = &mut props[n].1;
                if !self.read_into(slot)? {
                    *pending = true;
                    return Ok(Fill::Open);
                }
            },
            Frame::Array {
                obj,
                dense,
                length,
                next,
                in_props,
                items,
                props,
                count,
                pending,
                index,
            } => {
                // SC-D-14: dense elements; `-` is a hole.
                while !*in_props {
                    if *next >= *length {
                        *in_props = true;
                        break;
                    }
                    let (tag, at) = self.peek_after_padding()?;
                    if tag == TAG_THE_HOLE {
                        self.pos = at + 1;
                        *next += 1;
                        continue;
                    }
                    items.push((*next, Value::Undefined));
                    *next += 1;
                    let slot = &mut items.last_mut().expect("pushed").1;
                    if !self.read_into(slot)? {
                        *pending = Slot::Item(items.len() - 1);
                        return Ok(Fill::Open);
                    }
                }
                let end_tag = if *dense {
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
                        if expected_props != *count || expected_length != *length {
                            return Err(self.err(
                                ErrorCode::Count,
                                at,
                                "array end counts do not match",
                            ));
                        }
                        // Defining an index at or past `length` grows the array, as in JS.
                        let final_length = match items.last() {
                            Some((i, _)) if *i >= *length => i + 1,
                            _ => *length,
                        };
                        let arr = Array {
                            length: final_length,
                            items: std::mem::take(items),
                            props: std::mem::take(props),
                        };
                        self.heap.replace(*obj, Object::Array(arr));
                        return Ok(Fill::Done(*obj));
                    }
                    let (k, kat) = self.read_key()?;
                    *count += 1;
                    // SC-D-14: `length`, or a name already present, is SC_KEY.
                    let slot = match k.index {
                        Some(i) => {
                            let p = items.partition_point(|(j, _)| *j < i);
                            if items.get(p).is_some_and(|(j, _)| *j == i) {
                                return Err(self.err(ErrorCode::Key, kat, "duplicate array index"));
                            }
                            items.insert(p, (i, Value::Undefined));
                            Slot::Item(p)
                        }
                        None => {
                            if k.key.eq_ascii(b"length")
                                || index
                                    .find(props.len(), || hash_str(&k.key), |i| props[i].0 == k.key)
                                    .is_some()
                            {
                                return Err(self.err(
                                    ErrorCode::Key,
                                    kat,
                                    "duplicate property key",
                                ));
                            }
                            index.insert(
                                props.len(),
                                || hash_str(&k.key),
                                |i| hash_str(&props[i].0),
                            );
                            props.push((k.key, Value::Undefined));
                            Slot::Prop
                        }
                    };
                    let out = match slot {
                        Slot::Item(p) => &mut items[p].1,
                        _ => &mut props.last_mut().expect("pushed").1,
                    };
                    if !self.read_into(out)? {
                        *pending = slot;
                        return Ok(Fill::Open);
                    }
                }
            }
            Frame::Map {
                obj,
                entries,
                index,
                read,
                key,
            } => loop {
                if key.is_none() {
                    let (tag, at) = self.peek_after_padding()?;
                    if tag == TAG_END_JS_MAP {
                        // SC-D-20
                        self.pos = at + 1;
                        let expected = self.read_u32()?;
                        if u64::from(expected) != 2 * u64::from(*read) {
                            return Err(self.err(
                                ErrorCode::Count,
                                at,
                                "map length does not match",
                            ));
                        }
                        self.heap
                            .replace(*obj, Object::Map(std::mem::take(entries)));
                        return Ok(Fill::Done(*obj));
                    }
                    match self.read_item()? {
                        Item::Value(v) => *key = Some(v),
                        Item::Open(_) => return Ok(Fill::Open),
                    }
                }
                match self.read_item()? {
                    Item::Value(v) => {
                        let k = key.take().expect("map key");
                        map_set(entries, index, read, k, v);
                    }
                    Item::Open(_) => return Ok(Fill::Open),
                }
            },
            Frame::Set {
                obj,
                values,
                index,
                read,
            } => loop {
                let (tag, at) = self.peek_after_padding()?;
                if tag == TAG_END_JS_SET {
                    self.pos = at + 1;
                    let expected = self.read_u32()?;
                    if expected != *read {
                        return Err(self.err(ErrorCode::Count, at, "set size does not match"));
                    }
                    self.heap.replace(*obj, Object::Set(std::mem::take(values)));
                    return Ok(Fill::Done(*obj));
                }
                match self.read_item()? {
                    Item::Value(v) => set_add(values, index, read, v),
                    Item::Open(_) => return Ok(Fill::Open),
                }
            },
            Frame::Error { obj, err, seen } => loop {
                // SC-D-24: at most one prototype, message, stack and cause each, then `.`.
                let sub_at = self.pos;
                let sub = self.read_u8()?;
                if sub == ERROR_END {
                    let err = std::mem::replace(
                        err,
                        Box::new(ErrorObject {
                            name: ErrorName::Error,
                            message: None,
                            stack: None,
                            cause: None,
                        }),
                    );
                    self.heap.replace(*obj, Object::Error(err));
                    return Ok(Fill::Done(*obj));
                }
                let proto = error_prototype(sub);
                let bit = match sub {
                    _ if proto.is_some() => 1u8,
                    ERROR_MESSAGE => 2,
                    ERROR_STACK => 4,
                    ERROR_CAUSE => 8,
                    _ => return Err(self.err(ErrorCode::Tag, sub_at, "unknown Error subtag")),
                };
                if *seen & bit != 0 {
                    return Err(self.err(ErrorCode::Tag, sub_at, "repeated Error subtag"));
                }
                *seen |= bit;
                match sub {
                    ERROR_MESSAGE => err.message = Some(self.read_string_value()?),
                    ERROR_STACK => err.stack = Some(self.read_string_value()?),
                    ERROR_CAUSE => {
                        let slot = err.cause.insert(Value::Undefined);
                        if !self.read_into(slot)? {
                            return Ok(Fill::Open);
                        }
                    }
                    _ => {
                        if let Some(name) = proto {
                            err.name = name;
                        }
                    }
                }
            },
        }
    }
}

/// Hands a finished child container to its parent (into the slot it was read for).
fn deliver(parent: &mut Frame, obj: ObjId) {
    match parent {
        // The parent's slot already holds the object (written when it opened).
        Frame::Object { pending, .. } => *pending = false,
        Frame::Array { pending, .. } => *pending = Slot::None,
        Frame::Error { .. } => {}
        Frame::Map {
            entries,
            index,
            read,
            key,
            ..
        } => match key.take() {
            None => *key = Some(Value::Object(obj)),
            Some(k) => map_set(entries, index, read, k, Value::Object(obj)),
        },
        Frame::Set {
            values,
            index,
            read,
            ..
        } => set_add(values, index, read, Value::Object(obj)),
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

fn zigzag(u: u32) -> i32 {
    ((u >> 1) as i32) ^ -((u & 1) as i32)
}

/// The property name of an integer key (`String(n)`).
fn int_key(n: i64) -> PendingKey {
    let index = if (0..=0xFFFF_FFFE).contains(&n) {
        Some(n as u32)
    } else {
        None
    };
    PendingKey {
        key: JsString::from_latin1(n.to_string().into_bytes()),
        index,
    }
}

/// The decimal form of `n` in `buf`.
fn format_int(n: i64, buf: &mut [u8; 24]) -> &[u8] {
    let mut i = buf.len();
    let neg = n < 0;
    let mut m = n.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if neg {
        i -= 1;
        buf[i] = b'-';
    }
    &buf[i..]
}

/// SC-D-17: ECMA-262 TimeClip.
fn time_clip(t: f64) -> f64 {
    if !t.is_finite() || t.abs() > 8.64e15 {
        return f64::NAN;
    }
    let r = t.trunc();
    if r == 0.0 { 0.0 } else { r }
}

fn error_prototype(sub: u8) -> Option<ErrorName> {
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

/// JS property enumeration order: array-index keys ascending, then the rest in insertion order.
pub(crate) fn sort_index_keys_first(props: &mut [(JsString, Value)]) {
    props.sort_by_key(|(k, _)| match k.as_array_index() {
        Some(i) => (0u8, i),
        None => (1u8, 0),
    });
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
struct Index {
    // Boxed so that the frames that carry an index stay small (they move on every push and pop).
    #[allow(clippy::box_collection)]
    table: Option<Box<HashMap<u64, Vec<u32>>>>,
}

const LINEAR_LIMIT: usize = 16;

impl Index {
    #[inline]
    fn find(
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
    fn insert(&mut self, i: usize, hash: impl FnOnce() -> u64, hash_of: impl Fn(usize) -> u64) {
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
        assert!(std::mem::size_of::<super::Frame>() <= 96);
        assert!(std::mem::size_of::<crate::Object>() <= 56);
        assert!(std::mem::size_of::<crate::Value>() <= 40);
        assert!(std::mem::size_of::<crate::JsString>() <= 32);
    }
}
