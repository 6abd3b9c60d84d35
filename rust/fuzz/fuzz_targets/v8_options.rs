//! The decode targets' input layout, shared with `#[path]`: the first byte picks the options (bit 0:
//! `node_ipc`, bits 1-3: a small `max_depth`, 0 = the default), the rest is the input.

use formwire_v8::DecodeOptions;

/// The options the first byte picks, and the input after it.
pub fn split(data: &[u8]) -> Option<(DecodeOptions, &[u8])> {
    let (&mode, input) = data.split_first()?;
    let mut opts = DecodeOptions { node_ipc: mode & 1 == 1, ..DecodeOptions::default() };
    let depth = u32::from((mode >> 1) & 7);
    if depth != 0 {
        opts.max_depth = depth;
    }
    Some((opts, input))
}
