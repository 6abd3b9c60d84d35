//! The value model: primitives inline, objects in a [`Heap`] addressed by [`ObjId`], so identity,
//! shared references and cycles are kept exactly as JavaScript has them.

use crate::bigint::BigInt;
use crate::string::JsString;
use std::collections::HashMap;

/// The index of an object in its [`Heap`]. Two values are the same JS object when their ids are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId(pub u32);

impl ObjId {
    /// The heap index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A JavaScript value: a primitive, or a reference to an object in the [`Heap`].
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// `undefined`
    #[default]
    Undefined,
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number (IEEE double; `-0` and NaN are kept, NaN is the canonical quiet NaN after decoding).
    Number(f64),
    /// A BigInt.
    BigInt(BigInt),
    /// A string (UTF-16 code units, lone surrogates allowed).
    String(JsString),
    /// An object: its id in the heap.
    Object(ObjId),
}

impl Value {
    /// A string value from Rust text.
    pub fn str(s: &str) -> Value {
        Value::String(JsString::from_str(s))
    }

    /// The object id, if the value is an object.
    pub fn as_object(&self) -> Option<ObjId> {
        match self {
            Value::Object(id) => Some(*id),
            _ => None,
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<f64> for Value {
    fn from(n: f64) -> Value {
        Value::Number(n)
    }
}
impl From<i32> for Value {
    fn from(n: i32) -> Value {
        Value::Number(f64::from(n))
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::str(s)
    }
}
impl From<JsString> for Value {
    fn from(s: JsString) -> Value {
        Value::String(s)
    }
}
impl From<BigInt> for Value {
    fn from(b: BigInt) -> Value {
        Value::BigInt(b)
    }
}
impl From<ObjId> for Value {
    fn from(id: ObjId) -> Value {
        Value::Object(id)
    }
}

/// The kind of an `ArrayBuffer` view: the constructor name in JS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViewKind {
    /// `Int8Array`
    Int8Array,
    /// `Uint8Array` (also what Node's `Buffer` host type reads as)
    Uint8Array,
    /// `Uint8ClampedArray`
    Uint8ClampedArray,
    /// `Int16Array`
    Int16Array,
    /// `Uint16Array`
    Uint16Array,
    /// `Int32Array`
    Int32Array,
    /// `Uint32Array`
    Uint32Array,
    /// `Float16Array`
    Float16Array,
    /// `Float32Array`
    Float32Array,
    /// `Float64Array`
    Float64Array,
    /// `BigInt64Array`
    BigInt64Array,
    /// `BigUint64Array`
    BigUint64Array,
    /// `DataView`
    DataView,
}

impl ViewKind {
    /// Every kind.
    pub const ALL: [ViewKind; 13] = [
        ViewKind::Int8Array,
        ViewKind::Uint8Array,
        ViewKind::Uint8ClampedArray,
        ViewKind::Int16Array,
        ViewKind::Uint16Array,
        ViewKind::Int32Array,
        ViewKind::Uint32Array,
        ViewKind::Float16Array,
        ViewKind::Float32Array,
        ViewKind::Float64Array,
        ViewKind::BigInt64Array,
        ViewKind::BigUint64Array,
        ViewKind::DataView,
    ];

    /// The JS constructor name, e.g. `"Uint8Array"`.
    pub const fn name(self) -> &'static str {
        match self {
            ViewKind::Int8Array => "Int8Array",
            ViewKind::Uint8Array => "Uint8Array",
            ViewKind::Uint8ClampedArray => "Uint8ClampedArray",
            ViewKind::Int16Array => "Int16Array",
            ViewKind::Uint16Array => "Uint16Array",
            ViewKind::Int32Array => "Int32Array",
            ViewKind::Uint32Array => "Uint32Array",
            ViewKind::Float16Array => "Float16Array",
            ViewKind::Float32Array => "Float32Array",
            ViewKind::Float64Array => "Float64Array",
            ViewKind::BigInt64Array => "BigInt64Array",
            ViewKind::BigUint64Array => "BigUint64Array",
            ViewKind::DataView => "DataView",
        }
    }

    /// The kind for a constructor name.
    pub fn from_name(name: &str) -> Option<ViewKind> {
        ViewKind::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Bytes per element (1 for `DataView`).
    pub const fn element_size(self) -> u32 {
        match self {
            ViewKind::Int8Array
            | ViewKind::Uint8Array
            | ViewKind::Uint8ClampedArray
            | ViewKind::DataView => 1,
            ViewKind::Int16Array | ViewKind::Uint16Array | ViewKind::Float16Array => 2,
            ViewKind::Int32Array | ViewKind::Uint32Array | ViewKind::Float32Array => 4,
            ViewKind::Float64Array | ViewKind::BigInt64Array | ViewKind::BigUint64Array => 8,
        }
    }

    /// The `V` subtag byte of the raw V8 dialect.
    pub const fn subtag(self) -> u8 {
        match self {
            ViewKind::Int8Array => b'b',
            ViewKind::Uint8Array => b'B',
            ViewKind::Uint8ClampedArray => b'C',
            ViewKind::Int16Array => b'w',
            ViewKind::Uint16Array => b'W',
            ViewKind::Int32Array => b'd',
            ViewKind::Uint32Array => b'D',
            ViewKind::Float16Array => b'h',
            ViewKind::Float32Array => b'f',
            ViewKind::Float64Array => b'F',
            ViewKind::BigInt64Array => b'q',
            ViewKind::BigUint64Array => b'Q',
            ViewKind::DataView => b'?',
        }
    }

    /// The kind for a `V` subtag byte.
    pub fn from_subtag(b: u8) -> Option<ViewKind> {
        ViewKind::ALL.iter().copied().find(|k| k.subtag() == b)
    }

    /// The kind for a Node `v8.serialize` host-object type index (10, Node's `Buffer`, reads as `Uint8Array`).
    pub fn from_node_index(i: u32) -> Option<ViewKind> {
        Some(match i {
            0 => ViewKind::Int8Array,
            1 | 10 => ViewKind::Uint8Array,
            2 => ViewKind::Uint8ClampedArray,
            3 => ViewKind::Int16Array,
            4 => ViewKind::Uint16Array,
            5 => ViewKind::Int32Array,
            6 => ViewKind::Uint32Array,
            7 => ViewKind::Float32Array,
            8 => ViewKind::Float64Array,
            9 => ViewKind::DataView,
            11 => ViewKind::BigInt64Array,
            12 => ViewKind::BigUint64Array,
            13 => ViewKind::Float16Array,
            _ => return None,
        })
    }
}

/// The constructor of an Error object (the prototype subtag of the `r` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorName {
    /// `Error` (no prototype subtag)
    Error,
    /// `EvalError` (`E`)
    EvalError,
    /// `RangeError` (`R`)
    RangeError,
    /// `ReferenceError` (`F`)
    ReferenceError,
    /// `SyntaxError` (`S`)
    SyntaxError,
    /// `TypeError` (`T`)
    TypeError,
    /// `URIError` (`U`)
    UriError,
}

impl ErrorName {
    /// The JS name, e.g. `"RangeError"`.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorName::Error => "Error",
            ErrorName::EvalError => "EvalError",
            ErrorName::RangeError => "RangeError",
            ErrorName::ReferenceError => "ReferenceError",
            ErrorName::SyntaxError => "SyntaxError",
            ErrorName::TypeError => "TypeError",
            ErrorName::UriError => "URIError",
        }
    }

    /// The error name for a JS `name` (anything unknown is `Error`, as HTML structured serialization does).
    pub fn from_name(name: &str) -> ErrorName {
        match name {
            "EvalError" => ErrorName::EvalError,
            "RangeError" => ErrorName::RangeError,
            "ReferenceError" => ErrorName::ReferenceError,
            "SyntaxError" => ErrorName::SyntaxError,
            "TypeError" => ErrorName::TypeError,
            "URIError" => ErrorName::UriError,
            _ => ErrorName::Error,
        }
    }

    /// The prototype subtag byte, `None` for plain `Error`.
    pub const fn subtag(self) -> Option<u8> {
        match self {
            ErrorName::Error => None,
            ErrorName::EvalError => Some(b'E'),
            ErrorName::RangeError => Some(b'R'),
            ErrorName::ReferenceError => Some(b'F'),
            ErrorName::SyntaxError => Some(b'S'),
            ErrorName::TypeError => Some(b'T'),
            ErrorName::UriError => Some(b'U'),
        }
    }
}

