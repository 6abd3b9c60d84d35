//! serde support for plain data (feature `serde`): any `Serialize` type to V8 clone bytes and back.
//!
//! Mapping (Rust → JS), chosen so that JavaScript receives what `JSON.parse` would give it, plus
//! what JSON cannot carry:
//!
//! | Rust | JS |
//! |---|---|
//! | `bool` | boolean |
//! | integers up to 32 bits, `f32`, `f64` | number |
//! | `i64`, `u64` | number when within ±(2^53-1), else BigInt |
//! | `i128`, `u128` | BigInt |
//! | `char`, `&str`, `String` | string |
//! | bytes (`serialize_bytes`, e.g. `serde_bytes`) | `Uint8Array` |
//! | `None`, `()`, unit struct | `null` |
//! | `Some(x)`, newtype struct | `x` |
//! | sequences, tuples, tuple structs | dense array |
//! | structs | object |
//! | maps | object when every key is a string or a number, else `Map` |
//! | enums | `"Variant"`, or `{"Variant": content}` (serde's external tagging) |
//!
//! Reading is lenient the other way: `undefined` reads as `null`/`None`, BigInts and integral numbers
//! read as integers, wrapper objects as their primitive, `Map`s and objects as maps or structs, `Set`s
//! as sequences, holes as `None`, `ArrayBuffer`s and views as bytes, a Date as its time value.
//! Cyclic values are refused (SC_LIMIT_DEPTH) since Rust data is a tree.

use crate::bigint::BigInt;
use crate::error::ErrorCode;
use crate::string::JsString;
use crate::value::{ArrayBuffer, Graph, Heap, Item, Object, Value, View, ViewKind};
use crate::{decode, encode, number_to_js_string};
use core::fmt;
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

/// An error from the serde layer: a codec error with its stable code, or a data-shape message.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The codec failed (decode or encode), with its `SC_` code and offset.
    Codec(crate::Error),
    /// The data did not fit the type (a serde message).
    Message(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Codec(e) => e.fmt(f),
            Error::Message(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Error {
        Error::Codec(e)
    }
}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::Message(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::Message(msg.to_string())
    }
}

type Result<T> = core::result::Result<T, Error>;

/// Serializes `value` to canonical V8 clone bytes.
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    Ok(encode(&to_graph(value)?)?)
}

/// Serializes `value` to a value graph.
pub fn to_graph<T: Serialize + ?Sized>(value: &T) -> Result<Graph> {
    let mut heap = Heap::new();
    let root = value.serialize(GraphSerializer { heap: &mut heap })?;
    Ok(Graph::new(heap, root))
}

/// Deserializes a `T` from V8 clone bytes (default limits).
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    from_graph(&decode(bytes)?)
}

/// Deserializes a `T` from a value graph.
pub fn from_graph<T: DeserializeOwned>(graph: &Graph) -> Result<T> {
    T::deserialize(ValueDeserializer {
        graph,
        value: &graph.root,
        depth: 0,
    })
}

// ------------------------------------------------------------------------------------ serializer

/// A serde `Serializer` that builds a [`Value`] into a [`Heap`].
pub struct GraphSerializer<'h> {
    /// Where objects are allocated.
    pub heap: &'h mut Heap,
}

const SAFE: i128 = 9007199254740991;

fn int_value(v: i128) -> Value {
    if (-SAFE..=SAFE).contains(&v) {
        Value::Number(v as f64)
    } else {
        Value::BigInt(BigInt::from_i128(v))
    }
}

impl<'h> ser::Serializer for GraphSerializer<'h> {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqBuilder<'h>;
    type SerializeTuple = SeqBuilder<'h>;
    type SerializeTupleStruct = SeqBuilder<'h>;
    type SerializeTupleVariant = VariantSeq<'h>;
    type SerializeMap = MapBuilder<'h>;
    type SerializeStruct = StructBuilder<'h>;
    type SerializeStructVariant = VariantStruct<'h>;

