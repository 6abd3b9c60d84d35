//! cargo-fuzz target: the V8 clone decoder never panics, and its errors point inside the input.
//!
//! The first byte picks the options, the rest is the input (v8_options.rs).
#![no_main]

use formwire_v8::{decode_with, ErrorCode};
use libfuzzer_sys::fuzz_target;

#[path = "v8_options.rs"]
mod v8_options;

fuzz_target!(|data: &[u8]| {
    let Some((opts, input)) = v8_options::split(data) else { return };
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