/// RegExp flags as V8 stores them (`src/regexp/regexp-flags.h`): g=1 i=2 m=4 y=8 u=16 s=32 (linear=64) d=128 v=256.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RegExpFlags(pub u32);

impl RegExpFlags {
    /// Flag letters with their bits, in the neutral description's order `dgimsuvy`.
    pub const LETTERS: [(char, u32); 8] = [
        ('d', 128),
        ('g', 1),
        ('i', 2),
        ('m', 4),
        ('s', 32),
        ('u', 16),
        ('v', 256),
        ('y', 8),
    ];

    /// The flags as JS writes them (`dgimsuvy` order).
    pub fn to_letters(self) -> String {
        RegExpFlags::LETTERS
            .iter()
            .filter(|(_, bit)| self.0 & bit != 0)
            .map(|(c, _)| *c)
            .collect()
    }

    /// Flags from letters (any order); `None` for an unknown or repeated letter.
    pub fn from_letters(s: &str) -> Option<RegExpFlags> {
        let mut bits = 0u32;
        for ch in s.chars() {
            let (_, bit) = RegExpFlags::LETTERS.iter().find(|(c, _)| *c == ch)?;
            if bits & bit != 0 {
                return None;
            }
            bits |= bit;
        }
        Some(RegExpFlags(bits))
    }
}

