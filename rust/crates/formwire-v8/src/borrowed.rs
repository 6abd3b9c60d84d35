//! A decoded value that borrows from its input: [`decode_borrowed`](crate::decode_borrowed) returns
//! a [`BorrowedGraph`] whose strings, BigInt digits and ArrayBuffer contents are slices of the V8
//! bytes, as `serde_json` hands out `&'a str`. Nothing is copied per string, nothing is allocated per
//! value, and the graph needs no drop work: everything it owns is a handful of arenas of 16-byte
//! slots (input offsets, not pointers).
//!
//! It keeps everything the owned model ([`Graph`]) keeps: object identity and cycles ([`ObjId`]s,
//! the same ones [`decode`](crate::decode) assigns), holes and sparse arrays, lone surrogates (a
//! two-byte string is its UTF-16LE bytes), `-0` and NaN, BigInts, Map/Set order, Date, RegExp,
//! wrappers, ArrayBuffers and views, Errors. [`BorrowedGraph::to_graph`] makes the owned graph.
//!
//! Reading: [`BorrowedGraph::root`] and [`BorrowedGraph::object`] give [`ValueRef`]s and
//! [`ObjectRef`]s, plain `Copy` enums; [`BorrowedGraph::props`], [`BorrowedGraph::elements`],
//! [`BorrowedGraph::map_entries`] and [`BorrowedGraph::set_values`] iterate the contents of an
//! object. A [`Props`] or [`Span`] from another graph reads as empty, never as a panic.

use crate::bigint::BigInt;
use crate::string::{JsString, array_index, digits};
use crate::value::{
    ArrayBuffer, ErrorName, ErrorObject, Graph, Heap, Item, ObjId, Object, Props, RegExpFlags,
    Span, Value, View,
};
use core::fmt;
use core::hash::{Hash, Hasher};
use std::borrow::Cow;

// ---- public values -------------------------------------------------------------------------------

/// A JavaScript string borrowed from the input, in the encoding it was written in. Equality,
/// hashing and ordering look at UTF-16 code units only, whatever the encoding.
#[derive(Clone, Copy)]
pub enum Str<'a> {
    /// One byte per code unit (`"` strings, and ASCII `S` strings).
    Latin1(&'a [u8]),
    /// UTF-16LE code units, two bytes each (`c` strings): any units, lone surrogates included.
    Utf16Le(&'a [u8]),
    /// Valid UTF-8 with a code point above U+007F (the legacy `S` strings of version 13): the JS
    /// string is its UTF-16 encoding.
    Utf8(&'a str),
    /// The decimal form of an integer: a property key that V8 wrote as a number (`I`, `U`, `N`).
    Int(i64),
}

impl<'a> Str<'a> {
    /// Number of UTF-16 code units (JS `length`).
    pub fn len(&self) -> usize {
        match self {
            Str::Latin1(b) => b.len(),
            Str::Utf16Le(b) => b.len() / 2,
            Str::Utf8(s) => s.encode_utf16().count(),
            Str::Int(n) => digits(*n).1,
        }
    }

    /// `true` for the empty string.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code units.
    pub fn units(&self) -> StrUnits<'a> {
        StrUnits(match *self {
            Str::Latin1(b) => UnitsRepr::Latin1(b.iter()),
            Str::Utf16Le(b) => UnitsRepr::Utf16(b.chunks_exact(2)),
            Str::Utf8(s) => UnitsRepr::Utf8(s.encode_utf16()),
            Str::Int(n) => {
                let (buf, len) = digits(n);
                UnitsRepr::Int(buf, 20 - len, 20)
            }
        })
    }

    /// The bytes, when the string is one byte per unit (Latin-1).
    pub fn as_latin1(&self) -> Option<&'a [u8]> {
        match *self {
            Str::Latin1(b) => Some(b),
            _ => None,
        }
    }

    /// The string as an owned [`JsString`].
    pub fn to_js_string(&self) -> JsString {
        match *self {
            Str::Latin1(b) => JsString::from_latin1_slice(b),
            Str::Utf8(s) => JsString::from_str(s),
            Str::Int(n) => {
                let (buf, len) = digits(n);
                JsString::from_latin1_slice(&buf[20 - len..])
            }
            Str::Utf16Le(_) => JsString::from_utf16(self.units().collect()),
        }
    }

    /// The string as Rust text, borrowed when it is ASCII or UTF-8 on the wire; lone surrogates
    /// become U+FFFD.
    pub fn to_string_lossy(&self) -> Cow<'a, str> {
        match *self {
            Str::Latin1(b) if b.is_ascii() => Cow::Borrowed(core::str::from_utf8(b).unwrap_or("")),
            Str::Latin1(b) => Cow::Owned(b.iter().map(|&x| x as char).collect()),
            Str::Utf8(s) => Cow::Borrowed(s),
            _ => Cow::Owned(
                char::decode_utf16(self.units())
                    .map(|r| r.unwrap_or('\u{FFFD}'))
                    .collect(),
            ),
        }
    }

    /// The string as Rust text, or `None` when it holds a lone surrogate.
    pub fn to_rust_string(&self) -> Option<Cow<'a, str>> {
        match self {
            Str::Utf16Le(_) => char::decode_utf16(self.units())
                .collect::<Result<String, _>>()
                .ok()
                .map(Cow::Owned),
            _ => Some(self.to_string_lossy()),
        }
    }

    /// `true` when the units are those of the Rust text `s`.
    pub fn eq_str(&self, s: &str) -> bool {
        match *self {
            Str::Latin1(b) if s.is_ascii() => b == s.as_bytes(),
            Str::Utf8(u) => u == s,
            _ => self.units().eq(s.encode_utf16()),
        }
    }

    /// If the string is an array index (the canonical decimal form of an integer 0..=2^32-2), that integer.
    pub fn as_array_index(&self) -> Option<u32> {
        match *self {
            Str::Int(n) => u32::try_from(n).ok().filter(|&i| i != u32::MAX),
            Str::Latin1(b) => array_index(b.iter().map(|&x| u16::from(x)), b.len()),
            _ => {
                let n = self.len();
                array_index(self.units(), n)
            }
        }
    }
}

