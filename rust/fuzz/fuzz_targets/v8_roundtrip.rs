//! cargo-fuzz target: whatever the decoder accepts re-encodes canonically, decodes back to the same
//! value (identity and cycles included), and the canonical bytes are a fixed point.
#![no_main]

use formwire_v8::{decode, decode_with, encode, DecodeOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, input)) = data.split_first() else { return };
    let opts = DecodeOptions { node_ipc: mode & 1 == 1, ..DecodeOptions::default() };
    let Ok(graph) = decode_with(input, &opts) else { return };
    let bytes = encode(&graph).expect("a decoded value re-encodes");
    let back = decode(&bytes).expect("canonical bytes decode");
    assert!(back.same_as(&graph), "decode(encode(decode(x))) differs from decode(x)");
    assert_eq!(encode(&back).expect("re-encode"), bytes, "canonical encoding is not a fixed point");
});