/// An `ArrayBuffer`'s contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayBuffer {
    /// The bytes (`byteLength` = `data.len()`).
    pub data: Vec<u8>,
    /// `Some(maxByteLength)` for a resizable buffer.
    pub max_byte_length: Option<u32>,
}

/// A typed array or `DataView` over an `ArrayBuffer` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// The constructor.
    pub kind: ViewKind,
    /// The buffer object (must be an [`Object::ArrayBuffer`]).
    pub buffer: ObjId,
    /// Offset into the buffer in bytes.
    pub byte_offset: u32,
    /// Length in bytes (for a length-tracking view: the length when it was written).
    pub byte_length: u32,
    /// The view follows the length of its resizable buffer.
    pub length_tracking: bool,
}

/// An Error object.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorObject {
    /// The constructor.
    pub name: ErrorName,
    /// The own `message`, if any.
    pub message: Option<JsString>,
    /// The `stack`, if it was a string.
    pub stack: Option<JsString>,
    /// The own `cause`, if any.
    pub cause: Option<Value>,
}

/// A run of entries in one of the [`Heap`]'s arenas: `len` entries from `start`.
///
/// Arrays keep their elements in an arena shared by the whole heap ([`Heap::items`]) instead of a
/// vector each, so decoding allocates per heap, not per array. A span is only meaningful with the heap
/// it was made in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Index of the first entry.
    pub start: u32,
    /// Number of entries.
    pub len: u32,
}

impl Span {
    /// No entries.
    pub const EMPTY: Span = Span { start: 0, len: 0 };

    /// Number of entries.
    pub const fn len(self) -> usize {
        self.len as usize
    }

    /// `true` when the span holds no entry.
    pub const fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The index range, as `usize`.
    pub fn range(self) -> core::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// The properties of a plain object (or an array's other properties): `len` keys from `keys` in the
/// heap's key arena ([`Heap::keys`]) and `len` values from `values` in its value arena
/// ([`Heap::values`]), pairwise.
///
/// Objects of the same shape share one key list (as V8 objects share a hidden class): the decoder
/// gives every object whose keys repeat the previous object's at the same nesting level the same
/// `keys`, and [`Heap::push_props`] reuses the last key list it stored when it is repeated. The
/// encoder takes a shared key list as already checked and copies its encoded keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Props {
    /// Index of the first key in the key arena.
    pub keys: u32,
    /// Index of the first value in the value arena.
    pub values: u32,
    /// Number of properties.
    pub len: u32,
}