/// Iterator over the code units of a [`Str`].
#[derive(Clone)]
pub struct StrUnits<'a>(UnitsRepr<'a>);

#[derive(Clone)]
enum UnitsRepr<'a> {
    Latin1(core::slice::Iter<'a, u8>),
    Utf16(core::slice::ChunksExact<'a, u8>),
    Utf8(core::str::EncodeUtf16<'a>),
    Int([u8; 20], usize, usize),
}

impl Iterator for StrUnits<'_> {
    type Item = u16;
    #[inline]
    fn next(&mut self) -> Option<u16> {
        match &mut self.0 {
            UnitsRepr::Latin1(it) => it.next().map(|&b| u16::from(b)),
            UnitsRepr::Utf16(it) => it.next().map(|c| u16::from_le_bytes([c[0], c[1]])),
            UnitsRepr::Utf8(it) => it.next(),
            UnitsRepr::Int(buf, i, end) => {
                if *i < *end {
                    *i += 1;
                    Some(u16::from(buf[*i - 1]))
                } else {
                    None
                }
            }
        }
    }
}

impl PartialEq for Str<'_> {
    fn eq(&self, other: &Str<'_>) -> bool {
        match (self, other) {
            (Str::Latin1(a), Str::Latin1(b)) | (Str::Utf16Le(a), Str::Utf16Le(b)) => a == b,
            (Str::Int(a), Str::Int(b)) => a == b,
            _ => self.units().eq(other.units()),
        }
    }
}

impl Eq for Str<'_> {}

impl Hash for Str<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut n = 0usize;
        for u in self.units() {
            state.write_u16(u);
            n += 1;
        }
        state.write_usize(n);
    }
}

impl PartialOrd for Str<'_> {
    fn partial_cmp(&self, other: &Str<'_>) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Str<'_> {
    /// Code-unit order, as JS `<` compares strings.
    fn cmp(&self, other: &Str<'_>) -> core::cmp::Ordering {
        self.units().cmp(other.units())
    }
}

impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string_lossy())?;
        if self.to_rust_string().is_none() {
            f.write_str("(lone surrogate)")?;
        }
        Ok(())
    }
}

impl fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

/// A BigInt borrowed from the input: a sign and little-endian magnitude bytes as written (V8 pads
/// the digits to 8-byte multiples, so high zero bytes are common). Equality is by value.
#[derive(Clone, Copy, Debug)]
pub struct BigIntRef<'a> {
    negative: bool,
    magnitude_le: &'a [u8],
}