    fn serialize_bool(self, v: bool) -> Result<Value> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value> {
        Ok(Value::Number(f64::from(v)))
    }
    fn serialize_i16(self, v: i16) -> Result<Value> {
        Ok(Value::Number(f64::from(v)))
    }
    fn serialize_i32(self, v: i32) -> Result<Value> {
        Ok(Value::Number(f64::from(v)))
    }
    fn serialize_i64(self, v: i64) -> Result<Value> {
        Ok(int_value(i128::from(v)))
    }
    fn serialize_i128(self, v: i128) -> Result<Value> {
        Ok(Value::BigInt(BigInt::from_i128(v)))
    }
    fn serialize_u8(self, v: u8) -> Result<Value> {
        Ok(Value::Number(f64::from(v)))
    }
    fn serialize_u16(self, v: u16) -> Result<Value> {
        Ok(Value::Number(f64::from(v)))
    }
    fn serialize_u32(self, v: u32) -> Result<Value> {
        Ok(Value::Number(f64::from(v)))
    }
    fn serialize_u64(self, v: u64) -> Result<Value> {
        Ok(int_value(i128::from(v)))
    }
    fn serialize_u128(self, v: u128) -> Result<Value> {
        Ok(Value::BigInt(BigInt::from_u128(v)))
    }
    fn serialize_f32(self, v: f32) -> Result<Value> {
        Ok(Value::Number(f64::from(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<Value> {
        Ok(Value::Number(v))
    }
    fn serialize_char(self, v: char) -> Result<Value> {
        let mut b = [0u8; 4];
        Ok(Value::str(v.encode_utf8(&mut b)))
    }
    fn serialize_str(self, v: &str) -> Result<Value> {
        Ok(Value::str(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        let len = u32::try_from(v.len())
            .map_err(|_| Error::Message("byte string longer than 2^32-1".into()))?;
        let buffer = self.heap.alloc(Object::ArrayBuffer(ArrayBuffer {
            data: v.to_vec(),
            max_byte_length: None,
        }));
        let view = View {
            kind: ViewKind::Uint8Array,
            buffer,
            byte_offset: 0,
            byte_length: len,
            length_tracking: false,
        };
        Ok(self.heap.add(Object::View(view)))
    }
    fn serialize_none(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Result<Value> {
        Ok(Value::str(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value> {
        let inner = value.serialize(GraphSerializer { heap: self.heap })?;
        let o = self.heap.plain([(JsString::from_str(variant), inner)]);
        Ok(self.heap.add(o))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder<'h>> {
        Ok(SeqBuilder {
            heap: self.heap,
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder<'h>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqBuilder<'h>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSeq<'h>> {
        Ok(VariantSeq {
            variant,
            seq: SeqBuilder {
                heap: self.heap,
                items: Vec::with_capacity(len.min(4096)),
            },
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder<'h>> {
        Ok(MapBuilder {
            heap: self.heap,
            entries: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<StructBuilder<'h>> {
        Ok(StructBuilder {
            heap: self.heap,
            props: Vec::with_capacity(len),
        })
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantStruct<'h>> {
        Ok(VariantStruct {
            variant,
            inner: StructBuilder {
                heap: self.heap,
                props: Vec::with_capacity(len),
            },
        })
    }
}

/// Builds an array.
pub struct SeqBuilder<'h> {
    heap: &'h mut Heap,
    items: Vec<Value>,
}

impl SeqBuilder<'_> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let v = value.serialize(GraphSerializer { heap: self.heap })?;
        self.items.push(v);
        Ok(())
    }
    fn finish(self) -> Result<Value> {
        if self.items.len() > u32::MAX as usize {
            return Err(Error::Message("sequence longer than 2^32-1".into()));
        }
        let arr = self.heap.dense(self.items);
        Ok(self.heap.add(Object::Array(arr)))
    }
}

impl ser::SerializeSeq for SeqBuilder<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Value> {
        self.finish()
    }
}

impl ser::SerializeTuple for SeqBuilder<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Value> {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for SeqBuilder<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<Value> {
        self.finish()
    }
}

/// Builds `{"Variant": [...]}`.
pub struct VariantSeq<'h> {
    variant: &'static str,
    seq: SeqBuilder<'h>,
}

impl ser::SerializeTupleVariant for VariantSeq<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.seq.push(value)
    }
    fn end(self) -> Result<Value> {
        let variant = self.variant;
        let SeqBuilder { heap, items } = self.seq;
        let arr = heap.dense(items);
        let arr = heap.add(Object::Array(arr));
        let o = heap.plain([(JsString::from_str(variant), arr)]);
        Ok(heap.add(o))
    }
}

/// Builds an object (or a `Map` when a key is not a string or a number).
pub struct MapBuilder<'h> {
    heap: &'h mut Heap,
    entries: Vec<(Value, Value)>,
    key: Option<Value>,
}

impl ser::SerializeMap for MapBuilder<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key.serialize(GraphSerializer { heap: self.heap })?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let k = self
            .key
            .take()
            .ok_or_else(|| Error::Message("map value without a key".into()))?;
        let v = value.serialize(GraphSerializer { heap: self.heap })?;
        self.entries.push((k, v));
        Ok(())
    }
    fn end(self) -> Result<Value> {
        let plain = self
            .entries
            .iter()
            .all(|(k, _)| matches!(k, Value::String(_) | Value::Number(_)));
        if !plain {
            return Ok(self.heap.add(Object::Map(self.entries)));
        }
        let mut props: Vec<(JsString, Value)> = Vec::with_capacity(self.entries.len());
        for (k, v) in self.entries {
            let name = match k {
                Value::String(s) => s,
                Value::Number(n) => JsString::from(number_to_js_string(n)),
                _ => unreachable!(),
            };
            // `obj[k] = v`: a repeated name keeps its place and takes the last value.
            match props.iter_mut().find(|(p, _)| *p == name) {
                Some(slot) => slot.1 = v,
                None => props.push((name, v)),
            }
        }
        sort_index_keys_first(&mut props);
        let o = self.heap.plain(props);
        Ok(self.heap.add(o))
    }
}

/// Builds an object from struct fields.
pub struct StructBuilder<'h> {
    heap: &'h mut Heap,
    props: Vec<(JsString, Value)>,
}

impl StructBuilder<'_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        let v = value.serialize(GraphSerializer { heap: self.heap })?;
        self.props.push((JsString::from_str(key), v));
        Ok(())
    }
}

impl ser::SerializeStruct for StructBuilder<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(mut self) -> Result<Value> {
        sort_index_keys_first(&mut self.props);
        let o = self.heap.plain(self.props);
        Ok(self.heap.add(o))
    }
}

/// Builds `{"Variant": {...}}`.
pub struct VariantStruct<'h> {
    variant: &'static str,
    inner: StructBuilder<'h>,
}

impl ser::SerializeStructVariant for VariantStruct<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.inner.field(key, value)
    }
    fn end(self) -> Result<Value> {
        let StructBuilder { heap, mut props } = self.inner;
        sort_index_keys_first(&mut props);
        let o = heap.plain(props);
        let obj = heap.add(o);
        let o = heap.plain([(JsString::from_str(self.variant), obj)]);
        Ok(heap.add(o))
    }
}

