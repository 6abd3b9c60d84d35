//! The canonical encoder: a [`Graph`] to V8 ValueSerializer v15 bytes (raw dialect).
//!
//! One byte sequence per value (spec/structured-clone.md § Canonical encoder). The walk uses an
//! explicit task stack, so deep values cost heap memory, never native stack; nesting beyond
//! `max_depth` is SC_LIMIT_DEPTH.

use crate::bigint::BigInt;
use crate::error::{Error, ErrorCode};
use crate::string::JsString;
use crate::tags::*;
use crate::value::{Array, Graph, Heap, ObjId, Object, Value};
use std::collections::HashSet;

/// Encoder limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Deepest container nesting written (`max_depth`, default 1000; `u32::MAX` = unlimited).
    pub max_depth: u32,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions { max_depth: 1000 }
    }
}

/// Encodes a value graph with the default options.
pub fn encode(graph: &Graph) -> Result<Vec<u8>, Error> {
    encode_value(&graph.heap, &graph.root, &EncodeOptions::default())
}

/// Encodes a value graph with the given options.
pub fn encode_with(graph: &Graph, options: &EncodeOptions) -> Result<Vec<u8>, Error> {
    encode_value(&graph.heap, &graph.root, options)
}

/// Encodes `root`, whose objects live in `heap`.
pub fn encode_value(heap: &Heap, root: &Value, options: &EncodeOptions) -> Result<Vec<u8>, Error> {
    let mut e = Encoder {
        heap,
        // A guess that covers typical small objects in one allocation.
        out: Vec::with_capacity(64 + heap.len().min(1 << 20) * 32),
        ids: vec![u32::MAX; heap.len()],
        next_id: 0,
        depth: 0,
        max_depth: options.max_depth as usize,
        tasks: Vec::new(),
    };
    e.out.extend_from_slice(&[TAG_VERSION, 15]);
    e.run(root)?;
    Ok(e.out)
}

