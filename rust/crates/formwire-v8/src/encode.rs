//! The canonical encoder: a [`Graph`] to V8 ValueSerializer v15 bytes (raw dialect).
//!
//! One byte sequence per value (spec/structured-clone.md § Canonical encoder). The walk uses an
//! explicit task stack, so deep values cost heap memory, never native stack; nesting beyond
//! `max_depth` is SC_LIMIT_DEPTH.

use crate::bigint::BigInt;
use crate::error::{Error, ErrorCode};
use crate::string::JsString;
use crate::tags::*;
use crate::value::{
    Array, ArrayBuffer, Graph, Heap, Item, ObjId, Object, Props, Value, View, push_in,
};
use std::collections::HashSet;

/// Encoder limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Deepest container nesting written (`max_depth`, default 1000; `u32::MAX` = unlimited).
    pub max_depth: u32,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            max_depth: crate::registry::MAX_DEPTH,
        }
    }
}

/// Encodes a value graph with the default options.
#[inline]
pub fn encode(graph: &Graph) -> Result<Vec<u8>, Error> {
    encode_value(&graph.heap, &graph.root, &EncodeOptions::default())
}

/// Encodes a value graph with the given options.
#[inline]
pub fn encode_with(graph: &Graph, options: &EncodeOptions) -> Result<Vec<u8>, Error> {
    encode_value(&graph.heap, &graph.root, options)
}

/// Encodes `root`, whose objects live in `heap`.
pub fn encode_value(heap: &Heap, root: &Value, options: &EncodeOptions) -> Result<Vec<u8>, Error> {
    if let Value::String(s) = root {
        if let Some((len, buf)) = s.inline_parts() {
            // SC-E-05, a short one-byte string (the common small message): header, tag, length
            // and the whole inline buffer in fixed-size copies, then cut back.
            let mut out = Vec::with_capacity(4 + crate::string::INLINE);
            out.extend_from_slice(&[TAG_VERSION, 15, TAG_ONE_BYTE_STRING, len as u8]);
            out.extend_from_slice(buf);
            out.truncate(4 + len);
            return Ok(out);
        }
    }
    let mut out = match root {
        Value::Object(_) | Value::BigInt(_) => Vec::new(),
        // A primitive: one allocation of the size `encode_value_into` reserves.
        _ => Vec::with_capacity(2 + primitive_len(root)),
    };
    encode_value_into(heap, root, options, &mut out)?;
    Ok(out)
}

/// Room for the encoding of a primitive (not an object or a BigInt) after the header.
#[inline]
fn primitive_len(v: &Value) -> usize {
    match v {
        Value::String(s) if s.as_utf16().is_some() => 2 * s.len() + 7,
        // A short string is written as its whole inline buffer, then cut back.
        Value::String(s) => s.len().max(crate::string::INLINE) + 6,
        _ => 9,
    }
}

/// Appends the encoding of a value graph (default options) to `out`, as `serde_json::to_writer` or
/// prost's `encode` do: a caller that reuses one buffer for many values allocates (and, for large
/// values, page-faults) once instead of per value. The bytes appended are exactly what [`encode`]
/// returns; on an error `out` is left as it was, and the error offset counts from where the encoding
/// started.
pub fn encode_into(graph: &Graph, out: &mut Vec<u8>) -> Result<(), Error> {
    encode_value_into(&graph.heap, &graph.root, &EncodeOptions::default(), out)
}

/// [`encode_into`] for `root`, whose objects live in `heap`, with the given options.
pub fn encode_value_into(
    heap: &Heap,
    root: &Value,
    options: &EncodeOptions,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let base = out.len();
    if !matches!(root, Value::Object(_) | Value::BigInt(_)) {
        // A primitive: no walk, no id table, one reservation of the exact size.
        out.reserve(2 + primitive_len(root));
        out.extend_from_slice(&[TAG_VERSION, 15]);
        match root {
            Value::String(s) => string_to(out, base, s),
            Value::Number(n) => number_to(out, *n),
            Value::Bool(true) => out.push(TAG_TRUE),
            Value::Bool(false) => out.push(TAG_FALSE),
            Value::Undefined => out.push(TAG_UNDEFINED),
            _ => out.push(TAG_NULL),
        }
        return Ok(());
    }
    let (_, props, items) = heap.arena_lens();
    // A guess that covers typical small values in one allocation (long strings and buffers grow it
    // once, to their size).
    out.reserve(64 + (heap.len() * 4 + props * 16 + items * 4).min(1 << 24));
    let mut e = Encoder {
        heap,
        out: std::mem::take(out),
        base,
        ids: vec![u32::MAX; heap.len()],
        next_id: 0,
        depth: 0,
        max_depth: options.max_depth as usize,
        // Room for typical nesting, so that they do not grow step by step.
        frames: Vec::with_capacity(16),
        shapes: Vec::with_capacity(8),
    };
    e.out.extend_from_slice(&[TAG_VERSION, 15]);
    let r = e.run(root);
    *out = std::mem::take(&mut e.out);
    if r.is_err() {
        out.truncate(base);
    }
    r
}