// ---------------------------------------------------------------------------------- deserializer

/// Deepest nesting read into Rust data (cycles end here); serde_json uses the same bound.
const MAX_DEPTH: usize = 128;

/// A serde `Deserializer` over one value of a [`Graph`].
#[derive(Clone, Copy)]
pub struct ValueDeserializer<'g> {
    graph: &'g Graph,
    value: &'g Value,
    depth: usize,
}

impl<'g> ValueDeserializer<'g> {
    /// A deserializer for the graph's root.
    pub fn new(graph: &'g Graph) -> ValueDeserializer<'g> {
        ValueDeserializer {
            graph,
            value: &graph.root,
            depth: 0,
        }
    }

    fn child(&self, value: &'g Value) -> Result<ValueDeserializer<'g>> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::Codec(crate::Error::new(
                ErrorCode::LimitDepth,
                0,
                "value nested too deeply (or cyclic) for plain data",
            )));
        }
        Ok(ValueDeserializer {
            graph: self.graph,
            value,
            depth: self.depth + 1,
        })
    }

    fn object(&self) -> Option<&'g Object> {
        self.graph.object(self.value)
    }

    /// The primitive behind a wrapper object, else the value itself.
    fn unwrapped(&self) -> Primitive<'g> {
        match self.value {
            Value::Object(_) => match self.object() {
                Some(Object::BooleanObject(b)) => Primitive::Bool(*b),
                Some(Object::NumberObject(n)) | Some(Object::Date(n)) => Primitive::Number(*n),
                Some(Object::BigIntObject(b)) => Primitive::BigInt(b),
                Some(Object::StringObject(s)) => Primitive::String(s),
                _ => Primitive::Other,
            },
            Value::Undefined | Value::Null => Primitive::Null,
            Value::Bool(b) => Primitive::Bool(*b),
            Value::Number(n) => Primitive::Number(*n),
            Value::BigInt(b) => Primitive::BigInt(b),
            Value::String(s) => Primitive::String(s),
        }
    }

    fn bytes(&self) -> Option<&'g [u8]> {
        match self.object()? {
            Object::ArrayBuffer(b) => Some(&b.data),
            Object::View(v) => match self.graph.heap.get(v.buffer)? {
                Object::ArrayBuffer(b) => {
                    let start = v.byte_offset as usize;
                    b.data.get(start..start + v.byte_length as usize)
                }
                _ => None,
            },
            _ => None,
        }
    }
}

