//! cargo-fuzz target: the borrowing V8 clone decoder never panics and gives the same answer twice on
//! one thread: the owned `decode_with` (the same reader, run again with the working memory and arenas
//! the first run left in the thread's cache, then `to_graph`) accepts with the same value or rejects
//! with the same error code and offset.
//!
//! The first byte picks the options, the rest is the input (v8_options.rs).
#![no_main]

use formwire_v8::{decode_borrowed_with, decode_with};
use libfuzzer_sys::fuzz_target;

#[path = "v8_options.rs"]
mod v8_options;

fuzz_target!(|data: &[u8]| {
    let Some((opts, input)) = v8_options::split(data) else { return };
    match (decode_with(input, &opts), decode_borrowed_with(input, &opts)) {
        (Ok(g), Ok(b)) => assert!(b.to_graph().same_as(&g), "decode_borrowed gives another value"),
        (Err(e), Err(b)) => assert_eq!((e.code, e.offset), (b.code, b.offset)),
        (o, b) => panic!("decode {:?}, decode_borrowed {:?}", o.err(), b.err()),
    }
});