impl<'a> BigIntRef<'a> {
    /// The magnitude as written (little-endian, possibly with high zero bytes).
    pub fn magnitude_le(&self) -> &'a [u8] {
        self.magnitude_le
    }

    /// `true` below zero (a zero magnitude is never negative).
    pub fn is_negative(&self) -> bool {
        self.negative && self.magnitude_le.iter().any(|&b| b != 0)
    }

    /// The owned [`BigInt`].
    pub fn to_bigint(&self) -> BigInt {
        BigInt::from_slice(self.negative, self.magnitude_le)
    }

    fn trimmed(&self) -> &'a [u8] {
        let n = self.magnitude_le.len()
            - self
                .magnitude_le
                .iter()
                .rev()
                .take_while(|&&b| b == 0)
                .count();
        &self.magnitude_le[..n]
    }
}

impl PartialEq for BigIntRef<'_> {
    fn eq(&self, other: &BigIntRef<'_>) -> bool {
        self.is_negative() == other.is_negative() && self.trimmed() == other.trimmed()
    }
}

impl Eq for BigIntRef<'_> {}

/// A JavaScript value of a [`BorrowedGraph`]: a primitive, or the id of an object in the graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueRef<'a> {
    /// `undefined`
    Undefined,
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number (`-0` kept, NaN canonical).
    Number(f64),
    /// A BigInt.
    BigInt(BigIntRef<'a>),
    /// A string.
    String(Str<'a>),
    /// An object: its id (as [`decode`](crate::decode) assigns it).
    Object(ObjId),
}

impl ValueRef<'_> {
    /// The object id, if the value is an object.
    pub fn as_object(&self) -> Option<ObjId> {
        match self {
            ValueRef::Object(id) => Some(*id),
            _ => None,
        }
    }
}

/// An array of a [`BorrowedGraph`]: its `length`, its present elements (read them with
/// [`BorrowedGraph::elements`] or [`BorrowedGraph::element`]: holes and sparse arrays cost nothing)
/// and its other properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayRef {
    /// The JS `length`.
    pub length: u32,
    /// Other own enumerable properties (non-index keys), in insertion order.
    pub props: Props,
    /// The present elements' values in the element arena (`OBJECT_RUN`: the ids of the objects
    /// they are).
    pub(crate) elems: Span,
    /// `NO_INDEXES` when the array is hole-free (element `i` is `elems.start + i`); `OBJECT_RUN`
    /// when, moreover, its elements are the objects with the ids `elems.start..` in order (an array
    /// of records decodes to this, with no element slots at all); else where the elements' indexes
    /// start in the index arena (ascending, one per element).
    pub(crate) indexes: u32,
}

pub(crate) const NO_INDEXES: u32 = u32::MAX;
pub(crate) const OBJECT_RUN: u32 = u32::MAX - 1;

impl ArrayRef {
    /// Number of present elements.
    pub fn present(&self) -> usize {
        self.elems.len()
    }

    /// `true` when every index below `length` holds an element.
    pub fn is_dense(&self) -> bool {
        u64::from(self.elems.len) == u64::from(self.length)
    }
}

/// The iterator of [`BorrowedGraph::elements`].
struct Elements<'g, 'a> {
    g: &'g BorrowedGraph<'a>,
    /// Element slots (with `indexes`, or at positions 0..).
    slots: &'g [Slot],
    indexes: Option<&'g [u32]>,
    /// An object run: `objects` elements, the ids from `first` on.
    first: u32,
    objects: u32,
    i: usize,
}

