package v8

// The V8 ValueSerializer tag bytes (SC-W-04) and Error subtags (SC-W-20), named as in spec/v8-tags.json, the one
// table of them (scripts/check-v8-tags.py checks these constants against it). The view subtags (SC-W-19) are
// viewSubtags in value.go.

const (
	tagVersion         byte = 0xFF // version header (offset 0 only)
	tagPadding         byte = 0x00 // padding
	tagVerifyCount     byte = '?'  // verify-count prefix, not a value
	tagHole            byte = '-'  // hole (dense array elements only)
	tagUndefined       byte = '_'  // undefined
	tagNull            byte = '0'  // null
	tagTrue            byte = 'T'  // true
	tagFalse           byte = 'F'  // false
	tagInt32           byte = 'I'  // int32 (zigzag varint)
	tagUint32          byte = 'U'  // uint32 (varint)
	tagDouble          byte = 'N'  // double
	tagBigint          byte = 'Z'  // BigInt
	tagUtf8            byte = 'S'  // UTF-8 string
	tagOneByte         byte = '"'  // Latin-1 string
	tagTwoByte         byte = 'c'  // UTF-16LE string
	tagRef             byte = '^'  // reference to an earlier object
	tagObject          byte = 'o'  // object begin
	tagObjectEnd       byte = '{'  // object end
	tagSparse          byte = 'a'  // sparse array begin
	tagSparseEnd       byte = '@'  // sparse array end
	tagDense           byte = 'A'  // dense array begin
	tagDenseEnd        byte = '$'  // dense array end
	tagDate            byte = 'D'  // Date
	tagTrueObject      byte = 'y'  // Boolean object true
	tagFalseObject     byte = 'x'  // Boolean object false
	tagNumberObject    byte = 'n'  // Number object
	tagBigintObject    byte = 'z'  // BigInt object
	tagStringObject    byte = 's'  // String object
	tagRegexp          byte = 'R'  // RegExp
	tagMap             byte = ';'  // Map begin
	tagMapEnd          byte = ':'  // Map end
	tagSet             byte = '\'' // Set begin
	tagSetEnd          byte = ','  // Set end
	tagArrayBuffer     byte = 'B'  // ArrayBuffer
	tagResizableBuffer byte = '~'  // resizable ArrayBuffer
	tagBufferTransfer  byte = 't'  // transferred ArrayBuffer (in-process)
	tagView            byte = 'V'  // view of the preceding buffer
	tagSharedBuffer    byte = 'u'  // SharedArrayBuffer (in-process)
	tagSharedObject    byte = 'p'  // shared object (in-process)
	tagWasmModule      byte = 'w'  // Wasm module (in-process)
	tagHost            byte = '\\' // host object (embedder payload)
	tagWasmMemory      byte = 'm'  // Wasm memory (in-process)
	tagError           byte = 'r'  // Error
)

const (
	errTagEval      byte = 'E' // prototype EvalError
	errTagRange     byte = 'R' // prototype RangeError
	errTagReference byte = 'F' // prototype ReferenceError
	errTagSyntax    byte = 'S' // prototype SyntaxError
	errTagType      byte = 'T' // prototype TypeError
	errTagUri       byte = 'U' // prototype URIError
	errTagMessage   byte = 'm' // message (a string follows)
	errTagCause     byte = 'c' // cause (a value follows)
	errTagStack     byte = 's' // stack (a string follows)
	errTagEnd       byte = '.' // end of the Error
)
