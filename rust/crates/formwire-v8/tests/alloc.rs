//! The heap's own drop (which skips the objects that own nothing) frees everything: decoding and
//! dropping graphs of every kind leaves no allocation behind (the free functions keep nothing
//! between calls). A `Decoder` that decodes and recycles one graph at a time allocates nothing once
//! its memory has grown to the inputs, and keeps at most about 1 MiB each of working memory and
//! arenas after a large input.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// This thread's allocations (calls) and live bytes: the harness's other threads do not count.
    static CALLS: Cell<u64> = const { Cell::new(0) };
    static MINE: Cell<isize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::SeqCst);
        let _ = CALLS.try_with(|c| c.set(c.get() + 1));
        let _ = MINE.try_with(|c| c.set(c.get() + layout.size() as isize));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        let _ = MINE.try_with(|c| c.set(c.get() - layout.size() as isize));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::SeqCst);
        let _ = CALLS.try_with(|c| c.set(c.get() + 1));
        let _ = MINE.try_with(|c| c.set(c.get() + new_size as isize - layout.size() as isize));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn decoded_graphs_free_everything() {
    // Encodings made first, so that only decoding and dropping happen between the two counts.
    let inputs: Vec<Vec<u8>> = (0..400u64)
        .map(|seed| {
            let g = if seed % 2 == 0 {
                common::Gen::graph(seed)
            } else {
                common::shapey_graph(seed)
            };
            formwire_v8::encode(&g).unwrap()
        })
        .collect();
    let before = MINE.with(Cell::get);
    let owning = decode_all(&inputs);
    assert!(
        owning > 50,
        "only {owning} graphs with objects that own memory"
    );
    assert_eq!(
        MINE.with(Cell::get) - before,
        0,
        "decode + drop leaked bytes"
    );
}

/// Decodes and drops every input; how many graphs held objects that own memory.
fn decode_all(inputs: &[Vec<u8>]) -> usize {
    let mut owning = 0;
    for bytes in inputs {
        let g = formwire_v8::decode(bytes).unwrap();
        // Make sure the graphs hold objects that own memory (maps, sets, errors, buffers, strings).
        if g.heap.iter().any(|(_, o)| {
            matches!(
                o,
                formwire_v8::Object::Map(_)
                    | formwire_v8::Object::Set(_)
                    | formwire_v8::Object::Error(_)
                    | formwire_v8::Object::ArrayBuffer(_)
                    | formwire_v8::Object::RegExp { .. }
                    | formwire_v8::Object::StringObject(_)
                    | formwire_v8::Object::BigIntObject(_)
            )
        }) {
            owning += 1;
        }
        drop(g);
    }
    owning
}

/// Values of the common kinds: arrays of records, nested objects of other shapes, dense arrays
/// of primitives, strings. (An array with holes, a Map or a Set collects its entries in a vector
/// of its own while it is read.)
fn plain_values() -> Vec<Vec<u8>> {
    use formwire_v8::{Graph, Heap, Value};
    (0..40u32)
        .map(|i| {
            let mut heap = Heap::new();
            let records: Vec<Value> = (0..i * 5)
                .map(|j| {
                    heap.object([
                        ("name", Value::str(if j % 2 == 0 { "Alice" } else { "Bob" })),
                        ("age", Value::Number(f64::from(j))),
                        ("active", Value::Bool(j % 3 == 0)),
                    ])
                })
                .collect();
            let records = heap.array(records);
            let tags =
                heap.array((0..i % 7).map(|j| Value::str(["a", "bb", "ccc"][j as usize % 3])));
            let limits =
                heap.object([("depth", Value::Number(8.0)), ("bytes", Value::Number(1e6))]);
            let server = heap.object([
                ("host", Value::str("localhost")),
                ("port", Value::Number(8080.0 + f64::from(i))),
                ("limits", limits),
                ("tags", tags),
            ]);
            let root = heap.object([
                ("server", server),
                ("records", records),
                ("n", Value::Number(f64::from(i))),
            ]);
            formwire_v8::encode(&Graph::new(heap, root)).unwrap()
        })
        .collect()
}

#[test]
fn a_decoder_in_steady_state_allocates_nothing() {
    let inputs = plain_values();
    let mut dec = formwire_v8::Decoder::new();
    let round = |dec: &mut formwire_v8::Decoder| {
        let before = CALLS.with(Cell::get);
        for bytes in &inputs {
            let g = dec.decode_borrowed(bytes).unwrap();
            std::hint::black_box(g.len());
            dec.recycle(g);
        }
        CALLS.with(Cell::get) - before
    };
    // The first round grows the kept memory to what the inputs need; then nothing is allocated.
    assert!(round(&mut dec) > 0);
    assert_eq!(round(&mut dec), 0, "allocations per round once warm");
    assert_eq!(round(&mut dec), 0, "allocations per round once warm");
    // The free function allocates its working memory and the graph's arenas every time.
    let before = CALLS.with(Cell::get);
    std::hint::black_box(formwire_v8::decode_borrowed(&inputs[3]).unwrap());
    assert!(CALLS.with(Cell::get) > before);
}

#[test]
fn a_decoder_keeps_a_bounded_amount() {
    // An array of 100,000 records: megabytes of working memory and arenas while it is decoded.
    let mut heap = formwire_v8::Heap::new();
    let records: Vec<formwire_v8::Value> = (0..100_000)
        .map(|i| {
            let inner = heap.object([("v", formwire_v8::Value::Number(f64::from(i)))]);
            heap.object([
                ("id", formwire_v8::Value::Number(f64::from(i))),
                ("inner", inner),
            ])
        })
        .collect();
    let root = heap.array(records);
    let bytes = formwire_v8::encode(&formwire_v8::Graph::new(heap, root)).unwrap();
    let small = formwire_v8::encode(&common::shapey_graph(1)).unwrap();
    let before = MINE.with(Cell::get);
    let mut dec = formwire_v8::Decoder::new();
    let g = dec.decode_borrowed(&bytes).unwrap();
    let peak = MINE.with(Cell::get) - before;
    assert_eq!(g.len(), 200_001);
    dec.recycle(g);
    let kept = MINE.with(Cell::get) - before;
    assert!(peak > 4 << 20, "the decode held {peak} bytes");
    assert!(kept <= 2 << 20, "the decoder keeps {kept} bytes");
    // Small inputs after it reuse what is kept.
    for _ in 0..3 {
        let g = dec.decode_borrowed(&small).unwrap();
        dec.recycle(g);
    }
    drop(dec);
    assert_eq!(
        MINE.with(Cell::get),
        before,
        "the decoder frees what it keeps"
    );
}