enum Primitive<'g> {
    Null,
    Bool(bool),
    Number(f64),
    BigInt(&'g BigInt),
    String(&'g JsString),
    Other,
}

fn visit_number<'de, V: Visitor<'de>>(n: f64, visitor: V) -> Result<V::Value> {
    if n.fract() == 0.0 && n.abs() <= SAFE as f64 {
        if n < 0.0 {
            visitor.visit_i64(n as i64)
        } else {
            visitor.visit_u64(n as u64)
        }
    } else {
        visitor.visit_f64(n)
    }
}

fn visit_bigint<'de, V: Visitor<'de>>(b: &BigInt, visitor: V) -> Result<V::Value> {
    if let Some(i) = b.to_i128() {
        if let Ok(i) = i64::try_from(i) {
            return visitor.visit_i64(i);
        }
        if let Ok(u) = u64::try_from(i) {
            return visitor.visit_u64(u);
        }
        return visitor.visit_i128(i);
    }
    if let Some(u) = b.to_u128() {
        return visitor.visit_u128(u);
    }
    Err(Error::Message(format!(
        "BigInt {} does not fit in 128 bits",
        b.to_decimal()
    )))
}

fn visit_jsstring<'de, V: Visitor<'de>>(s: &JsString, visitor: V) -> Result<V::Value> {
    match s.as_latin1() {
        Some(b) if b.is_ascii() => match std::str::from_utf8(b) {
            Ok(text) => visitor.visit_str(text),
            Err(_) => visitor.visit_string(s.to_string_lossy()),
        },
        _ => visitor.visit_string(s.to_string_lossy()),
    }
}

impl<'de, 'g> de::Deserializer<'de> for ValueDeserializer<'g> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.unwrapped() {
            Primitive::Null => return visitor.visit_unit(),
            Primitive::Bool(b) => return visitor.visit_bool(b),
            Primitive::Number(n) => return visit_number(n, visitor),
            Primitive::BigInt(b) => return visit_bigint(b, visitor),
            Primitive::String(s) => return visit_jsstring(s, visitor),
            Primitive::Other => {}
        }
        match self.object() {
            Some(Object::Plain(props)) => match (
                self.graph.heap.get_keys(*props),
                self.graph.heap.get_values(*props),
            ) {
                (Some(keys), Some(values)) => visitor.visit_map(PropsAccess {
                    de: self,
                    keys,
                    values,
                    i: 0,
                }),
                _ => Err(Error::Message("properties outside the heap".into())),
            },
            Some(Object::Map(entries)) => visitor.visit_map(EntriesAccess {
                de: self,
                entries,
                i: 0,
            }),
            Some(Object::Array(arr)) => match self.graph.heap.get_items(arr.items) {
                Some(items) => visitor.visit_seq(ArrayAccess {
                    de: self,
                    length: arr.length,
                    items,
                    i: 0,
                    next_item: 0,
                }),
                None => Err(Error::Message("element span outside the heap".into())),
            },
            Some(Object::Set(values)) => visitor.visit_seq(ValuesAccess {
                de: self,
                values,
                i: 0,
            }),
            Some(Object::ArrayBuffer(_)) | Some(Object::View(_)) => match self.bytes() {
                Some(b) => visitor.visit_bytes(b),
                None => Err(Error::Message("view out of bounds".into())),
            },
            Some(Object::RegExp { source, .. }) => visit_jsstring(source, visitor),
            Some(Object::Error(e)) => {
                let mut props: Vec<(JsString, Value)> =
                    vec![(JsString::from_str("name"), Value::str(e.name.name()))];
                if let Some(m) = &e.message {
                    props.push((JsString::from_str("message"), Value::String(m.clone())));
                }
                if let Some(s) = &e.stack {
                    props.push((JsString::from_str("stack"), Value::String(s.clone())));
                }
                visitor.visit_map(OwnedPropsAccess {
                    props: props.into_iter(),
                    value: None,
                })
            }
            _ => Err(Error::Message("dangling object reference".into())),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::Undefined | Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.bytes() {
            Some(b) => visitor.visit_bytes(b),
            None => self.deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.unwrapped() {
            Primitive::String(s) => {
                let d: de::value::StringDeserializer<Error> =
                    s.to_string_lossy().into_deserializer();
                return visitor.visit_enum(d);
            }
            Primitive::Other => {}
            _ => {
                return Err(Error::Message(
                    "an enum is a string or a one-key object".into(),
                ));
            }
        }
        match self.object() {
            Some(Object::Plain(props)) if props.len() == 1 => {
                let (Some([k]), Some([v])) = (
                    self.graph.heap.get_keys(*props),
                    self.graph.heap.get_values(*props),
                ) else {
                    return Err(Error::Message("properties outside the heap".into()));
                };
                visitor.visit_enum(EnumAccess {
                    variant: k.to_string_lossy(),
                    de: self.child(v)?,
                })
            }
            _ => Err(Error::Message(
                "an enum is a string or a one-key object".into(),
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

struct PropsAccess<'g> {
    de: ValueDeserializer<'g>,
    keys: &'g [JsString],
    values: &'g [Value],
    i: usize,
}

impl<'de> de::MapAccess<'de> for PropsAccess<'_> {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(k) = self.keys.get(self.i) else {
            return Ok(None);
        };
        seed.deserialize(KeyDeserializer(k)).map(Some)
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let v = self
            .values
            .get(self.i)
            .ok_or_else(|| Error::Message("value without a key".into()))?;
        self.i += 1;
        seed.deserialize(self.de.child(v)?)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.keys.len() - self.i)
    }
}

struct OwnedPropsAccess {
    props: std::vec::IntoIter<(JsString, Value)>,
    value: Option<Value>,
}

impl<'de> de::MapAccess<'de> for OwnedPropsAccess {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((k, v)) = self.props.next() else {
            return Ok(None);
        };
        self.value = Some(v);
        seed.deserialize(KeyDeserializer(&k)).map(Some)
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let v = self.value.take().unwrap_or_default();
        let g = Graph::primitive(v);
        seed.deserialize(ValueDeserializer {
            graph: &g,
            value: &g.root,
            depth: 0,
        })
    }
}