impl Props {
    /// No properties.
    pub const EMPTY: Props = Props {
        keys: 0,
        values: 0,
        len: 0,
    };

    /// Number of properties.
    pub const fn len(self) -> usize {
        self.len as usize
    }

    /// `true` when there is no property.
    pub const fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The key index range.
    pub fn key_range(self) -> core::ops::Range<usize> {
        self.keys as usize..self.keys as usize + self.len as usize
    }

    /// The value index range.
    pub fn value_range(self) -> core::ops::Range<usize> {
        self.values as usize..self.values as usize + self.len as usize
    }
}

/// A property: its key and value (what [`Heap::push_props`] takes).
pub type Prop = (JsString, Value);

/// An array element: its index and value.
pub type Item = (u32, Value);

/// An array: a `length` and the present elements, so holes and sparse arrays up to 2^32-1 cost nothing.
/// The elements and other properties live in the heap's arenas ([`Heap::items`], [`Heap::props`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Array {
    /// The JS `length`.
    pub length: u32,
    /// Present elements in ascending index order, each index below `length`. A missing index is a hole.
    pub items: Span,
    /// Other own enumerable properties (non-index keys), in insertion order.
    pub props: Props,
}

impl Array {
    /// `true` when every index below `length` holds an element.
    pub fn is_dense(&self) -> bool {
        u64::from(self.items.len) == u64::from(self.length)
    }
}

/// A JS object in the heap.
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    /// An ordinary object: own enumerable string-keyed properties in enumeration order
    /// (array-index keys ascending first, then the others in insertion order), see [`Heap::props`].
    Plain(Props),
    /// An Array.
    Array(Array),
    /// A Date (time value in ms; NaN for an invalid date).
    Date(f64),
    /// A RegExp.
    RegExp {
        /// The pattern source.
        source: JsString,
        /// The flags.
        flags: RegExpFlags,
    },
    /// A Map: entries in insertion order (keys unique by SameValueZero).
    Map(Vec<(Value, Value)>),
    /// A Set: values in insertion order (unique by SameValueZero).
    Set(Vec<Value>),
    /// `new Boolean(b)`
    BooleanObject(bool),
    /// `new Number(n)`
    NumberObject(f64),
    /// `Object(123n)`
    BigIntObject(BigInt),
    /// `new String(s)`
    StringObject(JsString),
    /// An ArrayBuffer.
    ArrayBuffer(ArrayBuffer),
    /// A typed array or DataView.
    View(View),
    /// An Error (boxed: errors are rare and this keeps every other object small).
    Error(Box<ErrorObject>),
}

impl Object {
    /// A short name of the kind, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Object::Plain(_) => "object",
            Object::Array(_) => "array",
            Object::Date(_) => "date",
            Object::RegExp { .. } => "regexp",
            Object::Map(_) => "map",
            Object::Set(_) => "set",
            Object::BooleanObject(_) => "boolean-object",
            Object::NumberObject(_) => "number-object",
            Object::BigIntObject(_) => "bigint-object",
            Object::StringObject(_) => "string-object",
            Object::ArrayBuffer(_) => "arraybuffer",
            Object::View(_) => "view",
            Object::Error(_) => "error",
        }
    }
}

/// The iterator [`Heap::props`] returns: `(key, value)` pairs.
pub type PropsIter<'h> =
    core::iter::Zip<core::slice::Iter<'h, JsString>, core::slice::Iter<'h, Value>>;

/// The objects of one value graph, addressed by [`ObjId`], with the arenas their [`Props`] and
/// [`Span`]s point into: property keys (shared by objects of the same shape), property values, array
/// elements.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Heap {
    objects: Vec<Object>,
    keys: Vec<JsString>,
    values: Vec<Value>,
    items: Vec<Item>,
    /// The key list [`Heap::push_props`] stored last (start, length), reused when repeated.
    last_keys: (u32, u32),
}

