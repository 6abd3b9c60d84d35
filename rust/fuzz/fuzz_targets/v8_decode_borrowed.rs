//! cargo-fuzz target: the borrowing V8 clone decoder never panics and gives the same answer with
//! memory of its own as with a `Decoder` that kept its working memory and arenas from every
//! earlier input: the owned `decode_with` (fresh), `decode_borrowed` of that decoder (then
//! `to_graph`) and its owned `decode` accept with the same value or reject with the same error code
//! and offset.
//!
//! The first byte picks the options, the rest is the input (v8_options.rs).
#![no_main]

use std::sync::Mutex;

use formwire_v8::{decode_with, Decoder};
use libfuzzer_sys::fuzz_target;

#[path = "v8_options.rs"]
mod v8_options;

/// The decoder every input of the run goes through (its kept memory is the earlier inputs').
static KEPT: Mutex<Option<Decoder>> = Mutex::new(None);

fuzz_target!(|data: &[u8]| {
    let Some((opts, input)) = v8_options::split(data) else { return };
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    let dec = kept.get_or_insert_with(Decoder::new);
    dec.set_options(opts.clone());
    let fresh = decode_with(input, &opts);
    match (&fresh, dec.decode_borrowed(input)) {
        (Ok(g), Ok(b)) => {
            assert!(b.to_graph().same_as(g), "decode_borrowed gives another value");
            dec.recycle(b);
        }
        (Err(e), Err(b)) => assert_eq!((e.code, e.offset), (b.code, b.offset)),
        (o, b) => panic!("decode {:?}, decode_borrowed {:?}", o.as_ref().err(), b.err()),
    }
    match (&fresh, dec.decode(input)) {
        (Ok(g), Ok(o)) => assert!(o.same_as(g), "Decoder::decode gives another value"),
        (Err(e), Err(o)) => assert_eq!((e.code, e.offset), (o.code, o.offset)),
        (f, o) => panic!("decode {:?}, Decoder::decode {:?}", f.as_ref().err(), o.err()),
    }
});
