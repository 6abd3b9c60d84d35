//! Typed errors with the stable `SC_` codes of `spec/errors.md`.

use core::fmt;

/// The stable `SC_` codes of `spec/errors.md` (with their kind and HTTP status), generated from
/// `spec/registry.json`.
pub use crate::registry::{ErrorCode, ErrorKind};

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decode or encode error: a stable [`ErrorCode`] and a byte offset (`spec/errors.md`).
///
/// The message is human text, not part of the contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The stable code.
    pub code: ErrorCode,
    /// Decoder: an offset into the input, as the code documents. Encoder: the output length when the error happened.
    pub offset: u64,
    message: &'static str,
}

impl Error {
    /// An error with a code, an offset and a short static message.
    pub const fn new(code: ErrorCode, offset: u64, message: &'static str) -> Error {
        Error {
            code,
            offset,
            message,
        }
    }

    /// Human-readable detail (not part of the contract).
    pub fn message(&self) -> &'static str {
        self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {}: {}",
            self.code.as_str(),
            self.offset,
            self.message
        )
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_with_their_registry_kind_and_status() {
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_str_code(code.as_str()), Some(code));
            assert!(code.as_str().starts_with("SC_"), "{code}");
            let limit = code.as_str().starts_with("SC_LIMIT_");
            assert_eq!(code.http_status() == Some(413), limit, "{code}");
        }
        assert_eq!(ErrorCode::Truncated.http_status(), Some(400));
        assert_eq!(ErrorCode::Unsupported.kind(), ErrorKind::Unsupported);
        assert_eq!(ErrorCode::DataClone.http_status(), None);
        assert_eq!(ErrorCode::from_str_code("MP_TRUNCATED"), None);
        let d = crate::DecodeOptions::default();
        assert_eq!((d.max_depth, d.max_bytes), (1000, 256 << 20));
    }
}
