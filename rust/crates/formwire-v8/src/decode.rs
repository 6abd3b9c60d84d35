//! The owned decoder: V8 ValueSerializer bytes (versions 13..=15, raw and Node dialects) to a
//! [`Graph`]. It is the borrowing decoder ([`decode_borrowed`](crate::decode_borrowed),
//! `reader/`: every rule, error code, offset, limit and object id is decided there)
//! followed by [`BorrowedGraph::to_graph`](crate::BorrowedGraph::to_graph), which turns its arenas
//! of input offsets into the heap's arenas slot for slot. One wire reader serves both APIs.

use crate::error::Error;
use crate::reader::{DecodeOptions, decode_borrowed_with};
use crate::value::Graph;

/// Decodes one value with the default limits.
pub fn decode(input: &[u8]) -> Result<Graph, Error> {
    decode_with(input, &DecodeOptions::default())
}

/// Decodes one value with the given limits: [`decode_borrowed_with`] and then
/// [`BorrowedGraph::to_graph`](crate::BorrowedGraph::to_graph) (same errors, same object ids).
#[inline]
pub fn decode_with(input: &[u8], options: &DecodeOptions) -> Result<Graph, Error> {
    decode_borrowed_with(input, options).map(|g| g.to_graph())
}

#[cfg(test)]
mod size_tests {
    /// Objects and values live in the heap's arenas: keep them small.
    #[test]
    fn hot_types_stay_small() {
        assert!(std::mem::size_of::<crate::Object>() <= 40);
        assert!(std::mem::size_of::<crate::Value>() <= 24);
        assert!(std::mem::size_of::<crate::JsString>() <= 24);
        assert!(std::mem::size_of::<crate::Prop>() <= 48);
        assert!(std::mem::size_of::<crate::Props>() <= 12);
    }

    /// A decoder can move to another thread or sit behind a lock (it holds no thread state).
    #[test]
    fn decoder_is_send_and_sync() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<crate::Decoder>();
    }
}