impl Drop for Heap {
    /// Most objects own no memory (plain objects and arrays keep theirs in the arenas): they are
    /// skipped here without the out-of-line drop glue per object, a large part of dropping a decoded
    /// graph. (`mem::forget` of a value that owns nothing frees nothing and leaks nothing.)
    fn drop(&mut self) {
        for o in self.objects.drain(..) {
            match o {
                Object::Plain(_)
                | Object::Array(_)
                | Object::Date(_)
                | Object::BooleanObject(_)
                | Object::NumberObject(_)
                | Object::View(_) => std::mem::forget(o),
                o => drop(o),
            }
        }
    }
}

impl Heap {
    /// An empty heap (usable in a `static`).
    pub const EMPTY: Heap = Heap {
        objects: Vec::new(),
        keys: Vec::new(),
        values: Vec::new(),
        items: Vec::new(),
        last_keys: (0, 0),
    };

    /// An empty heap.
    pub fn new() -> Heap {
        Heap::default()
    }

    /// An empty heap with room for `n` objects.
    pub fn with_capacity(n: usize) -> Heap {
        let mut h = Heap::new();
        h.objects = Vec::with_capacity(n);
        h
    }

    /// An empty heap with room for `objects` objects, `values` property values and `items` elements.
    pub fn with_capacities(objects: usize, values: usize, items: usize) -> Heap {
        Heap {
            objects: Vec::with_capacity(objects),
            keys: Vec::new(),
            values: Vec::with_capacity(values),
            items: Vec::with_capacity(items),
            last_keys: (0, 0),
        }
    }

    /// A heap of these arenas (the decoder's: `Props` and `Span`s of `objects` index into them).
    pub(crate) fn from_parts(
        objects: Vec<Object>,
        keys: Vec<JsString>,
        values: Vec<Value>,
        items: Vec<Item>,
    ) -> Heap {
        Heap {
            objects,
            keys,
            values,
            items,
            last_keys: (0, 0),
        }
    }

    /// Replaces the object with this id (no-op for an id not in the heap).
    #[inline]
    pub fn replace(&mut self, id: ObjId, object: Object) {
        if let Some(slot) = self.objects.get_mut(id.index()) {
            *slot = object;
        }
    }

    /// Adds an object and returns its id.
    #[inline]
    pub fn alloc(&mut self, object: Object) -> ObjId {
        push_in(&mut self.objects, object);
        ObjId((self.objects.len() - 1) as u32)
    }

    /// Adds an object and returns it as a value.
    pub fn add(&mut self, object: Object) -> Value {
        Value::Object(self.alloc(object))
    }

    /// The object with this id, if any.
    #[inline]
    pub fn get(&self, id: ObjId) -> Option<&Object> {
        self.objects.get(id.index())
    }

    /// The object with this id, mutable.
    pub fn get_mut(&mut self, id: ObjId) -> Option<&mut Object> {
        self.objects.get_mut(id.index())
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// `true` when there is no object.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// Iterates `(id, object)`.
    pub fn iter(&self) -> impl Iterator<Item = (ObjId, &Object)> {
        self.objects
            .iter()
            .enumerate()
            .map(|(i, o)| (ObjId(i as u32), o))
    }

    // ---- arenas ---------------------------------------------------------------------------------

    /// The properties `props` describes, as `(key, value)` pairs in order.
    ///
    /// # Panics
    /// When `props` lies outside the arenas (it comes from another heap); see [`Heap::get_props`].
    #[inline]
    pub fn props(&self, props: Props) -> PropsIter<'_> {
        self.keys(props).iter().zip(self.values(props))
    }

