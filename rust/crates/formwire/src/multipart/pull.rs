//! One event at a time, without borrows: the shared step of the I/O adapters
//! ([`read`](super::read), `stream`). They own their chunk buffers and feed
//! the parser the unconsumed rest of the current chunk for every event.

use core::ops::Range;

use super::{Event, Parser};
use crate::error::Error;

/// One event as offsets into the chunk that was given to [`pull`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// [`Event::PartStart`]: the headers are in [`Parser::last_part`].
    PartStart,
    /// [`Event::Data`]: `chunk[range]`.
    Data(Range<usize>),
    /// [`Event::HeldData`]: the bytes were copied into `held` (at most the
    /// delimiter length).
    Held,
    /// [`Event::PartEnd`].
    PartEnd,
    /// [`Event::End`].
    End,
    /// The chunk is used up (or, at the end of input, nothing is left).
    Need,
}

/// Feeds `chunk` (or, with `eof`, ends the input: `chunk` is then ignored)
/// and takes one event. Returns it with the number of chunk bytes consumed.
pub(crate) fn pull(
    parser: &mut Parser,
    chunk: &[u8],
    eof: bool,
    held: &mut Vec<u8>,
) -> Result<(Step, usize), Error> {
    let mut feed = if eof {
        parser.finish()
    } else {
        parser.feed(chunk)
    };
    let step = match feed.next() {
        None => Step::Need,
        Some(Err(e)) => return Err(e),
        Some(Ok(Event::PartStart(_))) => Step::PartStart,
        Some(Ok(Event::Data(d))) => Step::Data(feed.chunk_range(d).unwrap_or_default()),
        Some(Ok(Event::HeldData(d))) => {
            held.clear();
            held.extend_from_slice(d);
            Step::Held
        }
        Some(Ok(Event::PartEnd)) => Step::PartEnd,
        Some(Ok(Event::End)) => Step::End,
    };
    let used = if eof {
        0
    } else {
        chunk.len() - feed.remaining().len()
    };
    Ok((step, used))
}
