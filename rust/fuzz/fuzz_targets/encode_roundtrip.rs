//! cargo-fuzz target: the `encode_roundtrip` property of `formwire_props` (src/lib.rs documents it and its input layout).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| formwire_props::encode_roundtrip(data));
