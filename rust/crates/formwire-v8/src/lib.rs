//! # formwire-v8
//!
//! The V8 ValueSerializer wire format (what `structuredClone`, `postMessage`, Node's `v8.serialize`
//! and Deno write), version 15, as a pure-Rust codec:
//!
//! - a value model that keeps everything JavaScript has: UTF-16 strings with lone surrogates, `-0`,
//!   NaN, holes and sparse arrays, BigInt, object identity and cycles ([`Heap`] + [`ObjId`]), Map/Set
//!   insertion order, Date, RegExp, wrapper objects, (resizable) ArrayBuffers and every view kind,
//!   Errors with name, message, stack and cause; object properties ([`Props`]) and array elements
//!   ([`Span`]) live in arenas of the [`Heap`], and objects of one shape share their key list;
//! - [`decode`]: everything V8 reads for versions 13..=15, plus Node's `v8.serialize` host-object
//!   views and the child_process `'advanced'` framing, with the stable `SC_` error codes and offsets
//!   of `spec/errors.md`, bounded by [`DecodeOptions`] (`max_depth`, `max_bytes`, `max_values`,
//!   `max_bigint_bytes`), without recursion;
//! - [`decode_borrowed`]: the same decoder into a [`BorrowedGraph`] that borrows strings, BigInt
//!   digits and buffer contents from the input (no allocation or copy per value; same errors, limits
//!   and object ids as [`decode`]; [`BorrowedGraph::to_graph`] gives the owned [`Graph`]);
//! - [`Decoder`]: both decoders with their working memory and arenas kept between calls, for a loop
//!   (the free functions allocate them per call; the crate keeps no global or per-thread state);
//! - [`encode`]: one canonical byte sequence per value (`spec/structured-clone.md`), and
//!   [`encode_into`] to append it to a caller's buffer;
//! - feature `serde`: [`serde`](crate::serde) `Serializer`/`Deserializer` for plain data.
//!
//! ```
//! use formwire_v8::{decode, encode, Graph, Heap, Object, Value};
//!
//! let mut heap = Heap::new();
//! let root = heap.object([("name", Value::str("Alice")), ("age", Value::Number(30.0))]);
//! let bytes = encode(&Graph::new(heap, root)).unwrap();
//! assert_eq!(&bytes[..2], &[0xFF, 0x0F]);
//! let back = decode(&bytes).unwrap();
//! assert!(back.same_as(&decode(&bytes).unwrap()));
//! let Some(Object::Plain(props)) = back.object(&back.root) else { panic!() };
//! assert_eq!(back.heap.prop(*props, "age"), Some(&Value::Number(30.0)));
//! let keys: Vec<String> = back.heap.keys(*props).iter().map(|k| k.to_string()).collect();
//! assert_eq!(keys, ["name", "age"]);
//!
//! // The same value read without copying: strings are slices of `bytes`.
//! use formwire_v8::{decode_borrowed, ObjectRef, ValueRef};
//! let g = decode_borrowed(&bytes).unwrap();
//! let Some(ObjectRef::Plain(p)) = g.get(&g.root()) else { panic!() };
//! let Some(ValueRef::String(name)) = g.prop(p, "name") else { panic!() };
//! assert_eq!(name.as_latin1(), Some(&b"Alice"[..]));
//! assert!(g.to_graph().same_as(&back));
//!
//! // Encoding into a reused buffer appends the same bytes.
//! let mut out = Vec::new();
//! formwire_v8::encode_into(&back, &mut out).unwrap();
//! assert_eq!(out, bytes);
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bigint;
pub mod borrowed;
mod decode;
mod encode;
mod error;
mod number;
mod reader;
pub mod registry;
mod string;
mod tags;
mod value;

#[cfg(feature = "serde")]
pub mod serde;

pub use bigint::BigInt;
pub use borrowed::{ArrayRef, BigIntRef, BorrowedGraph, ErrorRef, ObjectRef, Str, ValueRef};
pub use decode::{decode, decode_with};
pub use encode::{
    EncodeOptions, encode, encode_into, encode_value, encode_value_into, encode_with,
};
pub use error::{Error, ErrorCode, ErrorKind};
pub use number::number_to_js_string;
pub use reader::{DecodeOptions, Decoder, decode_borrowed, decode_borrowed_with};
pub use string::{JsString, Units};
pub use value::{
    Array, ArrayBuffer, ErrorName, ErrorObject, Graph, Heap, Item, ObjId, Object, Prop, Props,
    PropsIter, RegExpFlags, Span, Value, View, ViewKind,
};

// The README's examples are complete programs, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