impl<'a> Iterator for Elements<'_, 'a> {
    type Item = (u32, ValueRef<'a>);

    #[inline]
    fn next(&mut self) -> Option<(u32, ValueRef<'a>)> {
        let i = self.i;
        if (i as u32) < self.objects {
            self.i += 1;
            return Some((i as u32, ValueRef::Object(ObjId(self.first + i as u32))));
        }
        let &s = self.slots.get(i)?;
        self.i += 1;
        let index = match self.indexes {
            Some(ix) => ix[i],
            None => i as u32,
        };
        Some((index, self.g.value_ref(s)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.objects as usize + self.slots.len()).saturating_sub(self.i);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Elements<'_, '_> {}

/// An Error object of a [`BorrowedGraph`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorRef<'a> {
    /// The constructor.
    pub name: ErrorName,
    /// The own `message`, if any.
    pub message: Option<Str<'a>>,
    /// The `stack`, if it was a string.
    pub stack: Option<Str<'a>>,
    /// The own `cause`, if any.
    pub cause: Option<ValueRef<'a>>,
}

/// An object of a [`BorrowedGraph`] (the borrowed counterpart of [`Object`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ObjectRef<'a> {
    /// An ordinary object: properties in enumeration order, see [`BorrowedGraph::props`].
    Plain(Props),
    /// An Array.
    Array(ArrayRef),
    /// A Date (time value in ms; NaN for an invalid date).
    Date(f64),
    /// A RegExp.
    RegExp {
        /// The pattern source.
        source: Str<'a>,
        /// The flags.
        flags: RegExpFlags,
    },
    /// A Map: `span.len` entries in insertion order, see [`BorrowedGraph::map_entries`].
    Map(Span),
    /// A Set: `span.len` values in insertion order, see [`BorrowedGraph::set_values`].
    Set(Span),
    /// `new Boolean(b)`
    BooleanObject(bool),
    /// `new Number(n)`
    NumberObject(f64),
    /// `Object(123n)`
    BigIntObject(BigIntRef<'a>),
    /// `new String(s)`
    StringObject(Str<'a>),
    /// An ArrayBuffer: its bytes (`byteLength` = `data.len()`) and `Some(maxByteLength)` when resizable.
    ArrayBuffer {
        /// The contents.
        data: &'a [u8],
        /// `Some(maxByteLength)` for a resizable buffer.
        max_byte_length: Option<u32>,
    },
    /// A typed array or DataView (its `buffer` is an `ArrayBuffer` object of the same graph).
    View(View),
    /// An Error.
    Error(ErrorRef<'a>),
}

// ---- internal slots ------------------------------------------------------------------------------

/// A value or key in the arenas: 16 bytes, strings and bytes as offsets into the input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Slot {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    /// `len` bytes (one unit each) at `at`.
    Latin1 {
        len: u32,
        at: usize,
    },
    /// `len` bytes (UTF-16LE, even) at `at`.
    Utf16 {
        len: u32,
        at: usize,
    },
    /// `len` bytes of valid UTF-8 at `at`.
    Utf8 {
        len: u32,
        at: usize,
    },
    /// `len` magnitude bytes at `at`.
    BigInt {
        negative: bool,
        len: u32,
        at: usize,
    },
    /// A number-valued property key.
    Int(i64),
    Object(u32),
}

/// An object in the arena.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ObjSlot {
    Plain(Props),
    Array(ArrayRef),
    Date(f64),
    RegExp {
        source: Slot,
        flags: u32,
    },
    Map(Span),
    Set(Span),
    BooleanObject(bool),
    NumberObject(f64),
    BigIntObject(Slot),
    StringObject(Slot),
    ArrayBuffer {
        at: usize,
        len: u32,
        max: Option<u32>,
    },
    View(View),
    /// Index into the error arena.
    Error(u32),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ErrSlot {
    pub(crate) name: ErrorName,
    pub(crate) message: Option<Slot>,
    pub(crate) stack: Option<Slot>,
    pub(crate) cause: Option<Slot>,
}

// ---- the graph -----------------------------------------------------------------------------------

/// A decoded value that borrows its strings and bytes from the input (see the [module](self) docs):
/// what [`decode_borrowed`](crate::decode_borrowed) returns.
#[derive(Clone)]
pub struct BorrowedGraph<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) root: Slot,
    /// `None` for a primitive: a graph is then three words, moved without a copy loop.
    pub(crate) arenas: Option<Box<Arenas>>,
}

/// The objects of a [`BorrowedGraph`] and the arenas their contents live in.
#[derive(Clone, Default)]
pub(crate) struct Arenas {
    pub(crate) objects: Vec<ObjSlot>,
    /// Property keys (objects of one shape share their key list).
    pub(crate) keys: Vec<Slot>,
    /// Property values.
    pub(crate) values: Vec<Slot>,
    /// Array elements, Map entries (key, value, ...), Set values.
    pub(crate) elems: Vec<Slot>,
    /// Indexes of the elements of arrays with holes.
    pub(crate) indexes: Vec<u32>,
    pub(crate) errors: Vec<ErrSlot>,
}

static NO_ARENAS: Arenas = Arenas {
    objects: Vec::new(),
    keys: Vec::new(),
    values: Vec::new(),
    elems: Vec::new(),
    indexes: Vec::new(),
    errors: Vec::new(),
};

// ---- kept arenas --------------------------------------------------------------------------------

/// A [`Decoder`](crate::Decoder) keeps working memory or arenas up to this many bytes between calls;
/// larger ones (a large input's) are freed instead.
pub(crate) const SCRATCH_KEEP: usize = 1 << 20;

impl Arenas {
    /// The bytes the arenas hold (their capacity).
    pub(crate) fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.objects.capacity() * size_of::<ObjSlot>()
            + (self.keys.capacity() + self.values.capacity() + self.elems.capacity())
                * size_of::<Slot>()
            + self.indexes.capacity() * 4
            + self.errors.capacity() * size_of::<ErrSlot>()
    }

    /// Empty, the capacity kept.
    pub(crate) fn clear(&mut self) {
        self.objects.clear();
        self.keys.clear();
        self.values.clear();
        self.elems.clear();
        self.indexes.clear();
        self.errors.clear();
    }
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

impl fmt::Debug for BorrowedGraph<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BorrowedGraph")
            .field("root", &self.root())
            .field("objects", &self.a().objects.len())
            .finish()
    }
}

