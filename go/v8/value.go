// Package v8 reads and writes the V8 ValueSerializer format, version 15 (spec/structured-clone.md): what
// structuredClone, postMessage and new v8.Serializer() write in Node, Deno and Chrome, and Node's v8.serialize
// dialect (typed arrays as host objects).
//
// Decode reads versions 13 to 15 into a Go value graph (the types below); Encode writes one canonical encoding
// (SC-E rules). Both keep object identity: an object met twice is the same pointer, so shared references and cycles
// survive. Neither recurses on the input: containers live on an explicit stack, so nesting is bounded by the
// max_depth limit only, never by the goroutine stack.
//
// JS strings are Go strings holding WTF-8: UTF-8, except that a lone surrogate code unit (which a JS string may
// hold) is written as its 3-byte generalized UTF-8 form (ED A0..BF xx). A well-formed JS string is therefore plain
// UTF-8, and two JS strings are equal exactly when their Go strings are. See Units and FromUnits.
package v8

import "math/big"

// Value is one JS value. Decode produces exactly these dynamic types:
//
//	Undefined, Null, bool, float64 (every number), string (WTF-8), *big.Int (BigInt),
//	*Object, *Array, *Date, *RegExp, *Map, *Set, *BooleanObject, *NumberObject, *BigIntObject, *StringObject,
//	*ArrayBuffer, *View, *Error.
//
// Encode also takes nil (null) and Go integer types (numbers).
type Value = any

// Undefined is JS undefined.
type Undefined struct{}

// Null is JS null.
type Null struct{}

// Property is one own enumerable property: its key (a JS string) and value.
type Property struct {
	Key   string
	Value Value
}

// Object is a plain JS object. Props are in JS enumeration order (SC-D-12): array-index keys ascending, then the
// other keys in the order they were defined. Encode writes them in that order whatever order Props has.
type Object struct {
	Props []Property
}

// Item is one present element of an Array.
type Item struct {
	Index uint32
	Value Value
}

// Array is a JS array: its length, the present elements (ascending indices below Length; a missing index is a
// hole) and its other own properties (keys that are not array indices; never "length").
type Array struct {
	Length uint32
	Items  []Item
	Props  []Property
}

// Date is a JS Date: the time value in ms since the epoch (NaN for an invalid date).
type Date struct {
	Ms float64
}

// RegExp is a JS RegExp: its source (as the source getter returns it) and flags, a subset of "dgimsuvy" in that order.
type RegExp struct {
	Source string
	Flags  string
}

// MapEntry is one entry of a Map.
type MapEntry struct {
	Key, Value Value
}

// Map is a JS Map, entries in insertion order. Keys are unique under SameValueZero.
type Map struct {
	Entries []MapEntry
}

// Set is a JS Set, values in insertion order, unique under SameValueZero.
type Set struct {
	Values []Value
}

// BooleanObject is new Boolean(V).
type BooleanObject struct{ V bool }

// NumberObject is new Number(V).
type NumberObject struct{ V float64 }

// BigIntObject is Object(V) for a BigInt V.
type BigIntObject struct{ V *big.Int }

// StringObject is new String(V) (V in WTF-8).
type StringObject struct{ V string }

// ArrayBuffer is a JS ArrayBuffer. A resizable buffer has Resizable set and a MaxByteLength >= len(Data).
type ArrayBuffer struct {
	Data          []byte
	Resizable     bool
	MaxByteLength int
}

// ViewKind is the constructor of a typed array or DataView.
type ViewKind uint8

// The view kinds, in the order of V8's subtag table (SC-W-19).
const (
	Int8Array ViewKind = iota
	Uint8Array
	Uint8ClampedArray
	Int16Array
	Uint16Array
	Int32Array
	Uint32Array
	Float16Array
	Float32Array
	Float64Array
	BigInt64Array
	BigUint64Array
	DataView
	numViewKinds
)

var viewNames = [numViewKinds]string{
	"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
	"Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "DataView",
}

// SC-W-19 subtags, indexed by ViewKind.
var viewSubtags = [numViewKinds]byte{'b', 'B', 'C', 'w', 'W', 'd', 'D', 'h', 'f', 'F', 'q', 'Q', '?'}

var viewSizes = [numViewKinds]int{1, 1, 1, 2, 2, 4, 4, 2, 4, 8, 8, 8, 1}

// String is the constructor name ("Uint8Array", "DataView", ...).
func (k ViewKind) String() string {
	if k < numViewKinds {
		return viewNames[k]
	}
	return "ViewKind(?)"
}

// ElementSize is the byte size of one element (1 for DataView).
func (k ViewKind) ElementSize() int {
	if k < numViewKinds {
		return viewSizes[k]
	}
	return 0
}

// ViewKindByName returns the kind with constructor name s.
func ViewKindByName(s string) (ViewKind, bool) {
	for i, n := range viewNames {
		if n == s {
			return ViewKind(i), true
		}
	}
	return 0, false
}

// View is a typed array or DataView over Buffer. ByteLength is the current length; for a length-tracking view
// (LengthTracking, resizable buffers only) it is the buffer's length past ByteOffset, rounded down to whole
// elements, and Encode does not read it.
type View struct {
	Kind           ViewKind
	Buffer         *ArrayBuffer
	ByteOffset     int
	ByteLength     int
	LengthTracking bool
}

// Bytes is the part of the buffer the view covers.
func (v *View) Bytes() []byte {
	return v.Buffer.Data[v.ByteOffset : v.ByteOffset+v.ByteLength]
}

// Error is a JS Error. Name is one of Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError,
// URIError (Encode writes any other name as Error, SC-N-06). Message, Stack and Cause count only when their Has
// flag is set.
type Error struct {
	Name       string
	Message    string
	HasMessage bool
	Stack      string
	HasStack   bool
	Cause      Value
	HasCause   bool
}

var errorSubtags = map[string]byte{
	"EvalError": errTagEval, "RangeError": errTagRange, "ReferenceError": errTagReference,
	"SyntaxError": errTagSyntax, "TypeError": errTagType, "URIError": errTagUri,
}

func errorName(sub byte) string {
	switch sub {
	case errTagEval:
		return "EvalError"
	case errTagRange:
		return "RangeError"
	case errTagReference:
		return "ReferenceError"
	case errTagSyntax:
		return "SyntaxError"
	case errTagType:
		return "TypeError"
	case errTagUri:
		return "URIError"
	}
	return ""
}

// RegExp flag bits (SC-W-15), in the order flags are written as text.
var regexpFlagBits = []struct {
	ch  byte
	bit uint32
}{{'d', 128}, {'g', 1}, {'i', 2}, {'m', 4}, {'s', 32}, {'u', 16}, {'v', 256}, {'y', 8}}

const regexpKnownBits = 1 | 2 | 4 | 8 | 16 | 32 | 128 | 256