struct EntriesAccess<'g> {
    de: ValueDeserializer<'g>,
    entries: &'g [(Value, Value)],
    i: usize,
}

impl<'de> de::MapAccess<'de> for EntriesAccess<'_> {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((k, _)) = self.entries.get(self.i) else {
            return Ok(None);
        };
        seed.deserialize(self.de.child(k)?).map(Some)
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let (_, v) = &self.entries[self.i];
        self.i += 1;
        seed.deserialize(self.de.child(v)?)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len() - self.i)
    }
}

struct ArrayAccess<'g> {
    de: ValueDeserializer<'g>,
    length: u32,
    items: &'g [Item],
    /// The next index to hand out.
    i: u32,
    /// Position in `items`.
    next_item: usize,
}

static UNDEFINED: Value = Value::Undefined;

impl<'de> de::SeqAccess<'de> for ArrayAccess<'_> {
    type Error = Error;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        if self.i >= self.length {
            return Ok(None);
        }
        let value = match self.items.get(self.next_item) {
            Some((idx, v)) if *idx == self.i => {
                self.next_item += 1;
                v
            }
            // A hole reads as `undefined`.
            _ => &UNDEFINED,
        };
        self.i += 1;
        seed.deserialize(self.de.child(value)?).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some((self.length - self.i) as usize)
    }
}