enum Task<'g> {
    Value(&'g Value),
    /// Properties (already in enumeration order) from position `i` on.
    Props(&'g [(JsString, Value)], usize),
    /// Dense array elements from position `i` on.
    Elems(&'g [(u32, Value)], usize),
    /// Sparse array items (index key, value) from position `i` on.
    Items(&'g [(u32, Value)], usize),
    /// A property key by its string (written as a number when it is an array index).
    Key(&'g JsString),
    /// Closes a container: writes its end tag and counts.
    End(End),
}

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
    /// Wire id per heap object, `u32::MAX` until first visit.
    ids: Vec<u32>,
    next_id: u32,
    depth: usize,
    max_depth: usize,
    tasks: Vec<Task<'g>>,
}

impl<'g> Encoder<'g> {
    fn fail(&self, code: ErrorCode, msg: &'static str) -> Error {
        Error::new(code, self.out.len() as u64, msg)
    }

    fn run(&mut self, root: &'g Value) -> Result<(), Error> {
        self.tasks.push(Task::Value(root));
        while let Some(task) = self.tasks.pop() {
            match task {
                Task::Value(v) => self.write_value(v)?,
                Task::Props(props, i) => self.props_from(props, i)?,
                Task::Elems(items, i) => self.elems_from(items, i)?,
                Task::Items(items, i) => self.items_from(items, i)?,
                Task::Key(k) => self.write_key(k),
                Task::End(end) => {
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
            }
        }
        Ok(())
    }

    // ---- primitives ---------------------------------------------------------------------------

    #[inline]
    fn varint(&mut self, mut v: u32) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn write_number(&mut self, n: f64) {
        // SC-E-03: `I` for integral numbers in int32 range that are not -0, else `N`.
        // `as i32` saturates and maps NaN to 0, so the round trip holds exactly for int32 values.
        let i = n as i32;
        if f64::from(i) == n && !(n == 0.0 && n.is_sign_negative()) {
            self.out.push(TAG_INT32);
            self.varint(((i << 1) ^ (i >> 31)) as u32);
        } else {
            self.out.push(TAG_DOUBLE);
            self.double(n);
        }
    }

    fn double(&mut self, n: f64) {
        let n = if n.is_nan() { f64::NAN } else { n };
        self.out.extend_from_slice(&n.to_le_bytes());
    }

    fn write_index_key(&mut self, i: u32) {
        if i <= i32::MAX as u32 {
            let i = i as i32;
            self.out.push(TAG_INT32);
            self.varint(((i << 1) ^ (i >> 31)) as u32);
        } else {
            self.out.push(TAG_DOUBLE);
            self.double(f64::from(i));
        }
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

    fn write_string(&mut self, s: &JsString) {
        if let Some(b) = s.as_latin1() {
            self.out.push(TAG_ONE_BYTE_STRING);
            self.varint(b.len() as u32);
            self.out.extend_from_slice(b);
            return;
        }
        let u = s.as_utf16().unwrap_or_default();
        if u.iter().all(|&c| c <= 0xFF) {
            self.out.push(TAG_ONE_BYTE_STRING);
            self.varint(u.len() as u32);
            self.out.extend(u.iter().map(|&c| c as u8));
        } else {
            let byte_len = (u.len() * 2) as u32;
            // SC-E-05: V8 pads so that the UTF-16 payload starts at an even offset of the output.
            if (self.out.len() + 1 + varint_len(byte_len)) & 1 == 1 {
                self.out.push(TAG_PADDING);
            }
            self.out.push(TAG_TWO_BYTE_STRING);
            self.varint(byte_len);
            self.out.reserve(u.len() * 2);
            for &c in u {
                self.out.extend_from_slice(&c.to_le_bytes());
            }
        }
    }

    // ---- values -------------------------------------------------------------------------------

    fn write_value(&mut self, v: &'g Value) -> Result<(), Error> {
        match v {
            Value::Undefined => self.out.push(TAG_UNDEFINED),
            Value::Null => self.out.push(TAG_NULL),
            Value::Bool(true) => self.out.push(TAG_TRUE),
            Value::Bool(false) => self.out.push(TAG_FALSE),
            Value::Number(n) => self.write_number(*n),
            Value::BigInt(b) => {
                self.out.push(TAG_BIGINT);
                self.bigint_contents(b)?;
            }
            Value::String(s) => self.write_string(s),
            Value::Object(id) => self.write_object(*id)?,
        }
        Ok(())
    }

    /// Writes `^id` and returns `true` when the object was written before; else assigns its id.
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

    fn open(&mut self) -> Result<(), Error> {
        if self.depth >= self.max_depth {
            return Err(self.fail(ErrorCode::LimitDepth, "nesting deeper than max_depth"));
        }
        self.depth += 1;
        Ok(())
    }

    fn write_object(&mut self, id: ObjId) -> Result<(), Error> {
        let heap = self.heap;
        let Some(obj) = heap.get(id) else {
            return Err(self.fail(ErrorCode::DataClone, "object id not in the heap"));
        };
        if let Object::View(view) = obj {
            // V8 writes a view's buffer first (it takes its id first), unless the view was written before.
            if self.ids.get(id.index()).copied() == Some(u32::MAX) {
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
                self.write_object(view.buffer)?;
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
                let flags = u32::from(view.length_tracking)
                    | (u32::from(buf.max_byte_length.is_some()) << 1);
                self.varint(flags);
                return Ok(());
            }
        }
        if self.visit(id)? {
            return Ok(());
        }
        match obj {
            Object::Plain(props) => {
                self.open()?;
                self.out.push(TAG_BEGIN_JS_OBJECT);
                check_unique_keys(props).map_err(|m| self.fail(ErrorCode::DataClone, m))?;
                self.tasks.push(Task::End(End::Object(props.len() as u32)));
                self.push_props(props);
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
                self.tasks
                    .push(Task::End(End::Map((entries.len() * 2) as u32)));
                for (k, v) in entries.iter().rev() {
                    self.tasks.push(Task::Value(v));
                    self.tasks.push(Task::Value(k));
                }
            }
            Object::Set(values) => {
                self.open()?;
                self.out.push(TAG_BEGIN_JS_SET);
                self.tasks.push(Task::End(End::Set(values.len() as u32)));
                for v in values.iter().rev() {
                    self.tasks.push(Task::Value(v));
                }
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
            Object::ArrayBuffer(buf) => {
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
            }
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
                self.tasks.push(Task::End(End::Error));
                if let Some(cause) = &err.cause {
                    self.out.push(ERROR_CAUSE);
                    self.tasks.push(Task::Value(cause));
                }
            }
        }
        Ok(())
    }

    fn write_array(&mut self, arr: &'g Array) -> Result<(), Error> {
        self.open()?;
        let mut prev: Option<u32> = None;
        for (i, _) in &arr.items {
            if *i >= arr.length || prev.is_some_and(|p| p >= *i) {
                return Err(self.fail(
                    ErrorCode::DataClone,
                    "array items must be ascending and below length",
                ));
            }
            prev = Some(*i);
        }
        check_unique_keys(&arr.props).map_err(|m| self.fail(ErrorCode::DataClone, m))?;
        if arr
            .props
            .iter()
            .any(|(k, _)| k.as_array_index().is_some() || k.eq_ascii(b"length"))
        {
            return Err(self.fail(
                ErrorCode::DataClone,
                "array props must not hold index keys or length",
            ));
        }
        if arr.is_dense() {
            // SC-E-07: hole-free arrays are written dense, any other sparse.
            self.out.push(TAG_BEGIN_DENSE_JS_ARRAY);
            self.varint(arr.length);
            self.tasks
                .push(Task::End(End::Dense(arr.props.len() as u32, arr.length)));
            self.push_props(&arr.props);
            if !arr.items.is_empty() {
                self.tasks.push(Task::Elems(&arr.items, 0));
            }
        } else {
            self.out.push(TAG_BEGIN_SPARSE_JS_ARRAY);
            self.varint(arr.length);
            let n = (arr.items.len() + arr.props.len()) as u32;
            self.tasks.push(Task::End(End::Sparse(n, arr.length)));
            self.push_props(&arr.props);
            if !arr.items.is_empty() {
                self.tasks.push(Task::Items(&arr.items, 0));
            }
        }
        Ok(())
    }

    /// Queues properties in JS enumeration order (array-index keys ascending first).
    fn push_props(&mut self, props: &'g [(JsString, Value)]) {
        if props.is_empty() {
            return;
        }
        if in_enumeration_order(props) {
            self.tasks.push(Task::Props(props, 0));
        } else {
            let mut order: Vec<usize> = (0..props.len()).collect();
            order.sort_by_key(|&i| match props[i].0.as_array_index() {
                Some(n) => (0u8, n, 0),
                None => (1u8, 0, i),
            });
            for &i in order.iter().rev() {
                self.tasks.push(Task::Value(&props[i].1));
                self.tasks.push(Task::Key(&props[i].0));
            }
        }
    }

    #[inline]
    fn write_key(&mut self, k: &JsString) {
        match k.as_array_index() {
            Some(i) => self.write_index_key(i),
            None => self.write_string(k),
        }
    }

    /// Writes properties from `i` on; primitives at once, and at the first object value it queues the
    /// rest behind that object.
    fn props_from(&mut self, props: &'g [(JsString, Value)], mut i: usize) -> Result<(), Error> {
        while let Some((k, v)) = props.get(i) {
            self.write_key(k);
            i += 1;
            if let Value::Object(_) = v {
                if i < props.len() {
                    self.tasks.push(Task::Props(props, i));
                }
                self.tasks.push(Task::Value(v));
                return Ok(());
            }
            self.write_value(v)?;
        }
        Ok(())
    }

    fn elems_from(&mut self, items: &'g [(u32, Value)], mut i: usize) -> Result<(), Error> {
        while let Some((_, v)) = items.get(i) {
            i += 1;
            if let Value::Object(_) = v {
                if i < items.len() {
                    self.tasks.push(Task::Elems(items, i));
                }
                self.tasks.push(Task::Value(v));
                return Ok(());
            }
            self.write_value(v)?;
        }
        Ok(())
    }

    fn items_from(&mut self, items: &'g [(u32, Value)], mut i: usize) -> Result<(), Error> {
        while let Some((index, v)) = items.get(i) {
            self.write_index_key(*index);
            i += 1;
            if let Value::Object(_) = v {
                if i < items.len() {
                    self.tasks.push(Task::Items(items, i));
                }
                self.tasks.push(Task::Value(v));
                return Ok(());
            }
            self.write_value(v)?;
        }
        Ok(())
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

fn in_enumeration_order(props: &[(JsString, Value)]) -> bool {
    let mut last_index: Option<u32> = None;
    let mut seen_name = false;
    for (k, _) in props {
        match k.as_array_index() {
            Some(i) => {
                if seen_name || last_index.is_some_and(|l| l >= i) {
                    return false;
                }
                last_index = Some(i);
            }
            None => seen_name = true,
        }
    }
    true
}

fn check_unique_keys(props: &[(JsString, Value)]) -> Result<(), &'static str> {
    if props.len() <= 16 {
        for i in 1..props.len() {
            if props[..i].iter().any(|(k, _)| *k == props[i].0) {
                return Err("duplicate property key");
            }
        }
        return Ok(());
    }
    let mut seen: HashSet<&JsString> = HashSet::with_capacity(props.len());
    for (k, _) in props {
        if !seen.insert(k) {
            return Err("duplicate property key");
        }
    }
    Ok(())
}