impl<'a> BorrowedGraph<'a> {
    #[inline]
    fn a(&self) -> &Arenas {
        self.arenas.as_deref().unwrap_or(&NO_ARENAS)
    }

    /// The input the graph borrows from.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The value itself.
    pub fn root(&self) -> ValueRef<'a> {
        self.value_ref(self.root)
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.a().objects.len()
    }

    /// `true` when there is no object (the value is a primitive).
    pub fn is_empty(&self) -> bool {
        self.a().objects.is_empty()
    }

    /// The object with this id, if any.
    pub fn object(&self, id: ObjId) -> Option<ObjectRef<'a>> {
        let o = *self.a().objects.get(id.index())?;
        Some(match o {
            ObjSlot::Plain(p) => ObjectRef::Plain(p),
            ObjSlot::Array(a) => ObjectRef::Array(a),
            ObjSlot::Date(t) => ObjectRef::Date(t),
            ObjSlot::RegExp { source, flags } => ObjectRef::RegExp {
                source: self.str_ref(source),
                flags: RegExpFlags(flags),
            },
            ObjSlot::Map(s) => ObjectRef::Map(s),
            ObjSlot::Set(s) => ObjectRef::Set(s),
            ObjSlot::BooleanObject(b) => ObjectRef::BooleanObject(b),
            ObjSlot::NumberObject(n) => ObjectRef::NumberObject(n),
            ObjSlot::BigIntObject(b) => match self.value_ref(b) {
                ValueRef::BigInt(b) => ObjectRef::BigIntObject(b),
                _ => return None,
            },
            ObjSlot::StringObject(s) => ObjectRef::StringObject(self.str_ref(s)),
            ObjSlot::ArrayBuffer { at, len, max } => ObjectRef::ArrayBuffer {
                data: self.bytes(at, len),
                max_byte_length: max,
            },
            ObjSlot::View(v) => ObjectRef::View(v),
            ObjSlot::Error(i) => {
                let e = self.a().errors.get(i as usize)?;
                ObjectRef::Error(ErrorRef {
                    name: e.name,
                    message: e.message.map(|s| self.str_ref(s)),
                    stack: e.stack.map(|s| self.str_ref(s)),
                    cause: e.cause.map(|s| self.value_ref(s)),
                })
            }
        })
    }

    /// The object behind a value, if it is one.
    pub fn get(&self, v: &ValueRef<'_>) -> Option<ObjectRef<'a>> {
        self.object(v.as_object()?)
    }

    /// The properties `props` describes, as `(key, value)` pairs in enumeration order.
    pub fn props(
        &self,
        props: Props,
    ) -> impl ExactSizeIterator<Item = (Str<'a>, ValueRef<'a>)> + '_ {
        self.keys(props).zip(self.values(props))
    }

    /// The keys of `props`.
    pub fn keys(&self, props: Props) -> impl ExactSizeIterator<Item = Str<'a>> + '_ {
        let keys = self.a().keys.get(props.key_range()).unwrap_or(&[]);
        let keys = if self.a().values.get(props.value_range()).is_some() {
            keys
        } else {
            &[]
        };
        keys.iter().map(|&s| self.str_ref(s))
    }

    /// The values of `props`.
    pub fn values(&self, props: Props) -> impl ExactSizeIterator<Item = ValueRef<'a>> + '_ {
        let values = self.a().values.get(props.value_range()).unwrap_or(&[]);
        let values = if self.a().keys.get(props.key_range()).is_some() {
            values
        } else {
            &[]
        };
        values.iter().map(|&s| self.value_ref(s))
    }

    /// The value of the property `key` of `props`, if there is one.
    pub fn prop(&self, props: Props, key: &str) -> Option<ValueRef<'a>> {
        self.props(props)
            .find(|(k, _)| k.eq_str(key))
            .map(|(_, v)| v)
    }

    /// The present elements of an array, `(index, value)` in ascending index order.
    pub fn elements(
        &self,
        array: &ArrayRef,
    ) -> impl ExactSizeIterator<Item = (u32, ValueRef<'a>)> + '_ {
        let (slots, indexes, objects): (&[Slot], Option<&[u32]>, u32) = match array.indexes {
            OBJECT_RUN => {
                // Ids in the object arena (elements from another graph read as none).
                let ok = self.a().objects.get(array.elems.range()).is_some();
                (&[], None, if ok { array.elems.len } else { 0 })
            }
            NO_INDEXES => (
                self.a().elems.get(array.elems.range()).unwrap_or(&[]),
                None,
                0,
            ),
            at => {
                let slots = self.a().elems.get(array.elems.range()).unwrap_or(&[]);
                let at = at as usize;
                match self.a().indexes.get(at..at + slots.len()) {
                    Some(ix) => (slots, Some(ix), 0),
                    None => (&[], None, 0),
                }
            }
        };
        Elements {
            g: self,
            slots,
            indexes,
            first: array.elems.start,
            objects,
            i: 0,
        }
    }

    /// The element at `index` of an array, if present.
    pub fn element(&self, array: &ArrayRef, index: u32) -> Option<ValueRef<'a>> {
        if array.indexes == OBJECT_RUN {
            self.a().objects.get(array.elems.range())?;
            return (index < array.elems.len)
                .then(|| ValueRef::Object(ObjId(array.elems.start + index)));
        }
        let elems = self.a().elems.get(array.elems.range())?;
        if array.indexes == NO_INDEXES {
            return elems.get(index as usize).map(|&s| self.value_ref(s));
        }
        let at = array.indexes as usize;
        let ix = self.a().indexes.get(at..at + elems.len())?;
        let p = ix.binary_search(&index).ok()?;
        Some(self.value_ref(elems[p]))
    }

    /// The entries of a Map, `(key, value)` in insertion order.
    pub fn map_entries(
        &self,
        entries: Span,
    ) -> impl ExactSizeIterator<Item = (ValueRef<'a>, ValueRef<'a>)> + '_ {
        let start = entries.start as usize;
        let slots = self
            .a()
            .elems
            .get(start..start + 2 * entries.len())
            .unwrap_or(&[]);
        slots
            .chunks_exact(2)
            .map(|kv| (self.value_ref(kv[0]), self.value_ref(kv[1])))
    }

    /// The values of a Set, in insertion order.
    pub fn set_values(&self, values: Span) -> impl ExactSizeIterator<Item = ValueRef<'a>> + '_ {
        self.a()
            .elems
            .get(values.range())
            .unwrap_or(&[])
            .iter()
            .map(|&s| self.value_ref(s))
    }

    // ---- slots to values ----------------------------------------------------------------------

    #[inline]
    fn bytes(&self, at: usize, len: u32) -> &'a [u8] {
        self.input.get(at..at + len as usize).unwrap_or(&[])
    }

    #[inline]
    pub(crate) fn value_ref(&self, s: Slot) -> ValueRef<'a> {
        match s {
            Slot::Undefined => ValueRef::Undefined,
            Slot::Null => ValueRef::Null,
            Slot::Bool(b) => ValueRef::Bool(b),
            Slot::Number(n) => ValueRef::Number(n),
            Slot::Object(id) => ValueRef::Object(ObjId(id)),
            Slot::BigInt { negative, len, at } => ValueRef::BigInt(BigIntRef {
                negative,
                magnitude_le: self.bytes(at, len),
            }),
            s => ValueRef::String(self.str_ref(s)),
        }
    }

    #[inline]
    pub(crate) fn str_ref(&self, s: Slot) -> Str<'a> {
        match s {
            Slot::Latin1 { len, at } => Str::Latin1(self.bytes(at, len)),
            Slot::Utf16 { len, at } => Str::Utf16Le(self.bytes(at, len)),
            Slot::Utf8 { len, at } => {
                Str::Utf8(core::str::from_utf8(self.bytes(at, len)).unwrap_or(""))
            }
            Slot::Int(n) => Str::Int(n),
            _ => Str::Latin1(&[]),
        }
    }

    // ---- the owned graph ----------------------------------------------------------------------

    /// The same value as an owned [`Graph`] (what [`decode`](crate::decode) returns for the input),
    /// with the same object ids.
    ///
    /// The owned heap's arenas are the borrowed ones slot for slot (key `i` of the graph is key `i`
    /// of the heap, value `i` value `i`), so every `Props` carries over as it is and objects of one
    /// shape keep sharing their key list; only array elements are rebuilt, as `(index, value)`.
    pub fn to_graph(&self) -> Graph {
        let input = self.input;
        let Some(a) = self.arenas.as_deref() else {
            return primitive_graph(input, self.root);
        };
        // Every slot is written where it stays (a value built aside and then moved stalls on store
        // forwarding; the compiler builds one aside when several kinds are pushed).
        let mut keys: Vec<JsString> = Vec::with_capacity(a.keys.len());
        keys.resize_with(a.keys.len(), JsString::new);
        for (dst, &k) in keys.iter_mut().zip(&a.keys) {
            set_key(dst, input, k);
        }
        let mut values: Vec<Value> = Vec::with_capacity(a.values.len());
        values.resize_with(a.values.len(), || Value::Undefined);
        for (dst, &v) in values.iter_mut().zip(&a.values) {
            set_value(dst, input, v);
        }
        // Array elements as `(index, value)`, written in place too (the arena is sized first).
        let n_items = a
            .objects
            .iter()
            .map(|o| match o {
                ObjSlot::Array(arr) => arr.elems.len(),
                _ => 0,
            })
            .sum();
        let mut items: Vec<Item> = Vec::with_capacity(n_items);
        let mut objects: Vec<Object> = Vec::with_capacity(a.objects.len());
        objects.resize_with(a.objects.len(), || Object::Date(0.0));
        for (dst, o) in objects.iter_mut().zip(&a.objects) {
            let object = match *o {
                ObjSlot::Plain(p) => Object::Plain(p),
                ObjSlot::Array(arr) => {
                    let start = items.len();
                    match arr.indexes {
                        OBJECT_RUN => {
                            let first = arr.elems.start;
                            items.extend(
                                (0..arr.elems.len).map(|i| (i, Value::Object(ObjId(first + i)))),
                            );
                        }
                        NO_INDEXES => {
                            let slots = a.elems.get(arr.elems.range()).unwrap_or(&[]);
                            items.resize_with(start + slots.len(), || (0, Value::Undefined));
                            for (i, (item, &v)) in items[start..].iter_mut().zip(slots).enumerate()
                            {
                                item.0 = i as u32;
                                set_value(&mut item.1, input, v);
                            }
                        }
                        at => {
                            let slots = a.elems.get(arr.elems.range()).unwrap_or(&[]);
                            let at = at as usize;
                            let ix = a.indexes.get(at..at + slots.len()).unwrap_or(&[]);
                            items.resize_with(start + ix.len(), || (0, Value::Undefined));
                            for (item, (&i, &v)) in
                                items[start..].iter_mut().zip(ix.iter().zip(slots))
                            {
                                item.0 = i;
                                set_value(&mut item.1, input, v);
                            }
                        }
                    }
                    Object::Array(crate::value::Array {
                        length: arr.length,
                        items: crate::value::span_of(start, items.len()),
                        props: arr.props,
                    })
                }
                ObjSlot::Date(t) => Object::Date(t),
                ObjSlot::RegExp { source, flags } => Object::RegExp {
                    source: self.str_ref(source).to_js_string(),
                    flags: RegExpFlags(flags),
                },
                ObjSlot::Map(s) => {
                    let start = s.start as usize;
                    let slots = a.elems.get(start..start + 2 * s.len()).unwrap_or(&[]);
                    Object::Map(
                        slots
                            .chunks_exact(2)
                            .map(|kv| (owned_slot(input, kv[0]), owned_slot(input, kv[1])))
                            .collect(),
                    )
                }
                ObjSlot::Set(s) => Object::Set(
                    a.elems
                        .get(s.range())
                        .unwrap_or(&[])
                        .iter()
                        .map(|&v| owned_slot(input, v))
                        .collect(),
                ),
                ObjSlot::BooleanObject(b) => Object::BooleanObject(b),
                ObjSlot::NumberObject(n) => Object::NumberObject(n),
                ObjSlot::BigIntObject(b) => match owned_slot(input, b) {
                    Value::BigInt(b) => Object::BigIntObject(b),
                    _ => Object::BigIntObject(BigInt::zero()),
                },
                ObjSlot::StringObject(s) => Object::StringObject(self.str_ref(s).to_js_string()),
                ObjSlot::ArrayBuffer { at, len, max } => Object::ArrayBuffer(ArrayBuffer {
                    data: self.bytes(at, len).to_vec(),
                    max_byte_length: max,
                }),
                ObjSlot::View(v) => Object::View(v),
                ObjSlot::Error(i) => {
                    let e = a.errors.get(i as usize).copied().unwrap_or(ErrSlot {
                        name: ErrorName::Error,
                        message: None,
                        stack: None,
                        cause: None,
                    });
                    Object::Error(Box::new(ErrorObject {
                        name: e.name,
                        message: e.message.map(|s| self.str_ref(s).to_js_string()),
                        stack: e.stack.map(|s| self.str_ref(s).to_js_string()),
                        cause: e.cause.map(|s| owned_slot(input, s)),
                    }))
                }
            };
            // The placeholder owns nothing: no drop for it (the drop glue is not always inlined).
            core::mem::forget(core::mem::replace(dst, object));
        }
        Graph::new(
            Heap::from_parts(objects, keys, values, items),
            owned_slot(input, self.root),
        )
    }
}

