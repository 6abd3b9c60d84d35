//! The heap's own drop (which skips the objects that own nothing) frees everything: decoding and
//! dropping graphs of every kind leaves no allocation behind once the thread that decoded ends (the
//! decoder keeps its working memory and the last dropped arenas per thread, up to 1 MiB each).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::SeqCst);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
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
    // The count is process-wide, so the test harness's own threads can allocate during a round; a leak of the
    // decoder repeats in every round (same inputs), while the harness's noise does not: the smallest round must be 0.
    let mut leaks = Vec::new();
    for _ in 0..3 {
        let before = LIVE.load(Ordering::SeqCst);
        let owning = std::thread::scope(|s| s.spawn(|| decode_all(&inputs)).join().unwrap());
        let after = LIVE.load(Ordering::SeqCst);
        assert!(
            owning > 50,
            "only {owning} graphs with objects that own memory"
        );
        leaks.push(after - before);
        if after == before {
            break;
        }
    }
    assert_eq!(
        leaks.iter().min(),
        Some(&0),
        "decode + drop leaked bytes in every round: {leaks:?}"
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