/// An open container being written: its entries from `i` on, then (for the frames that carry one)
/// its end tag. The top frame is written until it ends or opens a child container.
enum Frame<'g> {
    /// Properties in enumeration order, then `end`. Keys come from the encoded key list of
    /// `shape` (an index into `Encoder::shapes`) when it is not `NO_SHAPE`.
    Props {
        keys: &'g [JsString],
        values: &'g [Value],
        i: usize,
        shape: u32,
        end: End,
    },
    /// Properties in the order `order` gives (index keys ascending first), then `end`.
    Ordered {
        keys: &'g [JsString],
        values: &'g [Value],
        order: Vec<u32>,
        i: usize,
        end: End,
    },
    /// Dense array elements (the array's `Props` frame is below).
    Elems { items: &'g [Item], i: usize },
    /// Sparse array items, each an index key and a value (the array's `Props` frame is below).
    Sparse { items: &'g [Item], i: usize },
    /// Map keys and values alternately (`i` counts both), then `:`.
    Map {
        entries: &'g [(Value, Value)],
        i: usize,
    },
    /// Set values, then `,`.
    Set { values: &'g [Value], i: usize },
    /// Only the end (an Error after its cause).
    End(End),
    /// One value still to write (an Error's cause: written from the loop, so a chain of causes
    /// never recurses).
    Value(&'g Value),
}

#[derive(Clone, Copy)]
enum End {
    Object(u32),
    Dense(u32, u32),
    Sparse(u32, u32),
    Map(u32),
    Set(u32),
    Error,
}

struct Encoder<'g> {
    heap: &'g Heap,
    out: Vec<u8>,
    /// Where this encoding starts in `out` (`encode_into` appends): offsets count from here.
    base: usize,
    /// Wire id per heap object, `u32::MAX` until first visit.
    ids: Vec<u32>,
    next_id: u32,
    depth: usize,
    max_depth: usize,
    frames: Vec<Frame<'g>>,
    /// Per nesting depth, the key list of the last object written there: checked, and encoded.
    shapes: Vec<KeyShape>,
}

/// A checked key list (no repeats, enumeration order) and its keys' encodings.
struct KeyShape {
    /// The key list (`Props::keys`, length); objects that share it (or a prefix) reuse the encodings.
    keys: u32,
    len: u32,
    /// `enc` is filled (for `len` keys).
    encoded: bool,
    /// No key is an array index: a key without a cached encoding is written as a string.
    no_index: bool,
    /// Each key's encoding (tag, length and bytes; index keys as numbers) when it is short and has
    /// no alignment padding (UTF-16 keys depend on the output offset and are written each time).
    enc: Vec<Option<([u8; KEY_BYTES], u8)>>,
}

/// A key's cached encoding: its bytes (zero-padded) and length.
type KeyEnc = Option<([u8; KEY_BYTES], u8)>;

/// Longest cached key encoding (a 22-unit inline key: tag, length, bytes).
const KEY_BYTES: usize = 24;
const NO_SHAPE: u32 = u32::MAX;

impl<'g> Encoder<'g> {
    fn fail(&self, code: ErrorCode, msg: &'static str) -> Error {
        Error::new(code, (self.out.len() - self.base) as u64, msg)
    }

    /// Writes `root`, then the open containers until none is left; nothing here recurses.
    fn run(&mut self, root: &'g Value) -> Result<(), Error> {
        self.value(root)?;
        loop {
            let n = self.frames.len();
            let Some(top) = self.frames.last_mut() else {
                break;
            };
            match top {
                Frame::Props {
                    keys,
                    values,
                    i,
                    shape,
                    end,
                } => {
                    let (keys, values, mut i, shape, end) = (*keys, *values, *i, *shape, *end);
                    while let Some(v) = values.get(i) {
                        self.write_prop_key(keys, shape, i);
                        i += 1;
                        self.value(v)?;
                        if self.frames.len() > n {
                            break;
                        }
                    }
                    if self.frames.len() > n {
                        if let Frame::Props { i: at, .. } = &mut self.frames[n - 1] {
                            *at = i;
                        }
                    } else {
                        self.frames.pop();
                        self.end(end);
                    }
                }
                Frame::Ordered {
                    keys,
                    values,
                    order,
                    i,
                    end,
                } => {
                    let (keys, values, end) = (*keys, *values, *end);
                    match order.get(*i).copied() {
                        Some(p) => {
                            *i += 1;
                            self.write_key(&keys[p as usize]);
                            self.value(&values[p as usize])?;
                        }
                        None => {
                            self.frames.pop();
                            self.end(end);
                        }
                    }
                }
                Frame::Elems { items, i } => {
                    let (items, mut i) = (*items, *i);
                    while let Some((_, v)) = items.get(i) {
                        i += 1;
                        self.value(v)?;
                        if self.frames.len() > n {
                            break;
                        }
                    }
                    if self.frames.len() > n {
                        if let Frame::Elems { i: at, .. } = &mut self.frames[n - 1] {
                            *at = i;
                        }
                    } else {
                        self.frames.pop();
                    }
                }
                Frame::Sparse { items, i } => {
                    let (items, mut i) = (*items, *i);
                    while let Some((index, v)) = items.get(i) {
                        i += 1;
                        self.write_index_key(*index);
                        self.value(v)?;
                        if self.frames.len() > n {
                            break;
                        }
                    }
                    if self.frames.len() > n {
                        if let Frame::Sparse { i: at, .. } = &mut self.frames[n - 1] {
                            *at = i;
                        }
                    } else {
                        self.frames.pop();
                    }
                }
                Frame::Map { entries, i } => {
                    let entries = *entries;
                    match entries.get(*i / 2) {
                        Some((k, v)) => {
                            let which = *i % 2;
                            *i += 1;
                            self.value(if which == 0 { k } else { v })?;
                        }
                        None => {
                            self.frames.pop();
                            self.end(End::Map((entries.len() * 2) as u32));
                        }
                    }
                }
                Frame::Set { values, i } => {
                    let values = *values;
                    match values.get(*i) {
                        Some(v) => {
                            *i += 1;
                            self.value(v)?;
                        }
                        None => {
                            self.frames.pop();
                            self.end(End::Set(values.len() as u32));
                        }
                    }
                }
                Frame::End(end) => {
                    let end = *end;
                    self.frames.pop();
                    self.end(end);
                }
                Frame::Value(v) => {
                    let v = *v;
                    self.frames.pop();
                    self.value(v)?;
                }
            }
        }
        Ok(())
    }

    /// Closes a container: its end tag and counts.
    #[inline(always)]
    fn end(&mut self, end: End) {
        self.depth -= 1;
        match end {
            End::Object(n) => {
                self.out.push(TAG_END_JS_OBJECT);
                self.varint(n);
            }
            End::Dense(n, len) => {
                self.out.push(TAG_END_DENSE_JS_ARRAY);
                self.varint(n);
                self.varint(len);
            }
            End::Sparse(n, len) => {
                self.out.push(TAG_END_SPARSE_JS_ARRAY);
                self.varint(n);
                self.varint(len);
            }
            End::Map(n) => {
                self.out.push(TAG_END_JS_MAP);
                self.varint(n);
            }
            End::Set(n) => {
                self.out.push(TAG_END_JS_SET);
                self.varint(n);
            }
            End::Error => self.out.push(ERROR_END),
        }
    }

    // ---- primitives ---------------------------------------------------------------------------

    #[inline]
    fn varint(&mut self, v: u32) {
        varint_to(&mut self.out, v);
    }

    #[inline(always)]
    fn write_number(&mut self, n: f64) {
        number_to(&mut self.out, n);
    }

    fn double(&mut self, n: f64) {
        double_to(&mut self.out, n);
    }

    fn write_index_key(&mut self, i: u32) {
        index_key_to(&mut self.out, i);
    }

    fn bigint_contents(&mut self, b: &BigInt) -> Result<(), Error> {
        let mag = b.magnitude_le();
        // SC-E-04: digits in 8-byte multiples, as V8 writes them.
        let padded = mag.len().div_ceil(8) * 8;
        if padded > 0x3FFF_FFFF {
            return Err(self.fail(ErrorCode::DataClone, "BigInt too large"));
        }
        let bitfield = ((padded as u32) << 1) | u32::from(b.is_negative());
        self.varint(bitfield);
        self.out.extend_from_slice(mag);
        self.out.resize(self.out.len() + (padded - mag.len()), 0);
        Ok(())
    }

    /// SC-E-05.
    #[inline]
    fn write_string(&mut self, s: &JsString) {
        string_to(&mut self.out, self.base, s);
    }

    // ---- values -------------------------------------------------------------------------------

    /// Writes a value; an object that opens a container pushes its frames instead of writing them.
    #[inline(always)]
    fn value(&mut self, v: &'g Value) -> Result<(), Error> {
        match v {
            Value::String(s) => self.write_string(s),
            Value::Number(n) => self.write_number(*n),
            Value::Object(id) => self.write_object(*id)?,
            Value::Bool(true) => self.out.push(TAG_TRUE),
            Value::Bool(false) => self.out.push(TAG_FALSE),
            Value::Undefined => self.out.push(TAG_UNDEFINED),
            Value::Null => self.out.push(TAG_NULL),
            Value::BigInt(b) => {
                self.out.push(TAG_BIGINT);
                self.bigint_contents(b)?;
            }
        }
        Ok(())
    }

    /// Writes a value that is not an object.
    #[inline(always)]
    fn primitive(&mut self, v: &Value) -> Result<(), Error> {
        match v {
            Value::String(s) => self.write_string(s),
            Value::Number(n) => self.write_number(*n),
            Value::Bool(true) => self.out.push(TAG_TRUE),
            Value::Bool(false) => self.out.push(TAG_FALSE),
            Value::Undefined => self.out.push(TAG_UNDEFINED),
            Value::Null => self.out.push(TAG_NULL),
            Value::BigInt(b) => {
                self.out.push(TAG_BIGINT);
                self.bigint_contents(b)?;
            }
            Value::Object(_) => unreachable!("objects are written by `value`"),
        }
        Ok(())
    }

    /// Writes `^id` and returns `true` when the object was written before; else assigns its id.
    #[inline]
    fn visit(&mut self, id: ObjId) -> Result<bool, Error> {
        let Some(slot) = self.ids.get(id.index()).copied() else {
            return Err(self.fail(ErrorCode::DataClone, "object id not in the heap"));
        };
        if slot != u32::MAX {
            self.out.push(TAG_OBJECT_REFERENCE);
            self.varint(slot);
            return Ok(true);
        }
        self.ids[id.index()] = self.next_id;
        self.next_id += 1;
        Ok(false)
    }

    /// SC-E-14: a container may open at level `depth + 1` only within `max_depth`.
    #[inline]
    fn open(&mut self) -> Result<(), Error> {
        if self.depth >= self.max_depth {
            return Err(self.fail(ErrorCode::LimitDepth, "nesting deeper than max_depth"));
        }
        self.depth += 1;
        Ok(())
    }

    fn props_of(&self, props: Props) -> Result<(&'g [JsString], &'g [Value]), Error> {
        let heap = self.heap;
        match (heap.get_keys(props), heap.get_values(props)) {
            (Some(k), Some(v)) => Ok((k, v)),
            _ => Err(self.fail(ErrorCode::DataClone, "properties outside the heap")),
        }
    }

    fn write_object(&mut self, id: ObjId) -> Result<(), Error> {
        let heap = self.heap;
        let Some(obj) = heap.get(id) else {
            return Err(self.fail(ErrorCode::DataClone, "object id not in the heap"));
        };
        if let Object::View(view) = obj {
            if self.ids.get(id.index()).copied() == Some(u32::MAX) {
                return self.write_view(id, view);
            }
        }
        if self.visit(id)? {
            return Ok(());
        }
        match obj {
            Object::Plain(props) => {
                // SC-E-06
                let (keys, values) = self.props_of(*props)?;
                self.open()?;
                self.out.push(TAG_BEGIN_JS_OBJECT);
                let end = End::Object(keys.len() as u32);
                match self.checked_shape(*props, keys)? {
                    Some(shape) => self.props_inline(keys, values, shape, end)?,
                    None => self.push_props(keys, values, end, None),
                }
            }
            Object::Array(arr) => self.write_array(arr)?,
            Object::Date(t) => {
                self.out.push(TAG_DATE);
                self.double(*t);
            }
            Object::RegExp { source, flags } => {
                self.out.push(TAG_REGEXP);
                self.write_string(source);
                self.varint(flags.0);
            }
            Object::Map(entries) => {
                self.open()?;
                self.out.push(TAG_BEGIN_JS_MAP);
                push_in(&mut self.frames, Frame::Map { entries, i: 0 });
            }
            Object::Set(values) => {
                self.open()?;
                self.out.push(TAG_BEGIN_JS_SET);
                push_in(&mut self.frames, Frame::Set { values, i: 0 });
            }
            Object::BooleanObject(b) => self.out.push(if *b {
                TAG_TRUE_OBJECT
            } else {
                TAG_FALSE_OBJECT
            }),
            Object::NumberObject(n) => {
                self.out.push(TAG_NUMBER_OBJECT);
                self.double(*n);
            }
            Object::BigIntObject(b) => {
                self.out.push(TAG_BIGINT_OBJECT);
                self.bigint_contents(b)?;
            }
            Object::StringObject(s) => {
                self.out.push(TAG_STRING_OBJECT);
                self.write_string(s);
            }
            Object::ArrayBuffer(buf) => self.write_buffer(buf)?,
            Object::View(_) => unreachable!("views are written above"),
            Object::Error(err) => {
                self.open()?;
                self.out.push(TAG_ERROR);
                if let Some(sub) = err.name.subtag() {
                    self.out.push(sub);
                }
                if let Some(m) = &err.message {
                    self.out.push(ERROR_MESSAGE);
                    self.write_string(m);
                }
                if let Some(stack) = &err.stack {
                    self.out.push(ERROR_STACK);
                    self.write_string(stack);
                }
                match &err.cause {
                    Some(cause) => {
                        push_in(&mut self.frames, Frame::End(End::Error));
                        self.out.push(ERROR_CAUSE);
                        push_in(&mut self.frames, Frame::Value(cause));
                    }
                    None => self.end(End::Error),
                }
            }
        }
        Ok(())
    }

    fn write_buffer(&mut self, buf: &ArrayBuffer) -> Result<(), Error> {
        if buf.data.len() > u32::MAX as usize {
            return Err(self.fail(ErrorCode::DataClone, "ArrayBuffer longer than 2^32-1"));
        }
        match buf.max_byte_length {
            None => {
                self.out.push(TAG_ARRAY_BUFFER);
                self.varint(buf.data.len() as u32);
            }
            Some(max) => {
                if (max as usize) < buf.data.len() {
                    return Err(self.fail(
                        ErrorCode::DataClone,
                        "resizable buffer longer than its maximum",
                    ));
                }
                self.out.push(TAG_RESIZABLE_ARRAY_BUFFER);
                self.varint(buf.data.len() as u32);
                self.varint(max);
            }
        }
        self.out.extend_from_slice(&buf.data);
        Ok(())
    }

    /// SC-E-12: V8 writes a view's buffer first (it takes its id first), unless it was written before.
    fn write_view(&mut self, id: ObjId, view: &View) -> Result<(), Error> {
        let heap = self.heap;
        let Some(Object::ArrayBuffer(buf)) = heap.get(view.buffer) else {
            return Err(self.fail(
                ErrorCode::DataClone,
                "view over something that is not an ArrayBuffer",
            ));
        };
        let size = view.kind.element_size();
        let end = u64::from(view.byte_offset) + u64::from(view.byte_length);
        if end > buf.data.len() as u64
            || view.byte_offset % size != 0
            || view.byte_length % size != 0
            || (view.length_tracking && buf.max_byte_length.is_none())
        {
            return Err(self.fail(
                ErrorCode::DataClone,
                "view out of bounds, misaligned or not over a resizable buffer",
            ));
        }
        // The buffer is a leaf: written here, or `^` to it.
        if !self.visit(view.buffer)? {
            self.write_buffer(buf)?;
        }
        self.visit(id)?;
        self.out.push(TAG_ARRAY_BUFFER_VIEW);
        self.out.push(view.kind.subtag());
        self.varint(view.byte_offset);
        // SC-E-12: a length-tracking view stores no length of its own (V8 writes 0).
        self.varint(if view.length_tracking {
            0
        } else {
            view.byte_length
        });
        let flags =
            u32::from(view.length_tracking) | (u32::from(buf.max_byte_length.is_some()) << 1);
        self.varint(flags);
        Ok(())
    }

    fn write_array(&mut self, arr: &Array) -> Result<(), Error> {
        let heap = self.heap;
        let (Some(items), Some(keys), Some(values)) = (
            heap.get_items(arr.items),
            heap.get_keys(arr.props),
            heap.get_values(arr.props),
        ) else {
            return Err(self.fail(ErrorCode::DataClone, "array span outside the heap"));
        };
        self.open()?;
        let mut prev: Option<u32> = None;
        for (i, _) in items {
            if *i >= arr.length || prev.is_some_and(|p| p >= *i) {
                return Err(self.fail(
                    ErrorCode::DataClone,
                    "array items must be ascending and below length",
                ));
            }
            prev = Some(*i);
        }
        // Array properties hold no index keys, so they are always in enumeration order.
        check_keys(keys, true).map_err(|m| self.fail(ErrorCode::DataClone, m))?;
        if items.len() as u64 == u64::from(arr.length) {
            // SC-E-07: hole-free arrays are written dense, any other sparse.
            self.out.push(TAG_BEGIN_DENSE_JS_ARRAY);
            self.varint(arr.length);
            let end = End::Dense(keys.len() as u32, arr.length);
            self.push_props(keys, values, end, Some(NO_SHAPE));
            if !items.is_empty() {
                push_in(&mut self.frames, Frame::Elems { items, i: 0 });
            }
        } else {
            self.out.push(TAG_BEGIN_SPARSE_JS_ARRAY);
            self.varint(arr.length);
            let n = (items.len() + keys.len()) as u32;
            self.push_props(keys, values, End::Sparse(n, arr.length), Some(NO_SHAPE));
            if !items.is_empty() {
                push_in(&mut self.frames, Frame::Sparse { items, i: 0 });
            }
        }
        Ok(())
    }

    /// The key list of a plain object at the current depth, checked (SC_DATA_CLONE for a repeated
    /// key): `Some(shape)` when it is in enumeration order (`shape` is its cache slot, or `NO_SHAPE`),
    /// `None` when it has to be reordered. A list (or a prefix of one) checked and encoded for the
    /// previous object at this depth is taken as it is.
    #[inline]
    fn checked_shape(&mut self, props: Props, keys: &[JsString]) -> Result<Option<u32>, Error> {
        let d = self.depth;
        if let Some(sh) = self.shapes.get(d) {
            if sh.keys == props.keys && props.len <= sh.len {
                if !sh.encoded {
                    self.encode_shape(d, props);
                }
                return Ok(Some(d as u32));
            }
        }
        self.check_shape(props, keys)
    }

    /// The key list cached at depth `d` is used a second time: its keys are worth encoding once.
    #[inline(never)]
    fn encode_shape(&mut self, d: usize, props: Props) {
        let heap = self.heap;
        if let Some(sh) = self.shapes.get_mut(d) {
            sh.encoded = true;
            let all = heap.get_keys(Props {
                len: sh.len,
                ..props
            });
            sh.enc.extend(all.unwrap_or(&[]).iter().map(encode_key));
        }
    }

    /// [`Encoder::checked_shape`] for a key list not cached at this depth.
    #[inline(never)]
    fn check_shape(&mut self, props: Props, keys: &[JsString]) -> Result<Option<u32>, Error> {
        let d = self.depth;
        let (ordered, has_index) =
            check_keys(keys, false).map_err(|m| self.fail(ErrorCode::DataClone, m))?;
        if !ordered {
            return Ok(None);
        }
        if keys.len() > 64 {
            return Ok(Some(NO_SHAPE));
        }
        if self.shapes.len() <= d {
            self.shapes.resize_with(d + 1, || KeyShape {
                keys: u32::MAX,
                len: 0,
                encoded: false,
                no_index: false,
                enc: Vec::new(),
            });
        }
        // The level's previous list is overwritten in place (its vector reused). Its keys are
        // encoded when a second object uses it: many lists (nested configuration objects) have
        // one object only, which writes its keys directly.
        let shape = &mut self.shapes[d];
        shape.keys = props.keys;
        shape.len = props.len;
        shape.encoded = false;
        shape.no_index = !has_index;
        shape.enc.clear();
        Ok(Some(d as u32))
    }

    /// Queues properties (checked), then `end`: in the order given when `shape` is `Some` (in
    /// enumeration order already), else sorted into it (array-index keys ascending first). Inlined:
    /// `end` built by the caller and read back from memory here would stall on store forwarding.
    #[inline(always)]
    fn push_props(
        &mut self,
        keys: &'g [JsString],
        values: &'g [Value],
        end: End,
        shape: Option<u32>,
    ) {
        if let Some(shape) = shape {
            push_in(
                &mut self.frames,
                Frame::Props {
                    keys,
                    values,
                    i: 0,
                    shape,
                    end,
                },
            );
            return;
        }
        let mut order: Vec<u32> = (0..keys.len() as u32).collect();
        order.sort_by_key(|&i| match keys[i as usize].as_array_index() {
            Some(n) => (0u8, n, 0),
            None => (1u8, 0, i),
        });
        push_in(
            &mut self.frames,
            Frame::Ordered {
                keys,
                values,
                order,
                i: 0,
                end,
            },
        );
    }

    /// Writes properties in the order given, then `end`, without a frame as long as the values are
    /// not objects; at the first object value the rest goes to a frame and the object to another
    /// one above it (written by the loop in [`Encoder::run`], so nothing recurses).
    #[inline]
    fn props_inline(
        &mut self,
        keys: &'g [JsString],
        values: &'g [Value],
        shape: u32,
        end: End,
    ) -> Result<(), Error> {
        let Encoder {
            out,
            base,
            shapes,
            frames,
            ..
        } = &mut *self;
        let base = *base;
        let (enc, no_index): (&[KeyEnc], bool) = shapes
            .get(shape as usize)
            .map_or((&[], false), |sh| (&sh.enc[..], sh.no_index));
        for (i, v) in values.iter().enumerate() {
            match enc.get(i) {
                Some(Some((bytes, len))) => {
                    // The cached encoding: one fixed-size copy, then cut back to the real length.
                    let at = out.len();
                    out.extend_from_slice(bytes);
                    out.truncate(at + *len as usize);
                }
                _ if no_index => string_to(out, base, &keys[i]),
                _ => key_to(out, base, &keys[i]),
            }
            match v {
                Value::String(s) => string_to(out, base, s),
                Value::Number(n) => number_to(out, *n),
                Value::Bool(true) => out.push(TAG_TRUE),
                Value::Bool(false) => out.push(TAG_FALSE),
                Value::Undefined => out.push(TAG_UNDEFINED),
                Value::Null => out.push(TAG_NULL),
                Value::BigInt(_) => {
                    // Rare, and its error needs the encoder: the rest of the list goes the slow way.
                    self.primitive(v)?;
                    return self.props_rest(keys, values, i + 1, shape, end);
                }
                Value::Object(_) => {
                    suspend_props(frames, keys, values, i, shape, end, v);
                    return Ok(());
                }
            }
        }
        self.end(end);
        Ok(())
    }

    /// The rest of [`Encoder::props_inline`] after a BigInt.
    #[inline(never)]
    fn props_rest(
        &mut self,
        keys: &'g [JsString],
        values: &'g [Value],
        from: usize,
        shape: u32,
        end: End,
    ) -> Result<(), Error> {
        for (i, v) in values.iter().enumerate().skip(from) {
            self.write_prop_key(keys, shape, i);
            if let Value::Object(_) = v {
                suspend_props(&mut self.frames, keys, values, i, shape, end, v);
                return Ok(());
            }
            self.primitive(v)?;
        }
        self.end(end);
        Ok(())
    }

    /// Writes key `i` of a property list: its cached encoding (one fixed-size copy, then the output
    /// is cut back to the real length) or the key itself.
    #[inline]
    fn write_prop_key(&mut self, keys: &[JsString], shape: u32, i: usize) {
        if let Some(Some((bytes, len))) =
            self.shapes.get(shape as usize).and_then(|sh| sh.enc.get(i))
        {
            let at = self.out.len();
            self.out.extend_from_slice(bytes);
            self.out.truncate(at + *len as usize);
            return;
        }
        self.write_key(&keys[i]);
    }

    #[inline]
    fn write_key(&mut self, k: &JsString) {
        key_to(&mut self.out, self.base, k);
    }
}

#[inline]
fn varint_to(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// SC-E-03: `I` for integral numbers in int32 range that are not -0, else `N`.
#[inline(always)]
fn number_to(out: &mut Vec<u8>, n: f64) {
    // `as i32` saturates and maps NaN to 0, so the round trip holds exactly for int32 values.
    let i = n as i32;
    if f64::from(i) == n && !(n == 0.0 && n.is_sign_negative()) {
        out.push(TAG_INT32);
        varint_to(out, ((i << 1) ^ (i >> 31)) as u32);
    } else {
        out.push(TAG_DOUBLE);
        double_to(out, n);
    }
}

fn double_to(out: &mut Vec<u8>, n: f64) {
    let n = if n.is_nan() { f64::NAN } else { n };
    out.extend_from_slice(&n.to_le_bytes());
}

fn index_key_to(out: &mut Vec<u8>, i: u32) {
    if i <= i32::MAX as u32 {
        let i = i as i32;
        out.push(TAG_INT32);
        varint_to(out, ((i << 1) ^ (i >> 31)) as u32);
    } else {
        out.push(TAG_DOUBLE);
        double_to(out, f64::from(i));
    }
}

/// A property key (SC-E-06): an array index as a number, else the string.
#[inline]
fn key_to(out: &mut Vec<u8>, base: usize, k: &JsString) {
    match k.as_array_index() {
        Some(i) => index_key_to(out, i),
        None => string_to(out, base, k),
    }
}

/// SC-E-05. A short one-byte string: tag, length and the whole fixed-size buffer in one copy, then
/// the output is cut back to the real length.
#[inline(always)]
fn string_to(out: &mut Vec<u8>, base: usize, s: &JsString) {
    if let Some((len, buf)) = s.inline_parts() {
        let at = out.len();
        out.reserve(2 + buf.len());
        out.push(TAG_ONE_BYTE_STRING);
        out.push(len as u8);
        out.extend_from_slice(buf);
        out.truncate(at + 2 + len);
        return;
    }
    long_string_to(out, base, s);
}

/// SC-E-05 for strings not stored inline.
#[inline(never)]
fn long_string_to(out: &mut Vec<u8>, base: usize, s: &JsString) {
    if let Some(b) = s.as_latin1() {
        out.push(TAG_ONE_BYTE_STRING);
        varint_to(out, b.len() as u32);
        out.extend_from_slice(b);
        return;
    }
    let u = s.as_utf16().unwrap_or_default();
    if u.iter().all(|&c| c <= 0xFF) {
        out.push(TAG_ONE_BYTE_STRING);
        varint_to(out, u.len() as u32);
        out.extend(u.iter().map(|&c| c as u8));
    } else {
        let byte_len = (u.len() * 2) as u32;
        // SC-E-05: V8 pads so that the UTF-16 payload starts at an even offset of the output.
        if (out.len() - base + 1 + varint_len(byte_len)) & 1 == 1 {
            out.push(TAG_PADDING);
        }
        out.push(TAG_TWO_BYTE_STRING);
        varint_to(out, byte_len);
        out.reserve(u.len() * 2);
        for &c in u {
            out.extend_from_slice(&c.to_le_bytes());
        }
    }
}

/// The encoding of a property key (SC-E-05/06: an index key as a number, else the string), when it
/// is position-independent and fits `KEY_BYTES` (one-byte strings and numbers).
fn encode_key(k: &JsString) -> Option<([u8; KEY_BYTES], u8)> {
    let mut e = [0u8; KEY_BYTES];
    if let Some(i) = k.as_array_index() {
        // As `index_key_to` writes it.
        if i <= i32::MAX as u32 {
            e[0] = TAG_INT32;
            let mut z = i << 1; // zigzag of a non-negative int32
            let mut n = 1;
            while z >= 0x80 {
                e[n] = (z as u8) | 0x80;
                z >>= 7;
                n += 1;
            }
            e[n] = z as u8;
            return Some((e, n as u8 + 1));
        }
        e[0] = TAG_DOUBLE;
        e[1..9].copy_from_slice(&f64::from(i).to_le_bytes());
        return Some((e, 9));
    }
    let len = k.len();
    if len > KEY_BYTES - 2 {
        return None;
    }
    e[0] = TAG_ONE_BYTE_STRING;
    e[1] = len as u8;
    if let Some((_, buf)) = k.inline_parts() {
        e[2..].copy_from_slice(buf); // zero-padded: one fixed-size copy
    } else {
        for (d, u) in e[2..].iter_mut().zip(k.units()) {
            *d = u8::try_from(u).ok()?;
        }
    }
    Some((e, len as u8 + 2))
}

/// Checks property keys: no repeats (and for an array no index key and no `length`). `Ok(true)` when
/// they are already in enumeration order (index keys ascending, before the others).
fn check_keys(keys: &[JsString], array: bool) -> Result<(bool, bool), &'static str> {
    let mut last_index: Option<u32> = None;
    let mut seen_name = false;
    let mut ordered = true;
    for k in keys {
        match k.as_array_index() {
            Some(i) => {
                if array {
                    return Err("array props must not hold index keys or length");
                }
                if seen_name || last_index.is_some_and(|l| l >= i) {
                    ordered = false;
                }
                last_index = Some(i);
            }
            None => {
                if array && k.eq_ascii(b"length") {
                    return Err("array props must not hold index keys or length");
                }
                seen_name = true;
            }
        }
    }
    if keys.len() <= 16 {
        // Pairs are compared by a word each (length and first bytes) and in full only when those
        // agree.
        let mut fp = [0u64; 16];
        for (f, k) in fp.iter_mut().zip(keys) {
            *f = fingerprint(k);
        }
        for i in 1..keys.len() {
            for j in 0..i {
                if fp[i] == fp[j] && keys[i] == keys[j] {
                    return Err("duplicate property key");
                }
            }
        }
    } else {
        let mut seen: HashSet<&JsString> = HashSet::with_capacity(keys.len());
        for k in keys {
            if !seen.insert(k) {
                return Err("duplicate property key");
            }
        }
    }
    Ok((ordered, last_index.is_some()))
}

/// A word that equal strings share: the length and, for a short one-byte string, its first bytes.
#[inline]
fn fingerprint(k: &JsString) -> u64 {
    match k.inline_parts() {
        Some((len, buf)) => {
            let mut w = [0u8; 8];
            w.copy_from_slice(&buf[..8]);
            u64::from_le_bytes(w) ^ ((len as u64) << 59)
        }
        None => k.len() as u64,
    }
}

fn varint_len(mut v: u32) -> usize {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

/// Stops a frame-less property list at value `i`, the object `v`: the rest of the list goes to a `Props`
/// frame and the object to a frame above it, for the loop in [`Encoder::run`] (nothing recurses).
#[inline(always)]
fn suspend_props<'g>(
    frames: &mut Vec<Frame<'g>>,
    keys: &'g [JsString],
    values: &'g [Value],
    i: usize,
    shape: u32,
    end: End,
    v: &'g Value,
) {
    push_in(
        frames,
        Frame::Props {
            keys,
            values,
            i: i + 1,
            shape,
            end,
        },
    );
    push_in(frames, Frame::Value(v));
}