    /// The properties `props` describes, or `None` when it lies outside the arenas.
    #[inline]
    pub fn get_props(&self, props: Props) -> Option<PropsIter<'_>> {
        Some(self.get_keys(props)?.iter().zip(self.get_values(props)?))
    }

    /// The keys of `props` (shared with the other objects of its shape).
    ///
    /// # Panics
    /// When `props` lies outside the key arena.
    #[inline]
    pub fn keys(&self, props: Props) -> &[JsString] {
        &self.keys[props.key_range()]
    }

    /// The keys of `props`, or `None` when they lie outside the key arena.
    #[inline]
    pub fn get_keys(&self, props: Props) -> Option<&[JsString]> {
        self.keys.get(props.key_range())
    }

    /// The values of `props`.
    ///
    /// # Panics
    /// When `props` lies outside the value arena.
    #[inline]
    pub fn values(&self, props: Props) -> &[Value] {
        &self.values[props.value_range()]
    }

    /// The values of `props`, or `None` when they lie outside the value arena.
    #[inline]
    pub fn get_values(&self, props: Props) -> Option<&[Value]> {
        self.values.get(props.value_range())
    }

    /// The values of `props`, mutable (keys are shared between objects and stay as they are).
    ///
    /// # Panics
    /// When `props` lies outside the value arena.
    pub fn values_mut(&mut self, props: Props) -> &mut [Value] {
        &mut self.values[props.value_range()]
    }

    /// The elements in `span` (an [`Array`]'s `items`).
    ///
    /// # Panics
    /// When the span lies outside the arena (a span from another heap); see [`Heap::get_items`].
    #[inline]
    pub fn items(&self, span: Span) -> &[Item] {
        &self.items[span.range()]
    }

    /// The elements in `span`, or `None` when it lies outside the arena.
    #[inline]
    pub fn get_items(&self, span: Span) -> Option<&[Item]> {
        self.items.get(span.range())
    }

    /// The elements in `span`, mutable.
    ///
    /// # Panics
    /// When the span lies outside the arena.
    pub fn items_mut(&mut self, span: Span) -> &mut [Item] {
        &mut self.items[span.range()]
    }

    /// Stores properties (keys in the order given, which should be JS enumeration order for a plain
    /// object) and returns them. When the keys repeat the key list stored last, that list is shared.
    pub fn push_props(&mut self, props: impl IntoIterator<Item = Prop>) -> Props {
        let keys_start = self.keys.len();
        let values_start = self.values.len();
        for (k, v) in props {
            self.keys.push(k);
            self.values.push(v);
        }
        let len = self.values.len() - values_start;
        let (last, last_len) = (self.last_keys.0 as usize, self.last_keys.1 as usize);
        let keys = if len > 0
            && last_len == len
            && last + len <= keys_start
            && self.keys[last..last + len] == self.keys[keys_start..]
        {
            self.keys.truncate(keys_start);
            last
        } else {
            if len > 0 {
                self.last_keys = (keys_start as u32, len as u32);
            }
            keys_start
        };
        Props {
            keys: keys as u32,
            values: values_start as u32,
            len: len as u32,
        }
    }

    /// Appends elements to the arena and returns their span.
    pub fn push_items(&mut self, items: impl IntoIterator<Item = Item>) -> Span {
        let start = self.items.len();
        self.items.extend(items);
        span_of(start, self.items.len())
    }

    /// A plain object with these properties (in enumeration order), not yet added to the heap.
    pub fn plain(&mut self, props: impl IntoIterator<Item = Prop>) -> Object {
        Object::Plain(self.push_props(props))
    }

    /// A hole-free array of these values with no other properties, not yet added to the heap.
    pub fn dense(&mut self, values: impl IntoIterator<Item = Value>) -> Array {
        let start = self.items.len();
        let mut i = 0u32;
        self.items.extend(values.into_iter().map(|v| {
            let item = (i, v);
            i = i.wrapping_add(1);
            item
        }));
        let items = span_of(start, self.items.len());
        Array {
            length: items.len,
            items,
            props: Props::EMPTY,
        }
    }

    /// An array with this `length`, these present elements (ascending indexes below `length`) and
    /// other properties, not yet added to the heap.
    pub fn sparse(
        &mut self,
        length: u32,
        items: impl IntoIterator<Item = Item>,
        props: impl IntoIterator<Item = Prop>,
    ) -> Array {
        Array {
            length,
            items: self.push_items(items),
            props: self.push_props(props),
        }
    }

    /// The properties of a plain object, if `id` is one.
    pub fn object_props(&self, id: ObjId) -> Option<Props> {
        match self.get(id)? {
            Object::Plain(props) => Some(*props),
            _ => None,
        }
    }

    /// The value of the property `key` of `props`, if there is one.
    pub fn prop(&self, props: Props, key: &str) -> Option<&Value> {
        let k = JsString::from_str(key);
        self.get_props(props)?
            .find(|(n, _)| **n == k)
            .map(|(_, v)| v)
    }

    /// The element at `index` of an array, if present.
    pub fn element(&self, array: &Array, index: u32) -> Option<&Value> {
        let items = self.get_items(array.items)?;
        if array.is_dense() {
            return items.get(index as usize).map(|(_, v)| v);
        }
        items
            .binary_search_by_key(&index, |(i, _)| *i)
            .ok()
            .map(|p| &items[p].1)
    }

    /// A plain object with these properties (keys from Rust text).
    pub fn object<'a>(&mut self, props: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
        let o = self.plain(props.into_iter().map(|(k, v)| (JsString::from_str(k), v)));
        self.add(o)
    }

    /// A hole-free array of these values.
    pub fn array(&mut self, values: impl IntoIterator<Item = Value>) -> Value {
        let a = self.dense(values);
        self.add(Object::Array(a))
    }

    // ---- crate internals -----------------------------------------------------------------------------

    /// Lengths of the key, value and element arenas.
    pub(crate) fn arena_lens(&self) -> (usize, usize, usize) {
        (self.keys.len(), self.values.len(), self.items.len())
    }
}

