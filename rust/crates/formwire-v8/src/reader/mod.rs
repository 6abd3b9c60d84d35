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
//! - a top-level primitive (a string, a number, an oddball) is read without the frame loop and
//!   without any working memory.

mod containers;
mod fast;
mod prim;
mod values;
mod wire;

pub use wire::DecodeOptions;

use crate::borrowed::{Arenas, BorrowedGraph, ObjSlot, SCRATCH_KEEP, Slot};
use crate::error::{Error, ErrorCode};
use crate::tags::*;
use wire::{EncKey, Index, Shape, varint_at, zigzag};

/// Decodes one value with the default limits, borrowing strings and bytes from `input`.
///
/// Accepts and rejects exactly what [`decode`](crate::decode) does, with the same error codes and
/// offsets, and gives objects the same ids; [`BorrowedGraph::to_graph`] is what `decode` returns.
///
/// The decoder's working memory is allocated for this call and freed at its end (nothing is kept
/// between calls); a loop that decodes many values reuses it with a [`Decoder`].
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
    decode_in(input, options, None)
}

/// A reusable decoder: the same reader as [`decode_borrowed_with`] and
/// [`decode_with`](crate::decode_with), with its working memory (open containers, scratch stacks,
/// shape caches) and a set of graph arenas kept between calls, so that a loop decoding one
/// message at a time allocates, once warm, nothing but the owned graphs `decode` returns (an
/// array with holes, a Map or a Set still collects its entries in a vector of its own).
///
/// - [`Decoder::decode`] returns an owned [`Graph`](crate::Graph); the borrowed arenas it reads
///   into stay with the decoder.
/// - [`Decoder::decode_borrowed`] returns a [`BorrowedGraph`] that owns its arenas (it borrows only
///   the input, never the decoder); hand it back with [`Decoder::recycle`] when done with it, and
///   the next decode fills its arenas in place. A graph that is dropped instead simply frees them.
///
/// What is kept is bounded: working memory or arenas that grew past 1 MiB for a large input are
/// freed at the end of the call (or by `recycle`) instead of kept. Nothing is shared between
/// decoders (no global or per-thread state): a decoder per thread or per connection, or one
/// behind a lock. Every decode is independent of the ones before it; only memory is reused.
///
/// ```
/// use formwire_v8::{Decoder, ObjectRef, ValueRef, encode, Graph, Heap, Value};
///
/// let mut heap = Heap::new();
/// let root = heap.object([("id", Value::Number(7.0))]);
/// let bytes = encode(&Graph::new(heap, root)).unwrap();
///
/// let mut decoder = Decoder::new();
/// for _ in 0..3 {
///     let g = decoder.decode_borrowed(&bytes).unwrap();
///     let Some(ObjectRef::Plain(p)) = g.get(&g.root()) else { panic!() };
///     assert_eq!(g.prop(p, "id"), Some(ValueRef::Number(7.0)));
///     decoder.recycle(g); // its arenas serve the next decode
/// }
/// let owned = decoder.decode(&bytes).unwrap();
/// assert!(owned.same_as(&formwire_v8::decode(&bytes).unwrap()));
/// ```
#[derive(Default)]
pub struct Decoder {
    options: DecodeOptions,
    s: Scratch,
}

impl Decoder {
    /// A decoder with the default limits.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// A decoder with the given limits.
    pub fn with_options(options: DecodeOptions) -> Decoder {
        Decoder {
            options,
            s: Scratch::default(),
        }
    }

    /// The limits every decode of this decoder applies.
    pub fn options(&self) -> &DecodeOptions {
        &self.options
    }

    /// Changes the limits of the decodes that follow (the kept memory stays).
    pub fn set_options(&mut self, options: DecodeOptions) {
        self.options = options;
    }