/// The graph of a primitive (a string written in place: see `JsString::set_latin1_slice`).
#[inline(never)]
fn primitive_graph(input: &[u8], root: Slot) -> Graph {
    match root {
        Slot::Latin1 { len, at } => {
            let mut g = Graph::primitive(Value::String(JsString::new()));
            if let Value::String(s) = &mut g.root {
                s.set_latin1_slice(input.get(at..at + len as usize).unwrap_or(&[]));
            }
            g
        }
        s => Graph::primitive(owned_slot(input, s)),
    }
}

/// Makes `dst` the owned value of a slot of a graph of `input`, in place: a short Latin-1 string
/// is written as masked words (see `JsString::set_latin1_at`).
#[inline(always)]
fn set_value(dst: &mut Value, input: &[u8], s: Slot) {
    match s {
        Slot::Latin1 { len, at }
            if len as usize <= crate::string::INLINE
                && at.checked_add(24).is_some_and(|e| e <= input.len()) =>
        {
            *dst = Value::String(JsString::new());
            if let Value::String(js) = dst {
                js.set_latin1_at(input, at, len as usize);
            }
        }
        Slot::Number(n) => *dst = Value::Number(n),
        Slot::Bool(b) => *dst = Value::Bool(b),
        Slot::Object(id) => *dst = Value::Object(ObjId(id)),
        Slot::Null => *dst = Value::Null,
        Slot::Undefined => {}
        s => *dst = owned_slot(input, s),
    }
}