/// `v.push(x)` with the capacity check first, so that `x` is built in place: in the common branch
/// the compiler knows no reallocation happens. (Otherwise `x` is built on the stack to survive a
/// possible reallocation and copied in after, which stalls on store forwarding: the copy reads
/// wider than the enum's tag byte was written.)
#[inline(always)]
#[allow(clippy::if_same_then_else)] // the branches differ in what the compiler knows
pub(crate) fn push_in<T>(v: &mut Vec<T>, x: T) {
    if v.len() < v.capacity() {
        v.push(x);
    } else {
        v.push(x);
    }
}

#[inline]
pub(crate) fn span_of(start: usize, end: usize) -> Span {
    Span {
        start: start as u32,
        len: (end - start) as u32,
    }
}

/// A complete value: a root [`Value`] and the [`Heap`] its objects live in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    /// The objects.
    pub heap: Heap,
    /// The value itself.
    pub root: Value,
}

impl Graph {
    /// A graph from a heap and its root.
    pub fn new(heap: Heap, root: Value) -> Graph {
        Graph { heap, root }
    }

    /// A graph of a single primitive.
    pub fn primitive(root: Value) -> Graph {
        Graph {
            heap: Heap::new(),
            root,
        }
    }

    /// The object behind a value, if it is one.
    pub fn object(&self, v: &Value) -> Option<&Object> {
        v.as_object().and_then(|id| self.heap.get(id))
    }

    /// `true` when both graphs describe the same JS value: same shapes and primitives (NaN equals NaN,
    /// `-0` differs from `0`, strings compare by code units) and the same sharing of objects
    /// (a bijection between the object ids reached from the roots).
    pub fn same_as(&self, other: &Graph) -> bool {
        let mut fwd: HashMap<ObjId, ObjId> = HashMap::new();
        let mut back: HashMap<ObjId, ObjId> = HashMap::new();
        let mut work: Vec<Pair<'_>> = vec![Pair::Val(&self.root, &other.root)];
        while let Some(pair) = work.pop() {
            let (x, y) = match pair {
                Pair::Obj(x, y) => (x, y),
                Pair::Val(a, b) => match (a, b) {
                    (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => continue,
                    (Value::Bool(x), Value::Bool(y)) if x == y => continue,
                    (Value::Number(x), Value::Number(y)) if same_number(*x, *y) => continue,
                    (Value::BigInt(x), Value::BigInt(y)) if x == y => continue,
                    (Value::String(x), Value::String(y)) if x == y => continue,
                    (Value::Object(x), Value::Object(y)) => (*x, *y),
                    _ => return false,
                },
            };
            match (fwd.get(&x), back.get(&y)) {
                (Some(m), _) if *m == y => continue,
                (None, None) => {}
                _ => return false,
            }
            fwd.insert(x, y);
            back.insert(y, x);
            let (Some(oa), Some(ob)) = (self.heap.get(x), other.heap.get(y)) else {
                return false;
            };
            if !same_shallow(&self.heap, &other.heap, oa, ob, &mut work) {
                return false;
            }
        }
        true
    }
}

enum Pair<'a> {
    Val(&'a Value, &'a Value),
    Obj(ObjId, ObjId),
}

