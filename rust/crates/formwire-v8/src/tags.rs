//! Tag bytes of the V8 ValueSerializer format (`v8/src/objects/value-serializer.cc`, `SerializationTag`).

#![allow(missing_docs)]

pub const TAG_VERSION: u8 = 0xFF;
pub const TAG_PADDING: u8 = 0x00;
pub const TAG_VERIFY_COUNT: u8 = b'?';
pub const TAG_THE_HOLE: u8 = b'-';
pub const TAG_UNDEFINED: u8 = b'_';
pub const TAG_NULL: u8 = b'0';
pub const TAG_TRUE: u8 = b'T';
pub const TAG_FALSE: u8 = b'F';
pub const TAG_INT32: u8 = b'I';
pub const TAG_UINT32: u8 = b'U';
pub const TAG_DOUBLE: u8 = b'N';
pub const TAG_BIGINT: u8 = b'Z';
pub const TAG_UTF8_STRING: u8 = b'S';
pub const TAG_ONE_BYTE_STRING: u8 = b'"';
pub const TAG_TWO_BYTE_STRING: u8 = b'c';
pub const TAG_OBJECT_REFERENCE: u8 = b'^';
pub const TAG_BEGIN_JS_OBJECT: u8 = b'o';
pub const TAG_END_JS_OBJECT: u8 = b'{';
pub const TAG_BEGIN_SPARSE_JS_ARRAY: u8 = b'a';
pub const TAG_END_SPARSE_JS_ARRAY: u8 = b'@';
pub const TAG_BEGIN_DENSE_JS_ARRAY: u8 = b'A';
pub const TAG_END_DENSE_JS_ARRAY: u8 = b'$';
pub const TAG_DATE: u8 = b'D';
pub const TAG_TRUE_OBJECT: u8 = b'y';
pub const TAG_FALSE_OBJECT: u8 = b'x';
pub const TAG_NUMBER_OBJECT: u8 = b'n';
pub const TAG_BIGINT_OBJECT: u8 = b'z';
pub const TAG_STRING_OBJECT: u8 = b's';
pub const TAG_REGEXP: u8 = b'R';
pub const TAG_BEGIN_JS_MAP: u8 = b';';
pub const TAG_END_JS_MAP: u8 = b':';
pub const TAG_BEGIN_JS_SET: u8 = b'\'';
pub const TAG_END_JS_SET: u8 = b',';
pub const TAG_ARRAY_BUFFER: u8 = b'B';
pub const TAG_RESIZABLE_ARRAY_BUFFER: u8 = b'~';
pub const TAG_ARRAY_BUFFER_TRANSFER: u8 = b't';
pub const TAG_ARRAY_BUFFER_VIEW: u8 = b'V';
pub const TAG_SHARED_ARRAY_BUFFER: u8 = b'u';
pub const TAG_SHARED_OBJECT: u8 = b'p';
pub const TAG_WASM_MODULE_TRANSFER: u8 = b'w';
pub const TAG_HOST_OBJECT: u8 = b'\\';
pub const TAG_WASM_MEMORY_TRANSFER: u8 = b'm';
pub const TAG_ERROR: u8 = b'r';

pub const ERROR_MESSAGE: u8 = b'm';
pub const ERROR_CAUSE: u8 = b'c';
pub const ERROR_STACK: u8 = b's';
pub const ERROR_END: u8 = b'.';
