//! cargo-fuzz target: the V8 clone decoder never panics, and its errors point inside the input.
//!
//! The first byte picks the options (bit 0: `node_ipc`, bits 1-3: a small `max_depth`), the rest is the input.
#![no_main]

use formwire_v8::{decode_with, DecodeOptions, ErrorCode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, input)) = data.split_first() else { return };
    let mut opts = DecodeOptions { node_ipc: mode & 1 == 1, ..DecodeOptions::default() };
    let depth = u32::from((mode >> 1) & 7);
    if depth != 0 {
        opts.max_depth = depth;
    }
    match decode_with(input, &opts) {
        Ok(_) => {}
        Err(e) => {
            assert!(e.offset <= input.len() as u64, "{e} points past the input");
            if e.code == ErrorCode::Truncated {
                assert_eq!(e.offset, input.len() as u64);
            }
        }
    }
});