struct ValuesAccess<'g> {
    de: ValueDeserializer<'g>,
    values: &'g [Value],
    i: usize,
}

impl<'de> de::SeqAccess<'de> for ValuesAccess<'_> {
    type Error = Error;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let Some(v) = self.values.get(self.i) else {
            return Ok(None);
        };
        self.i += 1;
        seed.deserialize(self.de.child(v)?).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.values.len() - self.i)
    }
}

/// Property names: strings, also readable as integers (`HashMap<u32, _>` from `{"1": ...}`).
struct KeyDeserializer<'a>(&'a JsString);

impl<'de> de::Deserializer<'de> for KeyDeserializer<'_> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_jsstring(self.0, visitor)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let d: de::value::StringDeserializer<Error> = self.0.to_string_lossy().into_deserializer();
        visitor.visit_enum(d)
    }
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.to_string_lossy().as_str() {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => visit_jsstring(self.0, visitor),
        }
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        parse_key_number(self.0, visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        parse_key_number(self.0, visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        parse_key_number(self.0, visitor)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        parse_key_number(self.0, visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        parse_key_number(self.0, visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        parse_key_number(self.0, visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        parse_key_number(self.0, visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        parse_key_number(self.0, visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.to_string_lossy().parse::<f64>() {
            Ok(n) => visitor.visit_f64(n),
            Err(_) => visit_jsstring(self.0, visitor),
        }
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_f64(visitor)
    }
    serde::forward_to_deserialize_any! {
        i128 u128 char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

fn parse_key_number<'de, V: Visitor<'de>>(k: &JsString, visitor: V) -> Result<V::Value> {
    let s = k.to_string_lossy();
    if let Ok(u) = s.parse::<u64>() {
        return visitor.visit_u64(u);
    }
    if let Ok(i) = s.parse::<i64>() {
        return visitor.visit_i64(i);
    }
    visitor.visit_string(s)
}

struct EnumAccess<'g> {
    variant: String,
    de: ValueDeserializer<'g>,
}

impl<'de, 'g> de::EnumAccess<'de> for EnumAccess<'g> {
    type Error = Error;
    type Variant = ValueDeserializer<'g>;
    fn variant_seed<V: de::DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant)> {
        let d: de::value::StringDeserializer<Error> = self.variant.into_deserializer();
        let v = seed.deserialize(d)?;
        Ok((v, self.de))
    }
}

impl<'de> de::VariantAccess<'de> for ValueDeserializer<'_> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(self, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_any(self, visitor)
    }
}

/// JS property enumeration order: array-index keys ascending, then the rest in insertion order.
fn sort_index_keys_first(props: &mut [(JsString, Value)]) {
    props.sort_by_key(|(k, _)| match k.as_array_index() {
        Some(i) => (0u8, i),
        None => (1u8, 0),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_pick_number_or_bigint() {
        assert_eq!(int_value(5), Value::Number(5.0));
        assert_eq!(
            int_value(SAFE + 1),
            Value::BigInt(BigInt::from_i128(SAFE + 1))
        );
        assert_eq!(
            int_value(-SAFE - 1),
            Value::BigInt(BigInt::from_i128(-SAFE - 1))
        );
    }
}