/// [`set_value`] for keys.
#[inline(always)]
fn set_key(dst: &mut JsString, input: &[u8], s: Slot) {
    match s {
        Slot::Latin1 { len, at } if len as usize <= crate::string::INLINE => {
            dst.set_latin1_at(input, at, len as usize)
        }
        s => *dst = owned_key(input, s),
    }
}

/// The owned value of a slot of a graph of `input`.
#[inline(always)]
fn owned_slot(input: &[u8], s: Slot) -> Value {
    match s {
        Slot::Undefined => Value::Undefined,
        Slot::Null => Value::Null,
        Slot::Bool(b) => Value::Bool(b),
        Slot::Number(n) => Value::Number(n),
        Slot::Object(id) => Value::Object(ObjId(id)),
        // The common string: short Latin-1, copied as masked words (`JsString::latin1_at`).
        Slot::Latin1 { len, at }
            if at
                .checked_add(len as usize)
                .is_some_and(|e| e <= input.len()) =>
        {
            Value::String(JsString::latin1_at(input, at, len as usize))
        }
        Slot::BigInt { negative, len, at } => Value::BigInt(
            BigIntRef {
                negative,
                magnitude_le: input.get(at..at + len as usize).unwrap_or(&[]),
            }
            .to_bigint(),
        ),
        s => Value::String(owned_key(input, s)),
    }
}

/// The owned string of a key or string slot of a graph of `input`.
#[inline(always)]
fn owned_key(input: &[u8], s: Slot) -> JsString {
    match s {
        Slot::Latin1 { len, at }
            if at
                .checked_add(len as usize)
                .is_some_and(|e| e <= input.len()) =>
        {
            JsString::latin1_at(input, at, len as usize)
        }
        s => slot_str(input, s).to_js_string(),
    }
}
