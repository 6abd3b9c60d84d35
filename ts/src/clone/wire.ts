/**
 * V8 ValueSerializer wire format, version 15 (spec/structured-clone.md; V8 src/objects/value-serializer.cc).
 * Tags are single ASCII bytes.
 */
export const VERSION = 15;
export const MIN_VERSION = 13;

export const T_VERSION = 0xff;
export const T_PADDING = 0x00;
export const T_VERIFY_COUNT = 0x3f; // '?'
export const T_HOLE = 0x2d; // '-'
export const T_UNDEFINED = 0x5f; // '_'
export const T_NULL = 0x30; // '0'
export const T_TRUE = 0x54; // 'T'
export const T_FALSE = 0x46; // 'F'
export const T_INT32 = 0x49; // 'I'
export const T_UINT32 = 0x55; // 'U'
export const T_DOUBLE = 0x4e; // 'N'
export const T_BIGINT = 0x5a; // 'Z'
export const T_UTF8 = 0x53; // 'S'
export const T_ONE_BYTE = 0x22; // '"'
export const T_TWO_BYTE = 0x63; // 'c'
export const T_REF = 0x5e; // '^'
export const T_OBJECT = 0x6f; // 'o'
export const T_OBJECT_END = 0x7b; // '{'
export const T_SPARSE = 0x61; // 'a'
export const T_SPARSE_END = 0x40; // '@'
export const T_DENSE = 0x41; // 'A'
export const T_DENSE_END = 0x24; // '$'
export const T_DATE = 0x44; // 'D'
export const T_TRUE_OBJECT = 0x79; // 'y'
export const T_FALSE_OBJECT = 0x78; // 'x'
export const T_NUMBER_OBJECT = 0x6e; // 'n'
export const T_BIGINT_OBJECT = 0x7a; // 'z'
export const T_STRING_OBJECT = 0x73; // 's'
export const T_REGEXP = 0x52; // 'R'
export const T_MAP = 0x3b; // ';'
export const T_MAP_END = 0x3a; // ':'
export const T_SET = 0x27; // '\''
export const T_SET_END = 0x2c; // ','
export const T_ARRAY_BUFFER = 0x42; // 'B'
export const T_RESIZABLE_BUFFER = 0x7e; // '~'
export const T_BUFFER_TRANSFER = 0x74; // 't'
export const T_VIEW = 0x56; // 'V'
export const T_SHARED_BUFFER = 0x75; // 'u'
export const T_SHARED_OBJECT = 0x70; // 'p'
export const T_WASM_MODULE = 0x77; // 'w'
export const T_WASM_MEMORY = 0x6d; // 'm'
export const T_HOST = 0x5c; // '\\'
export const T_ERROR = 0x72; // 'r'

/** View subtags ('V'), by constructor name. */
export const VIEW_SUBTAG: Record<string, number> = {
  Int8Array: 0x62, // b
  Uint8Array: 0x42, // B
  Uint8ClampedArray: 0x43, // C
  Int16Array: 0x77, // w
  Uint16Array: 0x57, // W
  Int32Array: 0x64, // d
  Uint32Array: 0x44, // D
  Float16Array: 0x68, // h
  Float32Array: 0x66, // f
  Float64Array: 0x46, // F
  BigInt64Array: 0x71, // q
  BigUint64Array: 0x51, // Q
  DataView: 0x3f, // ?
};
export const VIEW_BY_SUBTAG: Record<number, string> = {};
for (const [k, v] of Object.entries(VIEW_SUBTAG)) VIEW_BY_SUBTAG[v] = k;

/** Node's host-object view types (lib/v8.js arrayBufferViewTypes). 10 is Node's Buffer, read as Uint8Array. */
export const NODE_HOST_TYPES = [
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float32Array', 'Float64Array', 'DataView', 'Uint8Array', 'BigInt64Array', 'BigUint64Array', 'Float16Array',
];

/** Error subtags ('r'). */
export const E_EVAL = 0x45; // E
export const E_RANGE = 0x52; // R
export const E_REFERENCE = 0x46; // F
export const E_SYNTAX = 0x53; // S
export const E_TYPE = 0x54; // T
export const E_URI = 0x55; // U
export const E_MESSAGE = 0x6d; // m
export const E_CAUSE = 0x63; // c
export const E_STACK = 0x73; // s
export const E_END = 0x2e; // .
export const ERROR_SUBTAG: Record<string, number> = {
  EvalError: E_EVAL, RangeError: E_RANGE, ReferenceError: E_REFERENCE, SyntaxError: E_SYNTAX, TypeError: E_TYPE, URIError: E_URI,
};
export const ERROR_BY_SUBTAG: Record<number, string> = {};
for (const [k, v] of Object.entries(ERROR_SUBTAG)) ERROR_BY_SUBTAG[v] = k;

/** RegExp flag bits (V8 src/regexp/regexp-flags.h). 'l' (linear, 64) is V8-only and refused on read, as V8 does. */
export const REGEXP_FLAG_BITS: Array<[number, string]> = [
  [128, 'd'], [1, 'g'], [2, 'i'], [4, 'm'], [32, 's'], [16, 'u'], [256, 'v'], [8, 'y'],
];
export const REGEXP_KNOWN_BITS = 1 | 2 | 4 | 8 | 16 | 32 | 128 | 256;
