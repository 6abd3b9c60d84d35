/**
 * V8 ValueSerializer wire format, version 15 (spec/structured-clone.md; V8 src/objects/value-serializer.cc).
 * Tags are single ASCII bytes.
 */
export const VERSION = 15;
export const MIN_VERSION = 13;

/** Tags (a `const enum`: tsc writes the numbers in place; an imported `export const` is a load in V8's optimized code). */
export const enum T {
  VERSION = 0xff,
  PADDING = 0x00,
  VERIFY_COUNT = 0x3f, // '?'
  HOLE = 0x2d, // '-'
  UNDEFINED = 0x5f, // '_'
  NULL = 0x30, // '0'
  TRUE = 0x54, // 'T'
  FALSE = 0x46, // 'F'
  INT32 = 0x49, // 'I'
  UINT32 = 0x55, // 'U'
  DOUBLE = 0x4e, // 'N'
  BIGINT = 0x5a, // 'Z'
  UTF8 = 0x53, // 'S'
  ONE_BYTE = 0x22, // '"'
  TWO_BYTE = 0x63, // 'c'
  REF = 0x5e, // '^'
  OBJECT = 0x6f, // 'o'
  OBJECT_END = 0x7b, // '{'
  SPARSE = 0x61, // 'a'
  SPARSE_END = 0x40, // '@'
  DENSE = 0x41, // 'A'
  DENSE_END = 0x24, // '$'
  DATE = 0x44, // 'D'
  TRUE_OBJECT = 0x79, // 'y'
  FALSE_OBJECT = 0x78, // 'x'
  NUMBER_OBJECT = 0x6e, // 'n'
  BIGINT_OBJECT = 0x7a, // 'z'
  STRING_OBJECT = 0x73, // 's'
  REGEXP = 0x52, // 'R'
  MAP = 0x3b, // ';'
  MAP_END = 0x3a, // ':'
  SET = 0x27, // '\''
  SET_END = 0x2c, // ','
  ARRAY_BUFFER = 0x42, // 'B'
  RESIZABLE_BUFFER = 0x7e, // '~'
  BUFFER_TRANSFER = 0x74, // 't'
  VIEW = 0x56, // 'V'
  SHARED_BUFFER = 0x75, // 'u'
  SHARED_OBJECT = 0x70, // 'p'
  WASM_MODULE = 0x77, // 'w'
  WASM_MEMORY = 0x6d, // 'm'
  HOST = 0x5c, // '\\'
  ERROR = 0x72, // 'r'
}

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
/** Error subtags. */
export const enum E {
  EVAL = 0x45, // E
  RANGE = 0x52, // R
  REFERENCE = 0x46, // F
  SYNTAX = 0x53, // S
  TYPE = 0x54, // T
  URI = 0x55, // U
  MESSAGE = 0x6d, // m
  CAUSE = 0x63, // c
  STACK = 0x73, // s
  END = 0x2e, // .
}
export const ERROR_SUBTAG: Record<string, number> = {
  EvalError: E.EVAL, RangeError: E.RANGE, ReferenceError: E.REFERENCE, SyntaxError: E.SYNTAX, TypeError: E.TYPE, URIError: E.URI,
};
export const ERROR_BY_SUBTAG: Record<number, string> = {};
for (const [k, v] of Object.entries(ERROR_SUBTAG)) ERROR_BY_SUBTAG[v] = k;

/** RegExp flag bits (V8 src/regexp/regexp-flags.h). 'l' (linear, 64) is V8-only and refused on read, as V8 does. */
export const REGEXP_FLAG_BITS: Array<[number, string]> = [
  [128, 'd'], [1, 'g'], [2, 'i'], [4, 'm'], [32, 's'], [16, 'u'], [256, 'v'], [8, 'y'],
];
export const REGEXP_KNOWN_BITS = 1 | 2 | 4 | 8 | 16 | 32 | 128 | 256;
