//! The decoder: V8 ValueSerializer bytes (versions 13..=15, raw and Node dialects) to a [`Graph`].
//!
//! Nesting is handled with an explicit stack of frames, so the decoder never recurses and its depth is
//! bounded by `max_depth` (SC_LIMIT_DEPTH). Every length is checked against the bytes left before
//! anything is reserved for it.

use crate::bigint::BigInt;
use crate::error::{Error, ErrorCode};
use crate::number::number_to_js_string;
use crate::string::JsString;
use crate::tags::*;
use crate::value::{
    Array, ArrayBuffer, ErrorName, ErrorObject, Graph, Heap, ObjId, Object, RegExpFlags, Value, View, ViewKind,
};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Decoder limits (`spec/limits.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Deepest container nesting accepted (`max_depth`, default 1000; `u32::MAX` = unlimited).
    pub max_depth: u32,
    /// Longest input accepted (`max_bytes`, default 256 MiB; `u64::MAX` = unlimited).
    pub max_bytes: u64,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions { max_depth: 1000, max_bytes: 256 * 1024 * 1024 }
    }
}

/// Decodes one value with the default limits.
pub fn decode(input: &[u8]) -> Result<Graph, Error> {
    decode_with(input, &DecodeOptions::default())
}

/// Decodes one value with the given limits.
pub fn decode_with(input: &[u8], options: &DecodeOptions) -> Result<Graph, Error> {
    if input.len() as u64 > options.max_bytes {
        return Err(Error::new(ErrorCode::LimitBytes, 0, "input longer than max_bytes"));
    }
    // SC-D: the child_process 'advanced' framing: a 4-byte big-endian length, then the stream.
    let (body, base, advanced) = split_advanced_frame(input);
    let mut d = Decoder::new(body, base, options, advanced, false);
    let first = d.run();
    match first {
        Ok(g) => Ok(g),
        Err(e) => {
            // V8 compatibility: version 13 data written by a broken V8 carries view flags
            // (crbug.com/1284506); V8 retries such data with flags before giving up.
            if d.version == 13 && e.code != ErrorCode::LimitDepth && e.code != ErrorCode::LimitBytes {
                let mut retry = Decoder::new(body, base, options, advanced, true);
                if let Ok(g) = retry.run() {
                    return Ok(g);
                }
            }
            Err(e)
        }
    }
}

/// Detects Node's child_process `serialization: 'advanced'` framing (4-byte big-endian length + stream).
fn split_advanced_frame(input: &[u8]) -> (&[u8], usize, bool) {
    if input.len() >= 6 && input[0] != TAG_VERSION && input[4] == TAG_VERSION {
        let len = u32::from_be_bytes([input[0], input[1], input[2], input[3]]) as usize;
        if len == input.len() - 4 {
            return (&input[4..], 4, true);
        }
    }
    (input, 0, false)
}

/// Where a key read for an object or array came from, kept until its value arrives.
struct PendingKey {
    key: JsString,
    pos: usize,
}

enum Frame {
    Object {
        obj: ObjId,
        props: Vec<(JsString, Value)>,
        key: Option<PendingKey>,
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
        key: Option<PendingKey>,
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
        wire: u32,
        err: ErrorObject,
        in_cause: bool,
    },
    HostValue {
        wire: u32,
        tag_pos: usize,
        done: Option<ObjId>,
    },
}

enum Action {
    ReadValue,
    ReadKey,
    Completed(Value),
}

struct Decoder<'a> {
    buf: &'a [u8],
    base: usize,
    pos: usize,
    version: u32,
    broken_v13: bool,
    advanced: bool,
    max_depth: usize,
    heap: Heap,
    /// Wire id to heap id; `None` while an id is assigned but its object is not readable yet.
    ids: Vec<Option<ObjId>>,
    stack: Vec<Frame>,
}

type R<T> = Result<T, Error>;

impl<'a> Decoder<'a> {
    fn new(buf: &'a [u8], base: usize, options: &DecodeOptions, advanced: bool, broken_v13: bool) -> Decoder<'a> {
        Decoder {
            buf,
            base,
            pos: 0,
            version: 0,
            broken_v13,
            advanced,
            max_depth: options.max_depth as usize,
            heap: Heap::new(),
            ids: Vec::new(),
            stack: Vec::new(),
        }
    }

    // ---- errors -------------------------------------------------------------------------------

    fn err(&self, code: ErrorCode, at: usize, msg: &'static str) -> Error {
        Error::new(code, (self.base + at) as u64, msg)
    }

    fn truncated(&self) -> Error {
        Error::new(ErrorCode::Truncated, (self.base + self.buf.len()) as u64, "input ended inside a value")
    }

    // ---- primitives ---------------------------------------------------------------------------

    fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Reads a tag, skipping `00` padding. Returns (tag, offset of the tag).
    #[inline]
    fn read_tag(&mut self) -> R<(u8, usize)> {
        loop {
            let Some(&b) = self.buf.get(self.pos) else { return Err(self.truncated()) };
            self.pos += 1;
            if b != TAG_PADDING {
                return Ok((b, self.pos - 1));
            }
        }
    }

    /// The next tag without consuming it (padding skipped), and its offset.
    #[inline]
    fn peek_tag(&self) -> R<(u8, usize)> {
        let mut p = self.pos;
        loop {
            let Some(&b) = self.buf.get(p) else { return Err(self.truncated()) };
            if b != TAG_PADDING {
                return Ok((b, p));
            }
            p += 1;
        }
    }

    /// Consumes up to and including a tag found by `peek_tag` at `at`.
    #[inline]
    fn consume_to(&mut self, at: usize) {
        self.pos = at + 1;
    }

    #[inline]
    fn read_varint_u32(&mut self) -> R<u32> {
        let start = self.pos;
        let mut v: u32 = 0;
        for i in 0..5 {
            let Some(&b) = self.buf.get(self.pos) else { return Err(self.truncated()) };
            self.pos += 1;
            v |= u32::from(b & 0x7F).wrapping_shl(7 * i);
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(self.err(ErrorCode::Varint, start, "varint longer than 5 bytes"))
    }

    /// A varint read into a byte (V8 `ReadVarint<uint8_t>`: at most 2 bytes, high bits dropped).
    fn read_varint_u8(&mut self) -> R<u8> {
        let start = self.pos;
        let mut v: u32 = 0;
        for i in 0..2 {
            let Some(&b) = self.buf.get(self.pos) else { return Err(self.truncated()) };
            self.pos += 1;
            v |= u32::from(b & 0x7F) << (7 * i);
            if b < 0x80 {
                return Ok(v as u8);
            }
        }
        Err(self.err(ErrorCode::Varint, start, "varint longer than 2 bytes for a byte"))
    }

    fn read_double(&mut self) -> R<f64> {
        let Some(b) = self.buf.get(self.pos..self.pos + 8) else { return Err(self.truncated()) };
        self.pos += 8;
        let v = f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        // V8 canonicalises every NaN to the quiet NaN on read.
        Ok(if v.is_nan() { f64::NAN } else { v })
    }

    fn read_raw(&mut self, n: usize) -> R<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.truncated());
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn read_bigint(&mut self) -> R<BigInt> {
        let bitfield = self.read_varint_u32()?;
        let negative = bitfield & 1 == 1;
        let byte_len = ((bitfield >> 1) & 0x3FFF_FFFF) as usize;
        let bytes = self.read_raw(byte_len)?;
        Ok(BigInt::from_parts(negative, bytes.to_vec()))
    }

    /// The payload of a string tag already read at `tag_pos`.
    fn read_string_payload(&mut self, tag: u8, tag_pos: usize) -> R<JsString> {
        let len = self.read_varint_u32()? as usize;
        let bytes = self.read_raw(len)?;
        match tag {
            TAG_ONE_BYTE_STRING => Ok(JsString::Latin1(bytes.to_vec())),
            TAG_TWO_BYTE_STRING => {
                if len % 2 != 0 {
                    return Err(self.err(ErrorCode::String, tag_pos, "two-byte string with an odd byte length"));
                }
                Ok(JsString::Utf16(bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()))
            }
            _ => match std::str::from_utf8(bytes) {
                Ok(s) => Ok(JsString::from_str(s)),
                Err(_) => Err(self.err(ErrorCode::String, tag_pos, "S string that is not valid UTF-8")),
            },
        }
    }

    /// A value that must be a string (RegExp source, String object, Error message and stack).
    fn read_string_value(&mut self) -> R<JsString> {
        loop {
            let (tag, at) = self.read_tag()?;
            match tag {
                TAG_VERIFY_COUNT => {
                    self.read_varint_u32()?;
                }
                TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                    return self.read_string_payload(tag, at);
                }
                _ => return Err(self.err(ErrorCode::Tag, at, "a string was expected")),
            }
        }
    }

    /// A property key: a string or a number, turned into the JS property name.
    fn read_key(&mut self) -> R<PendingKey> {
        loop {
            let (tag, at) = self.read_tag()?;
            let key = match tag {
                TAG_VERIFY_COUNT => {
                    self.read_varint_u32()?;
                    continue;
                }
                TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => self.read_string_payload(tag, at)?,
                TAG_INT32 => {
                    let n = zigzag(self.read_varint_u32()?);
                    int_key(i64::from(n))
                }
                TAG_UINT32 => int_key(i64::from(self.read_varint_u32()?)),
                TAG_DOUBLE => {
                    let d = self.read_double()?;
                    if d.fract() == 0.0 && d.abs() < 1e15 {
                        int_key(d as i64)
                    } else {
                        JsString::Latin1(number_to_js_string(d).into_bytes())
                    }
                }
                _ => return Err(self.err(ErrorCode::Key, at, "a property key must be a string or a number")),
            };
            return Ok(PendingKey { key, pos: at });
        }
    }

    // ---- ids ----------------------------------------------------------------------------------

    fn reserve_id(&mut self) -> u32 {
        self.ids.push(None);
        (self.ids.len() - 1) as u32
    }

    fn set_id(&mut self, wire: u32, obj: ObjId) {
        self.ids[wire as usize] = Some(obj);
    }

    fn new_object(&mut self, object: Object) -> ObjId {
        let obj = self.heap.alloc(object);
        self.ids.push(Some(obj));
        obj
    }

    fn push_frame(&mut self, frame: Frame, tag_pos: usize) -> R<()> {
        if self.stack.len() >= self.max_depth {
            return Err(self.err(ErrorCode::LimitDepth, tag_pos, "nesting deeper than max_depth"));
        }
        self.stack.push(frame);
        Ok(())
    }

    fn check_depth(&self, tag_pos: usize) -> R<()> {
        if self.stack.len() >= self.max_depth {
            return Err(self.err(ErrorCode::LimitDepth, tag_pos, "nesting deeper than max_depth"));
        }
        Ok(())
    }

    // ---- driver -------------------------------------------------------------------------------

    fn run(&mut self) -> R<Graph> {
        self.read_header()?;
        let mut root: Option<Value> = None;
        loop {
            let action = if self.stack.is_empty() {
                if root.is_some() {
                    break;
                }
                Action::ReadValue
            } else {
                self.frame_next()?
            };
            let value = match action {
                Action::ReadValue => match self.read_item()? {
                    Some(v) => self.after_value(v)?,
                    None => continue,
                },
                Action::ReadKey => {
                    let k = self.read_key()?;
                    self.deliver_key(k)?;
                    continue;
                }
                Action::Completed(v) => self.after_value(v)?,
            };
            if self.stack.is_empty() {
                root = Some(value);
            } else {
                self.deliver(value)?;
            }
        }
        let heap = std::mem::take(&mut self.heap);
        Ok(Graph { heap, root: root.unwrap_or(Value::Undefined) })
    }

    fn read_header(&mut self) -> R<()> {
        match self.buf.first() {
            Some(&TAG_VERSION) => {}
            Some(_) => return Err(self.err(ErrorCode::Version, 0, "no FF version header")),
            None => return Err(self.truncated()),
        }
        self.pos = 1;
        let v = self.read_varint_u32()?;
        if !(13..=15).contains(&v) {
            return Err(self.err(ErrorCode::Version, 0, "version outside 13..=15"));
        }
        self.version = v;
        Ok(())
    }

    /// Reads one item in value position. Scalars come back as a value; a container pushes a frame.
    fn read_item(&mut self) -> R<Option<Value>> {
        loop {
            let (tag, at) = self.read_tag()?;
            let v = match tag {
                TAG_VERIFY_COUNT => {
                    self.read_varint_u32()?;
                    continue;
                }
                TAG_UNDEFINED => Value::Undefined,
                TAG_NULL => Value::Null,
                TAG_TRUE => Value::Bool(true),
                TAG_FALSE => Value::Bool(false),
                TAG_INT32 => Value::Number(f64::from(zigzag(self.read_varint_u32()?))),
                TAG_UINT32 => Value::Number(f64::from(self.read_varint_u32()?)),
                TAG_DOUBLE => Value::Number(self.read_double()?),
                TAG_BIGINT => Value::BigInt(self.read_bigint()?),
                TAG_ONE_BYTE_STRING | TAG_TWO_BYTE_STRING | TAG_UTF8_STRING => {
                    Value::String(self.read_string_payload(tag, at)?)
                }
                TAG_OBJECT_REFERENCE => {
                    let id = self.read_varint_u32()?;
                    match self.ids.get(id as usize) {
                        Some(Some(obj)) => Value::Object(*obj),
                        _ => return Err(self.err(ErrorCode::Ref, at, "reference to an id not yet assigned")),
                    }
                }
                TAG_BEGIN_JS_OBJECT => {
                    self.check_depth(at)?;
                    let obj = self.new_object(Object::Plain(Vec::new()));
                    self.push_frame(Frame::Object { obj, props: Vec::new(), key: None, has_index: false, index: Index::default() }, at)?;
                    return Ok(None);
                }
                TAG_BEGIN_DENSE_JS_ARRAY | TAG_BEGIN_SPARSE_JS_ARRAY => {
                    self.check_depth(at)?;
                    let dense = tag == TAG_BEGIN_DENSE_JS_ARRAY;
                    let length = self.read_varint_u32()?;
                    // SC rules: a dense array's length is checked against the bytes left (each element
                    // takes at least one byte) before anything is reserved.
                    if dense && length as usize > self.remaining() {
                        return Err(self.truncated());
                    }
                    let obj = self.new_object(Object::Array(Array::default()));
                    let items = if dense { Vec::with_capacity(length as usize) } else { Vec::new() };
                    self.push_frame(
                        Frame::Array {
                            obj,
                            dense,
                            length,
                            next: 0,
                            in_props: !dense,
                            items,
                            props: Vec::new(),
                            count: 0,
                            key: None,
                            index: Index::default(),
                        },
                        at,
                    )?;
                    return Ok(None);
                }
                TAG_DATE => {
                    let t = self.read_double()?;
                    Value::Object(self.new_object(Object::Date(t)))
                }
                TAG_TRUE_OBJECT => Value::Object(self.new_object(Object::BooleanObject(true))),
                TAG_FALSE_OBJECT => Value::Object(self.new_object(Object::BooleanObject(false))),
                TAG_NUMBER_OBJECT => {
                    let wire = self.reserve_id();
                    let n = self.read_double()?;
                    let obj = self.heap.alloc(Object::NumberObject(n));
                    self.set_id(wire, obj);
                    Value::Object(obj)
                }
                TAG_BIGINT_OBJECT => {
                    let wire = self.reserve_id();
                    let b = self.read_bigint()?;
                    let obj = self.heap.alloc(Object::BigIntObject(b));
                    self.set_id(wire, obj);
                    Value::Object(obj)
                }
                TAG_STRING_OBJECT => {
                    let wire = self.reserve_id();
                    let s = self.read_string_value()?;
                    let obj = self.heap.alloc(Object::StringObject(s));
                    self.set_id(wire, obj);
                    Value::Object(obj)
                }
                TAG_REGEXP => {
                    let wire = self.reserve_id();
                    let source = self.read_string_value()?;
                    let flags_at = self.pos;
                    let flags = self.read_varint_u32()?;
                    // V8 accepts the 9 known flag bits except `linear` (64), and JSRegExp::New rejects u with v.
                    if flags & !0x1BF != 0 || (flags & 16 != 0 && flags & 256 != 0) {
                        let _ = flags_at;
                        return Err(self.err(ErrorCode::Tag, at, "invalid RegExp flags"));
                    }
                    let obj = self.heap.alloc(Object::RegExp { source, flags: RegExpFlags(flags) });
                    self.set_id(wire, obj);
                    Value::Object(obj)
                }
                TAG_BEGIN_JS_MAP => {
                    self.check_depth(at)?;
                    let obj = self.new_object(Object::Map(Vec::new()));
                    let frame = Frame::Map { obj, entries: Vec::new(), index: Index::default(), read: 0, key: None };
                    self.push_frame(frame, at)?;
                    return Ok(None);
                }
                TAG_BEGIN_JS_SET => {
                    self.check_depth(at)?;
                    let obj = self.new_object(Object::Set(Vec::new()));
                    let frame = Frame::Set { obj, values: Vec::new(), index: Index::default(), read: 0 };
                    self.push_frame(frame, at)?;
                    return Ok(None);
                }
                TAG_ARRAY_BUFFER | TAG_RESIZABLE_ARRAY_BUFFER => {
                    let wire = self.reserve_id();
                    let byte_length = self.read_varint_u32()?;
                    let max_byte_length = if tag == TAG_RESIZABLE_ARRAY_BUFFER {
                        let m = self.read_varint_u32()?;
                        if byte_length > m {
                            return Err(self.err(ErrorCode::Tag, at, "resizable buffer longer than its maximum"));
                        }
                        Some(m)
                    } else {
                        None
                    };
                    let data = self.read_raw(byte_length as usize)?.to_vec();
                    let obj = self.heap.alloc(Object::ArrayBuffer(ArrayBuffer { data, max_byte_length }));
                    self.set_id(wire, obj);
                    Value::Object(obj)
                }
                TAG_ERROR => {
                    self.check_depth(at)?;
                    let wire = self.reserve_id();
                    let err = ErrorObject { name: ErrorName::Error, message: None, stack: None, cause: None };
                    self.push_frame(Frame::Error { wire, err, in_cause: false }, at)?;
                    return Ok(None);
                }
                TAG_HOST_OBJECT => return self.read_host_object(at),
                TAG_ARRAY_BUFFER_TRANSFER
                | TAG_SHARED_ARRAY_BUFFER
                | TAG_WASM_MODULE_TRANSFER
                | TAG_WASM_MEMORY_TRANSFER => {
                    return Err(self.err(ErrorCode::Unsupported, at, "tag only meaningful inside one process"))
                }
                TAG_SHARED_OBJECT if self.version >= 15 => {
                    return Err(self.err(ErrorCode::Unsupported, at, "shared object only meaningful inside one process"))
                }
                TAG_ARRAY_BUFFER_VIEW => {
                    return Err(self.err(ErrorCode::View, at, "a view must directly follow its buffer"))
                }
                _ => return Err(self.err(ErrorCode::Tag, at, "unknown tag or tag not allowed here")),
            };
            return Ok(Some(v));
        }
    }

    /// V8 `ReadObject`: a buffer directly followed by `V` is the view's buffer, and the view is the value.
    fn after_value(&mut self, v: Value) -> R<Value> {
        let Value::Object(obj) = v else { return Ok(v) };
        let (buffer_len, resizable) = match self.heap.get(obj) {
            Some(Object::ArrayBuffer(b)) => (b.data.len() as u64, b.max_byte_length.is_some()),
            _ => return Ok(v),
        };
        let Ok((tag, at)) = self.peek_tag() else { return Ok(v) };
        if tag != TAG_ARRAY_BUFFER_VIEW {
            return Ok(v);
        }
        self.consume_to(at);
        let subtag = self.read_varint_u8()?;
        let byte_offset = self.read_varint_u32()?;
        let byte_length = self.read_varint_u32()?;
        if u64::from(byte_offset) > buffer_len || u64::from(byte_length) > buffer_len - u64::from(byte_offset) {
            return Err(self.err(ErrorCode::View, at, "view out of bounds of its buffer"));
        }
        let flags = if self.version >= 14 || self.broken_v13 { self.read_varint_u32()? } else { 0 };
        let Some(kind) = ViewKind::from_subtag(subtag) else {
            return Err(self.err(ErrorCode::View, at, "unknown view subtag"));
        };
        let size = kind.element_size();
        if byte_offset % size != 0 || byte_length % size != 0 {
            return Err(self.err(ErrorCode::View, at, "view misaligned for its element size"));
        }
        let length_tracking = flags & 1 != 0;
        let backed_by_rab = flags & 2 != 0;
        // V8 ValidateJSArrayBufferViewFlags: the RAB flag must agree with the buffer.
        if (length_tracking || backed_by_rab) && !resizable || resizable && !backed_by_rab {
            return Err(self.err(ErrorCode::View, at, "view flags disagree with its buffer"));
        }
        let view = View { kind, buffer: obj, byte_offset, byte_length, length_tracking };
        Ok(Value::Object(self.new_object(Object::View(view))))
    }

    /// `\` host objects: Node's `v8.serialize` typed arrays, and the child_process 'advanced' variant.
    fn read_host_object(&mut self, at: usize) -> R<Option<Value>> {
        let wire = self.reserve_id();
        if self.advanced {
            let sub = self.read_varint_u32()?;
            match sub {
                0 => {}
                1 => {
                    self.check_depth(at)?;
                    self.push_frame(Frame::HostValue { wire, tag_pos: at, done: None }, at)?;
                    return Ok(None);
                }
                _ => return Err(self.err(ErrorCode::Host, at, "unknown child_process host sub-tag")),
            }
        }
        let index = self.read_varint_u32()?;
        let Some(kind) = ViewKind::from_node_index(index) else {
            return Err(self.err(ErrorCode::Host, at, "unknown Node host-object view type"));
        };
        let byte_length = self.read_varint_u32()?;
        let data = self.read_raw(byte_length as usize)?.to_vec();
        if byte_length % kind.element_size() != 0 {
            return Err(self.err(ErrorCode::Host, at, "host view length not a multiple of its element size"));
        }
        let buffer = self.heap.alloc(Object::ArrayBuffer(ArrayBuffer { data, max_byte_length: None }));
        let view = View { kind, buffer, byte_offset: 0, byte_length, length_tracking: false };
        let obj = self.heap.alloc(Object::View(view));
        self.set_id(wire, obj);
        Ok(Some(Value::Object(obj)))
    }

    // ---- frames -------------------------------------------------------------------------------

    /// What the top frame needs next; consumes its end tag and completes it when it is there.
    fn frame_next(&mut self) -> R<Action> {
        match self.stack.last().expect("frame") {
            Frame::Object { key, .. } => {
                if key.is_some() {
                    return Ok(Action::ReadValue);
                }
                self.object_next()
            }
            Frame::Array { .. } => self.array_next(),
            Frame::Map { key, .. } => {
                if key.is_some() {
                    return Ok(Action::ReadValue);
                }
                self.map_next()
            }
            Frame::Set { .. } => self.set_next(),
            Frame::Error { .. } => self.error_next(),
            Frame::HostValue { done, .. } => match *done {
                None => Ok(Action::ReadValue),
                Some(obj) => {
                    let Some(Frame::HostValue { wire, .. }) = self.stack.pop() else { unreachable!() };
                    self.set_id(wire, obj);
                    Ok(Action::Completed(Value::Object(obj)))
                }
            },
        }
    }

    fn object_next(&mut self) -> R<Action> {
        let (tag, at) = self.peek_tag()?;
        if tag != TAG_END_JS_OBJECT {
            return Ok(Action::ReadKey);
        }
        self.consume_to(at);
        let expected = self.read_varint_u32()?;
        let Some(Frame::Object { obj, mut props, has_index, .. }) = self.stack.pop() else { unreachable!() };
        if expected as usize != props.len() {
            return Err(self.err(ErrorCode::Count, at, "object property count does not match"));
        }
        if has_index {
            sort_index_keys_first(&mut props);
        }
        *self.heap.get_mut(obj).expect("obj") = Object::Plain(props);
        Ok(Action::Completed(Value::Object(obj)))
    }

    fn array_next(&mut self) -> R<Action> {
        let Some(Frame::Array { dense, length, next, in_props, key, .. }) = self.stack.last() else { unreachable!() };
        let (dense, length, mut next, was_in_props, has_key) = (*dense, *length, *next, *in_props, key.is_some());
        if !was_in_props {
            // Dense elements: `-` is a hole.
            loop {
                if next >= length {
                    break;
                }
                let (tag, at) = self.peek_tag()?;
                if tag == TAG_THE_HOLE {
                    self.consume_to(at);
                    next += 1;
                    continue;
                }
                if let Some(Frame::Array { next: n, .. }) = self.stack.last_mut() {
                    *n = next;
                }
                return Ok(Action::ReadValue);
            }
            if let Some(Frame::Array { next: n, in_props, .. }) = self.stack.last_mut() {
                *n = next;
                *in_props = true;
            }
        }
        if has_key {
            return Ok(Action::ReadValue);
        }
        let end_tag = if dense { TAG_END_DENSE_JS_ARRAY } else { TAG_END_SPARSE_JS_ARRAY };
        let (tag, at) = self.peek_tag()?;
        if tag != end_tag {
            return Ok(Action::ReadKey);
        }
        self.consume_to(at);
        let expected_props = self.read_varint_u32()?;
        let expected_length = self.read_varint_u32()?;
        let Some(Frame::Array { obj, length, items, props, count, .. }) = self.stack.pop() else { unreachable!() };
        if expected_props != count || expected_length != length {
            return Err(self.err(ErrorCode::Count, at, "array property count or length does not match"));
        }
        // Defining an index at or past `length` grows the array, as in JS.
        let final_length = match items.last() {
            Some((i, _)) if *i >= length => i + 1,
            _ => length,
        };
        *self.heap.get_mut(obj).expect("obj") = Object::Array(Array { length: final_length, items, props });
        Ok(Action::Completed(Value::Object(obj)))
    }

    fn map_next(&mut self) -> R<Action> {
        let (tag, at) = self.peek_tag()?;
        if tag != TAG_END_JS_MAP {
            return Ok(Action::ReadValue);
        }
        self.consume_to(at);
        let expected = self.read_varint_u32()?;
        let Some(Frame::Map { obj, entries, read, .. }) = self.stack.pop() else { unreachable!() };
        if u64::from(expected) != 2 * u64::from(read) {
            return Err(self.err(ErrorCode::Count, at, "map length does not match"));
        }
        *self.heap.get_mut(obj).expect("obj") = Object::Map(entries);
        Ok(Action::Completed(Value::Object(obj)))
    }

    fn set_next(&mut self) -> R<Action> {
        let (tag, at) = self.peek_tag()?;
        if tag != TAG_END_JS_SET {
            return Ok(Action::ReadValue);
        }
        self.consume_to(at);
        let expected = self.read_varint_u32()?;
        let Some(Frame::Set { obj, values, read, .. }) = self.stack.pop() else { unreachable!() };
        if expected != read {
            return Err(self.err(ErrorCode::Count, at, "set size does not match"));
        }
        *self.heap.get_mut(obj).expect("obj") = Object::Set(values);
        Ok(Action::Completed(Value::Object(obj)))
    }

    fn error_next(&mut self) -> R<Action> {
        loop {
            let sub_at = self.pos;
            let sub = self.read_varint_u8()?;
            match sub {
                ERROR_END => {
                    let Some(Frame::Error { wire, err, .. }) = self.stack.pop() else { unreachable!() };
                    let obj = self.heap.alloc(Object::Error(err));
                    self.set_id(wire, obj);
                    return Ok(Action::Completed(Value::Object(obj)));
                }
                ERROR_MESSAGE | ERROR_STACK => {
                    let s = self.read_string_value()?;
                    if let Some(Frame::Error { err, .. }) = self.stack.last_mut() {
                        if sub == ERROR_MESSAGE {
                            err.message = Some(s);
                        } else {
                            err.stack = Some(s);
                        }
                    }
                }
                ERROR_CAUSE => {
                    if let Some(Frame::Error { in_cause, .. }) = self.stack.last_mut() {
                        *in_cause = true;
                    }
                    return Ok(Action::ReadValue);
                }
                _ => match error_prototype(sub) {
                    Some(name) => {
                        if let Some(Frame::Error { err, .. }) = self.stack.last_mut() {
                            err.name = name;
                        }
                    }
                    None => return Err(self.err(ErrorCode::Tag, sub_at, "unknown Error subtag")),
                },
            }
        }
    }

    fn deliver_key(&mut self, k: PendingKey) -> R<()> {
        match self.stack.last_mut() {
            Some(Frame::Object { key, .. }) | Some(Frame::Array { key, .. }) => {
                *key = Some(k);
                Ok(())
            }
            _ => unreachable!("keys are only read for objects and arrays"),
        }
    }

    /// Hands a finished value to the top frame.
    fn deliver(&mut self, value: Value) -> R<()> {
        let base = self.base;
        let key_err = |at: usize, msg: &'static str| Error::new(ErrorCode::Key, (base + at) as u64, msg);
        let frame = self.stack.last_mut().expect("frame");
        match frame {
            Frame::Object { props, key, has_index, index, .. } => {
                let k = key.take().expect("key before value");
                let h = hash_str(&k.key);
                if index.find(h, props.len(), |i| props[i].0 == k.key).is_some() {
                    return Err(key_err(k.pos, "duplicate property key"));
                }
                *has_index |= k.key.as_array_index().is_some();
                index.insert(h, props.len(), |i| hash_str(&props[i].0));
                props.push((k.key, value));
                Ok(())
            }
            Frame::Array { in_props, next, items, props, count, key, index, .. } => {
                if !*in_props {
                    items.push((*next, value));
                    *next += 1;
                    return Ok(());
                }
                let k = key.take().expect("key before value");
                *count += 1;
                match k.key.as_array_index() {
                    Some(i) => match items.binary_search_by_key(&i, |(j, _)| *j) {
                        Ok(_) => Err(key_err(k.pos, "duplicate array index")),
                        Err(p) => {
                            items.insert(p, (i, value));
                            Ok(())
                        }
                    },
                    None => {
                        let h = hash_str(&k.key);
                        if k.key.eq_ascii(b"length") || index.find(h, props.len(), |i| props[i].0 == k.key).is_some() {
                            return Err(key_err(k.pos, "duplicate property key"));
                        }
                        index.insert(h, props.len(), |i| hash_str(&props[i].0));
                        props.push((k.key, value));
                        Ok(())
                    }
                }
            }
            Frame::Map { entries, index, read, key, .. } => {
                match key.take() {
                    None => *key = Some(value),
                    Some(k) => {
                        *read += 1;
                        // Map.prototype.set: -0 becomes +0; an existing key keeps its place.
                        let k = normalize_zero(k);
                        let h = hash_value(&k);
                        match index.find(h, entries.len(), |i| same_value_zero(&entries[i].0, &k)) {
                            Some(i) => entries[i].1 = value,
                            None => {
                                index.insert(h, entries.len(), |i| hash_value(&entries[i].0));
                                entries.push((k, value));
                            }
                        }
                    }
                }
                Ok(())
            }
            Frame::Set { values, index, read, .. } => {
                *read += 1;
                let v = normalize_zero(value);
                let h = hash_value(&v);
                if index.find(h, values.len(), |i| same_value_zero(&values[i], &v)).is_none() {
                    index.insert(h, values.len(), |i| hash_value(&values[i]));
                    values.push(v);
                }
                Ok(())
            }
            Frame::Error { err, in_cause, .. } => {
                debug_assert!(*in_cause);
                *in_cause = false;
                err.cause = Some(value);
                Ok(())
            }
            Frame::HostValue { done, tag_pos, .. } => match value {
                Value::Object(obj) => {
                    *done = Some(obj);
                    Ok(())
                }
                _ => Err(Error::new(
                    ErrorCode::Host,
                    (base + *tag_pos) as u64,
                    "child_process host value is not an object",
                )),
            },
        }
    }
}

fn zigzag(u: u32) -> i32 {
    ((u >> 1) as i32) ^ -((u & 1) as i32)
}

fn int_key(n: i64) -> JsString {
    JsString::Latin1(n.to_string().into_bytes())
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

/// Duplicate lookup for keys: a linear scan while small, then a hash table built once.
#[derive(Default)]
struct Index {
    table: Option<HashMap<u64, Vec<u32>>>,
}

const LINEAR_LIMIT: usize = 16;

impl Index {
    fn find(&self, h: u64, len: usize, eq: impl Fn(usize) -> bool) -> Option<usize> {
        match &self.table {
            None => (0..len).find(|&i| eq(i)),
            Some(t) => t.get(&h)?.iter().map(|&i| i as usize).find(|&i| eq(i)),
        }
    }

    fn insert(&mut self, h: u64, i: usize, hash_of: impl Fn(usize) -> u64) {
        if self.table.is_none() {
            if i < LINEAR_LIMIT {
                return;
            }
            let mut t: HashMap<u64, Vec<u32>> = HashMap::with_capacity(i * 2);
            for j in 0..i {
                t.entry(hash_of(j)).or_default().push(j as u32);
            }
            self.table = Some(t);
        }
        if let Some(t) = &mut self.table {
            t.entry(h).or_default().push(i as u32);
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
            let bits = if n.is_nan() { f64::NAN.to_bits() } else if *n == 0.0 { 0 } else { n.to_bits() };
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