/// Numbers equal as JS `Object.is` sees them.
pub(crate) fn same_number(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a == b && a.is_sign_negative() == b.is_sign_negative())
}

fn same_props<'a>(
    ha: &'a Heap,
    hb: &'a Heap,
    a: Props,
    b: Props,
    work: &mut Vec<Pair<'a>>,
) -> bool {
    let (Some(ka), Some(kb), Some(va), Some(vb)) = (
        ha.get_keys(a),
        hb.get_keys(b),
        ha.get_values(a),
        hb.get_values(b),
    ) else {
        return false;
    };
    if ka.len() != kb.len() || ka != kb {
        return false;
    }
    work.extend(va.iter().zip(vb).map(|(x, y)| Pair::Val(x, y)));
    true
}

fn same_shallow<'a>(
    ha: &'a Heap,
    hb: &'a Heap,
    a: &'a Object,
    b: &'a Object,
    work: &mut Vec<Pair<'a>>,
) -> bool {
    match (a, b) {
        (Object::Plain(pa), Object::Plain(pb)) => same_props(ha, hb, *pa, *pb, work),
        (Object::Array(x), Object::Array(y)) => {
            let (Some(xi), Some(yi)) = (ha.get_items(x.items), hb.get_items(y.items)) else {
                return false;
            };
            if x.length != y.length || xi.len() != yi.len() {
                return false;
            }
            for ((ia, va), (ib, vb)) in xi.iter().zip(yi) {
                if ia != ib {
                    return false;
                }
                work.push(Pair::Val(va, vb));
            }
            same_props(ha, hb, x.props, y.props, work)
        }
        (Object::Date(x), Object::Date(y)) => same_number(*x, *y),
        (
            Object::RegExp {
                source: sa,
                flags: fa,
            },
            Object::RegExp {
                source: sb,
                flags: fb,
            },
        ) => sa == sb && fa == fb,
        (Object::Map(x), Object::Map(y)) => {
            if x.len() != y.len() {
                return false;
            }
            for ((ka, va), (kb, vb)) in x.iter().zip(y) {
                work.push(Pair::Val(ka, kb));
                work.push(Pair::Val(va, vb));
            }
            true
        }
        (Object::Set(x), Object::Set(y)) => {
            if x.len() != y.len() {
                return false;
            }
            work.extend(x.iter().zip(y).map(|(a, b)| Pair::Val(a, b)));
            true
        }
        (Object::BooleanObject(x), Object::BooleanObject(y)) => x == y,
        (Object::NumberObject(x), Object::NumberObject(y)) => same_number(*x, *y),
        (Object::BigIntObject(x), Object::BigIntObject(y)) => x == y,
        (Object::StringObject(x), Object::StringObject(y)) => x == y,
        (Object::ArrayBuffer(x), Object::ArrayBuffer(y)) => x == y,
        (Object::View(x), Object::View(y)) => {
            if x.kind != y.kind
                || x.byte_offset != y.byte_offset
                || x.byte_length != y.byte_length
                || x.length_tracking != y.length_tracking
            {
                return false;
            }
            // The buffers are compared (and their identity mapped) through the work list.
            work.push(Pair::Obj(x.buffer, y.buffer));
            true
        }
        (Object::Error(x), Object::Error(y)) => {
            if x.name != y.name || x.message != y.message || x.stack != y.stack {
                return false;
            }
            match (&x.cause, &y.cause) {
                (None, None) => true,
                (Some(ca), Some(cb)) => {
                    work.push(Pair::Val(ca, cb));
                    true
                }
                _ => false,
            }
        }
        _ => false,
    }
}