    /// [`decode_borrowed_with`] with this decoder's limits and kept memory.
    #[inline]
    pub fn decode_borrowed<'a>(&mut self, input: &'a [u8]) -> Result<BorrowedGraph<'a>, Error> {
        decode_in(input, &self.options, Some(&mut self.s))
    }

    /// [`decode_with`](crate::decode_with) with this decoder's limits and kept memory: the
    /// borrowed graph it reads into goes back to the decoder once the owned graph is made.
    #[inline]
    pub fn decode(&mut self, input: &[u8]) -> Result<crate::Graph, Error> {
        let g = self.decode_borrowed(input)?;
        let owned = g.to_graph();
        self.recycle(g);
        Ok(owned)
    }

    /// Takes back the arenas of a graph this decoder (or any other) returned, cleared, for the next
    /// decode to fill in place; arenas that grew past 1 MiB are freed instead. A graph of a
    /// top-level primitive has none (nothing to do).
    #[inline]
    pub fn recycle(&mut self, graph: BorrowedGraph<'_>) {
        if let Some(a) = graph.arenas {
            self.s.keep_arenas(a);
        }
    }
}

impl core::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decoder")
            .field("options", &self.options)
            .field("kept_bytes", &self.s.bytes())
            .finish_non_exhaustive()
    }
}

/// One decode: with a decoder's kept working memory, or with memory of its own for this call.
/// Always inlined: each caller keeps the primitive path in itself, and `kept` folds away.
#[inline(always)]
fn decode_in<'a>(
    input: &'a [u8],
    options: &DecodeOptions,
    kept: Option<&mut Scratch>,
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
        None => match kept {
            Some(s) => decode_general(input, options, s),
            None => decode_fresh(input, options),
        },
    }
}

/// [`decode_general`] with working memory of its own (out of line: the callers stay small enough
/// to inline, with the primitive path in them).
#[inline(never)]
fn decode_fresh<'a>(input: &'a [u8], options: &DecodeOptions) -> Result<BorrowedGraph<'a>, Error> {
    decode_general(input, options, &mut Scratch::default())
}

/// Everything but a top-level primitive.
#[inline(never)]
fn decode_general<'a>(
    input: &'a [u8],
    options: &DecodeOptions,
    scratch: &mut Scratch,
) -> Result<BorrowedGraph<'a>, Error> {
    let (first, version) = Dec::new(input, options, false, scratch).run();
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
                Dec::new(input, options, true, scratch).run().0.ok()
            } else {
                None
            };
            retry.ok_or(e)
        }
    };
    scratch.finish();
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
/// for anything else, which the decoder proper reads (and reports). Always inlined into the entry
/// points: it is the whole decode of a top-level primitive.
#[inline(always)]
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

/// The decoder's working memory (open containers, scratch stacks, shape caches) and a set of
/// arenas for the next graph: a [`Decoder`] keeps it between calls, so that decoding a small value
/// allocates nothing but the graph it returns; the free functions make one per call. What grew
/// past `SCRATCH_KEEP` bytes is freed at the end of a call instead of kept.
#[derive(Default)]
struct Scratch {
    ids: Vec<Option<u32>>,
    stack: Vec<Frame>,
    scratch_values: Vec<Slot>,
    scratch_elems: Vec<Slot>,
    scratch_at: Vec<[u32; 2]>,
    key_stack: Vec<Slot>,
    shapes: Vec<Shape>,
    /// Arenas for the next graph (a recycled graph's or a rejected input's), cleared.
    arenas: Option<Box<Arenas>>,
}

impl Scratch {
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

    /// The end of a call: cleared for the next one, or freed if it grew large (the kept arenas
    /// are bounded on their own, by `keep_arenas`).
    fn finish(&mut self) {
        if self.bytes() <= SCRATCH_KEEP {
            self.clear();
        } else {
            *self = Scratch {
                arenas: self.arenas.take(),
                ..Scratch::default()
            };
        }
    }

    /// Keeps `a` (cleared) for the next graph, unless it grew past `SCRATCH_KEEP` bytes.
    fn keep_arenas(&mut self, mut a: Box<Arenas>) {
        if a.bytes() <= SCRATCH_KEEP {
            a.clear();
            self.arenas = Some(a);
        }
    }

    /// The working memory's size (the kept arenas not included).
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

struct Dec<'a, 's> {
    /// The working memory (a decoder's, or this call's).
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
    /// The graph's arenas (a recycled graph's, cleared, when there was one), filled in place.
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
        // The arenas: a recycled graph's (cleared), or new ones.
        let boxed = if container { s.arenas.take() } else { None };
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
}
