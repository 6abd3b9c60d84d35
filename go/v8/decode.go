package v8

import (
	"encoding/binary"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	formwire "github.com/formwire/formwire/go"

	"github.com/formwire/formwire/go/internal/ecma"
)

// Decode reads one value written by V8's ValueSerializer (versions 13 to 15, the raw and Node dialects, SC-D rules).
// opts nil means DefaultOptions. Errors are *formwire.Error with an SC_ code and the byte offset of spec/errors.md.
//
// The input is read in one pass with an explicit stack of open containers: nothing recurses on the input, and
// nothing is allocated for a declared size before the bytes it declares are known to be there (SC-L-04). The
// result shares no memory with b.
func Decode(b []byte, opts *Options) (Value, error) {
	o := resolve(opts)
	if o.MaxBytes >= 0 && int64(len(b)) > o.MaxBytes {
		return nil, &formwire.Error{Code: formwire.SCLimitBytes, Offset: 0, Message: "input longer than max_bytes"}
	}
	d := decoders.Get().(*decoder)
	defer d.release()
	d.reset(b, &o, false)
	v, err := d.decode()
	if err == nil || d.version != 13 || isLimit(err) {
		return v, err
	}
	// SC-D-23: V8 once wrote version-13 views with flags (crbug.com/1284506) and reads them both ways; so do we.
	d.reset(b, &o, true)
	if v2, err2 := d.decode(); err2 == nil {
		return v2, nil
	}
	return nil, err
}

// decoders keeps the stacks of finished decodes (their growth was a large share of reading small values).
var decoders = sync.Pool{New: func() any { return new(decoder) }}

func (d *decoder) reset(b []byte, o *Options, v13flags bool) {
	clear(d.ids)
	clear(d.keys)
	*d = decoder{b: b, ipc: o.NodeIPC, maxDepth: lim(o.MaxDepth), maxValues: lim(o.MaxValues),
		maxBigint: lim(o.MaxBigIntBytes), v13flags: v13flags, ids: d.ids[:0], stack: d.stack[:0], keys: d.keys}
}

// release empties the decoder (it keeps nothing of the input or the value) and pools it unless it grew large.
func (d *decoder) release() {
	big := cap(d.ids) > 4096 || cap(d.stack) > 1024 || len(d.keys) > 1024
	clear(d.ids[:cap(d.ids)])
	clear(d.stack[:cap(d.stack)])
	clear(d.keys)
	d.b = nil
	if !big {
		decoders.Put(d)
	}
}

func lim(v int64) int64 {
	if v < 0 {
		return math.MaxInt64
	}
	return v
}

func isLimit(err error) bool {
	e, ok := err.(*formwire.Error)
	return ok && strings.HasPrefix(string(e.Code), "SC_LIMIT_")
}

// failure carries a decode or encode error through panic to the entry point, which recovers only this type.
type failure struct{ err *formwire.Error }

func fail(code formwire.Code, off int, msg string) {
	panic(failure{&formwire.Error{Code: code, Offset: int64(off), Message: msg}})
}

type decoder struct {
	b         []byte
	p         int
	version   uint32
	v13flags  bool
	ipc       bool
	maxDepth  int64
	maxValues int64
	maxBigint int64
	values    int64
	ids       []Value
	stack     []frame
	keys      map[string]string // one-byte keys already read, by their bytes
}

// frame is one open container (SC-D-29: o A a ; ' r).
type frame struct {
	kind    byte
	tag     int
	obj     *Object
	arr     *Array
	mp      *Map
	set     *Set
	err     *Error
	n       uint32 // pairs read (objects, array properties) or values read (Map, Set)
	i       uint32 // dense array: next element index
	wireLen uint32 // array length as written at the tag
	inElems bool
	key     string // the key whose value is being read
	idx     uint32
	isIdx   bool
	half    bool // Map: the key is read, its value is next
	mapKey  Value
	names   map[string]struct{} // names already read (duplicate check), once there are many
	present map[uint32]struct{} // array indices present, once an index key is read
	unorder bool                // array items or object index keys out of order: sort at the end
	members map[memberKey]int   // Map/Set SameValueZero index
	errSeen uint8
}

func (d *decoder) decode() (v Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			v, err = nil, f.err
		}
	}()
	d.header()
	v = d.run()
	// SC-D-28: only padding may follow the value.
	p := d.p
	for p < len(d.b) && d.b[p] == tagPadding {
		p++
	}
	if p < len(d.b) {
		fail(formwire.SCTag, p, "bytes after the top-level value")
	}
	return v, nil
}

func (d *decoder) truncated() {
	fail(formwire.SCTruncated, len(d.b), "input ended inside a value")
}

// SC-D-03
func (d *decoder) header() {
	if len(d.b) == 0 {
		d.truncated()
	}
	if d.b[0] != tagVersion {
		fail(formwire.SCVersion, 0, "no version header")
	}
	d.p = 1
	v := d.varint()
	if v < 13 || v > 15 {
		fail(formwire.SCVersion, 0, "version "+strconv.FormatUint(uint64(v), 10)+" not in 13..15")
	}
	d.version = v
}

// varint reads a u32 varint (SC-D-04: at most 5 bytes, the 5th ends it and carries no bits above 32).
func (d *decoder) varint() uint32 {
	start := d.p
	var v uint32
	for i := 0; ; i++ {
		if d.p >= len(d.b) {
			d.truncated()
		}
		x := d.b[d.p]
		d.p++
		if i == 4 && x > 0x0F {
			fail(formwire.SCVarint, start, "varint does not fit in u32")
		}
		v |= uint32(x&0x7F) << (7 * i)
		if x < 0x80 {
			return v
		}
	}
}

// u8 reads a u8 varint (view and Error subtags): at most 2 bytes.
func (d *decoder) u8() byte {
	start := d.p
	if start >= len(d.b) {
		d.truncated()
	}
	x := d.b[start]
	if x < 0x80 {
		d.p++
		return x
	}
	if start+1 >= len(d.b) {
		d.truncated()
	}
	y := d.b[start+1]
	if y > 1 {
		fail(formwire.SCVarint, start, "varint does not fit in u8")
	}
	d.p += 2
	return x&0x7F | y<<7
}

func (d *decoder) double() float64 {
	if len(d.b)-d.p < 8 {
		d.truncated()
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.p:]))
	d.p += 8
	return v
}

// take returns the next n bytes, SC_TRUNCATED if they are not all there (SC-D-05: checked before any allocation).
func (d *decoder) take(n uint32) []byte {
	if uint64(n) > uint64(len(d.b)-d.p) {
		d.truncated()
	}
	s := d.b[d.p : d.p+int(n)]
	d.p += int(n)
	return s
}

// next skips padding (SC-D-06) and returns the offset of the next byte, which must exist.
func (d *decoder) next() int {
	p := d.p
	for p < len(d.b) && d.b[p] == tagPadding {
		p++
	}
	if p >= len(d.b) {
		d.truncated()
	}
	d.p = p
	return p
}

// valueTag skips padding and `?` verify-count prefixes (SC-D-06, SC-W-22): the offset of the tag, not consumed.
func (d *decoder) valueTag() int {
	for {
		p := d.next()
		if d.b[p] != tagVerifyCount {
			return p
		}
		d.p = p + 1
		d.varint()
	}
}

// open is the depth check at a container's tag (SC-D-29).
func (d *decoder) open(tp int) {
	if int64(len(d.stack))+1 > d.maxDepth {
		fail(formwire.SCLimitDepth, tp, "nesting deeper than max_depth")
	}
}

func (d *decoder) push(f frame) {
	d.stack = append(d.stack, f)
}

// run reads the top-level value: containers go on the stack, each finished value is handed to the container below.
func (d *decoder) run() Value {
	v, done := d.value()
	for {
		if done {
			if len(d.stack) == 0 {
				return v
			}
			d.deliver(&d.stack[len(d.stack)-1], v)
		}
		v, done = d.step(&d.stack[len(d.stack)-1])
	}
}

// value reads the value at a value position (SC-D-07). A container is pushed and (nil, false) returned; its value
// is delivered when it ends.
func (d *decoder) value() (Value, bool) {
	tp := d.valueTag()
	d.values++
	if d.values > d.maxValues {
		fail(formwire.SCLimitValues, tp, "more than max_values values")
	}
	t := d.b[tp]
	d.p = tp + 1
	switch t {
	case tagOneByte, tagTwoByte, tagUtf8:
		return d.str(t, tp), true
	case tagInt32:
		u := d.varint()
		n := int32(u>>1) ^ -int32(u&1)
		if n >= 0 && n < int32(len(smallInts)) {
			return smallInts[n], true // boxed once: a float64 in an interface is an allocation
		}
		return float64(n), true
	case tagUint32:
		return float64(d.varint()), true
	case tagDouble:
		return d.double(), true
	case tagUndefined:
		return Undefined{}, true
	case tagNull:
		return Null{}, true
	case tagTrue:
		return true, true
	case tagFalse:
		return false, true
	case tagBigint:
		return d.bigint(tp), true
	case tagRef:
		id := d.varint()
		if uint64(id) >= uint64(len(d.ids)) || d.ids[id] == nil {
			fail(formwire.SCRef, tp, "reference to an id not assigned yet")
		}
		o := d.ids[id]
		if buf, ok := o.(*ArrayBuffer); ok {
			return d.maybeView(buf), true
		}
		return o, true
	case tagObject:
		d.openObject(tp, -1)
		return nil, false
	case tagDense:
		d.open(tp)
		n := d.varint()
		if uint64(n) > uint64(len(d.b)-d.p) {
			d.truncated() // SC-D-14: every element takes at least one byte
		}
		// Items grow as elements arrive: reserving n up front for every open array would let nested arrays that
		// each declare the rest of the input reserve memory quadratic in its length.
		a := &Array{Length: n, Items: make([]Item, 0, min(n, 64))}
		d.ids = append(d.ids, a)
		d.push(frame{kind: tagDense, tag: tp, arr: a, wireLen: n, inElems: n > 0})
		return nil, false
	case tagSparse:
		d.open(tp)
		n := d.varint()
		a := &Array{Length: n}
		d.ids = append(d.ids, a)
		d.push(frame{kind: tagSparse, tag: tp, arr: a, wireLen: n})
		return nil, false
	case tagMap:
		d.open(tp)
		m := &Map{}
		d.ids = append(d.ids, m)
		d.push(frame{kind: tagMap, tag: tp, mp: m})
		return nil, false
	case tagSet:
		d.open(tp)
		s := &Set{}
		d.ids = append(d.ids, s)
		d.push(frame{kind: tagSet, tag: tp, set: s})
		return nil, false
	case tagError:
		d.open(tp)
		e := &Error{Name: "Error"}
		d.ids = append(d.ids, e)
		d.push(frame{kind: tagError, tag: tp, err: e})
		return nil, false
	case tagDate:
		o := &Date{}
		d.ids = append(d.ids, o)
		o.Ms = ecma.TimeClip(d.double())
		return o, true
	case tagTrueObject, tagFalseObject:
		o := &BooleanObject{V: t == tagTrueObject}
		d.ids = append(d.ids, o)
		return o, true
	case tagNumberObject:
		o := &NumberObject{}
		d.ids = append(d.ids, o)
		o.V = d.double()
		return o, true
	case tagBigintObject:
		o := &BigIntObject{}
		d.ids = append(d.ids, o)
		o.V = d.bigint(tp)
		return o, true
	case tagStringObject:
		o := &StringObject{}
		d.ids = append(d.ids, o)
		o.V = d.stringValue()
		return o, true
	case tagRegexp:
		return d.regexp(tp), true
	case tagArrayBuffer, tagResizableBuffer:
		return d.maybeView(d.arrayBuffer(tp, t == tagResizableBuffer)), true
	case tagHost:
		return d.host(tp)
	case tagView:
		fail(formwire.SCView, tp, "view not directly after an ArrayBuffer")
	case tagBufferTransfer, tagSharedBuffer, tagWasmModule, tagWasmMemory:
		fail(formwire.SCUnsupported, tp, "tag only has meaning inside one process")
	case tagSharedObject:
		if d.version >= 15 {
			fail(formwire.SCUnsupported, tp, "shared object tag only has meaning inside one process")
		}
		fail(formwire.SCTag, tp, "shared object tag before version 15")
	}
	fail(formwire.SCTag, tp, "unexpected tag 0x"+strconv.FormatUint(uint64(t), 16))
	return nil, false
}

func (d *decoder) openObject(tp, alias int) {
	d.open(tp)
	o := &Object{}
	d.ids = append(d.ids, o)
	if alias >= 0 {
		d.ids[alias] = o
	}
	d.push(frame{kind: tagObject, tag: tp, obj: o})
}

var smallInts = func() (t [1024]Value) {
	for i := range t {
		t[i] = float64(i)
	}
	return
}()

// str reads the payload of a string item whose tag t at tp is consumed (SC-D-10).
func (d *decoder) str(t byte, tp int) string {
	n := d.varint()
	switch t {
	case tagOneByte:
		return latin1String(d.take(n))
	case tagTwoByte:
		if n&1 != 0 {
			fail(formwire.SCString, tp, "two-byte string with an odd byte length")
		}
		return utf16String(d.take(n))
	default:
		s := d.take(n)
		if !utf8.Valid(s) {
			fail(formwire.SCString, tp, "S string is not valid UTF-8")
		}
		return string(s)
	}
}

// stringValue reads a value that must be a string (SC-D-11).
func (d *decoder) stringValue() string {
	tp := d.valueTag()
	t := d.b[tp]
	if t != tagOneByte && t != tagTwoByte && t != tagUtf8 {
		fail(formwire.SCTag, tp, "a string is required here")
	}
	d.p = tp + 1
	return d.str(t, tp)
}

// SC-D-09
func (d *decoder) bigint(tp int) *big.Int {
	bits := d.varint()
	n := bits >> 1 & 0x3FFFFFFF
	if n == 0 && bits&1 != 0 {
		fail(formwire.SCTag, tp, "BigInt with a sign and no digits")
	}
	if int64(n) > d.maxBigint {
		fail(formwire.SCLimitBigint, tp, "BigInt longer than max_bigint_bytes")
	}
	s := d.take(n)
	be := make([]byte, len(s))
	for i, c := range s {
		be[len(s)-1-i] = c
	}
	v := new(big.Int).SetBytes(be)
	if bits&1 != 0 {
		v.Neg(v)
	}
	return v
}

// SC-D-19
func (d *decoder) regexp(tp int) *RegExp {
	re := &RegExp{}
	d.ids = append(d.ids, re)
	re.Source = d.stringValue()
	bits := d.varint()
	if bits&^regexpKnownBits != 0 {
		fail(formwire.SCTag, tp, "unknown RegExp flag bits")
	}
	if bits&16 != 0 && bits&256 != 0 {
		fail(formwire.SCTag, tp, "RegExp flags u and v together")
	}
	var f []byte
	for _, fb := range regexpFlagBits {
		if bits&fb.bit != 0 {
			f = append(f, fb.ch)
		}
	}
	re.Flags = string(f)
	return re
}

// SC-D-21
func (d *decoder) arrayBuffer(tp int, resizable bool) *ArrayBuffer {
	ab := &ArrayBuffer{}
	d.ids = append(d.ids, ab)
	n := d.varint()
	max := n
	if resizable {
		max = d.varint()
		if n > max {
			fail(formwire.SCTag, tp, "resizable buffer longer than its maximum")
		}
	}
	ab.Data = append([]byte(nil), d.take(n)...)
	if ab.Data == nil {
		ab.Data = []byte{}
	}
	ab.Resizable = resizable
	ab.MaxByteLength = int(max)
	return ab
}

// maybeView returns the view that directly follows buf (SC-D-22), or buf.
func (d *decoder) maybeView(buf *ArrayBuffer) Value {
	p := d.p
	for p < len(d.b) && d.b[p] == tagPadding {
		p++
	}
	if p >= len(d.b) || d.b[p] != tagView {
		return buf
	}
	d.p = p + 1
	return d.view(buf, p)
}

var kindBySubtag = func() (m [256]int8) {
	for i := range m {
		m[i] = -1
	}
	for k, s := range viewSubtags {
		m[s] = int8(k)
	}
	return
}()

// SC-D-22, the checks in the spec's order.
func (d *decoder) view(buf *ArrayBuffer, tp int) *View {
	sub := d.u8()
	off := uint64(d.varint())
	n := uint64(d.varint())
	bl := uint64(len(buf.Data))
	if off > bl || n > bl-off {
		fail(formwire.SCView, tp, "view out of bounds")
	}
	var flags uint32
	if d.version >= 14 || d.v13flags {
		flags = d.varint()
	}
	k := kindBySubtag[sub]
	if k < 0 {
		fail(formwire.SCView, tp, "unknown view subtag")
	}
	kind := ViewKind(k)
	es := uint64(kind.ElementSize())
	if off%es != 0 || n%es != 0 {
		fail(formwire.SCView, tp, "view misaligned for its element size")
	}
	tracking, rab := flags&1 != 0, flags&2 != 0
	if (tracking || rab) && !buf.Resizable {
		fail(formwire.SCView, tp, "view flags need a resizable buffer")
	}
	if buf.Resizable && !rab {
		fail(formwire.SCView, tp, "view of a resizable buffer without the flag")
	}
	if tracking {
		n = (bl - off) / es * es
	}
	v := &View{Kind: kind, Buffer: buf, ByteOffset: int(off), ByteLength: int(n), LengthTracking: tracking}
	d.ids = append(d.ids, v)
	return v
}

// Node's host-object view types (SC-W-23), by type number; 10 is Node's Buffer.
var nodeHostKinds = []ViewKind{Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
	Uint32Array, Float32Array, Float64Array, DataView, Uint8Array, BigInt64Array, BigUint64Array, Float16Array}

// SC-D-26, SC-D-27
func (d *decoder) host(tp int) (Value, bool) {
	if d.ipc {
		sub := d.varint()
		if sub == 1 {
			id := len(d.ids)
			d.ids = append(d.ids, nil)
			ip := d.valueTag()
			if d.b[ip] != tagObject {
				fail(formwire.SCHost, tp, "IPC host object sub-tag 1 must be followed by an object")
			}
			d.p = ip + 1
			d.openObject(ip, id)
			return nil, false
		}
		if sub != 0 {
			fail(formwire.SCHost, tp, "unknown IPC host object sub-tag")
		}
	}
	id := len(d.ids)
	d.ids = append(d.ids, nil)
	typ := d.varint()
	n := d.varint()
	bytes := d.take(n)
	if typ >= uint32(len(nodeHostKinds)) {
		fail(formwire.SCHost, tp, "host object type is not a Node typed array")
	}
	kind := nodeHostKinds[typ]
	if int(n)%kind.ElementSize() != 0 {
		fail(formwire.SCHost, tp, "host view length is not a multiple of its element size")
	}
	buf := &ArrayBuffer{Data: append(make([]byte, 0, n), bytes...), MaxByteLength: int(n)}
	v := &View{Kind: kind, Buffer: buf, ByteLength: int(n)}
	d.ids[id] = v
	return v, true
}

// key reads a property key (SC-D-12, SC-D-13): its name, whether that is an array index, and the key's tag offset.
func (d *decoder) key() (string, uint32, bool, int) {
	tp := d.valueTag()
	t := d.b[tp]
	d.p = tp + 1
	switch t {
	case tagOneByte:
		n := d.varint()
		raw := d.take(n)
		s, ok := d.keys[string(raw)] // no allocation for the lookup
		if !ok {
			s = latin1String(raw)
			if n <= 64 && len(d.keys) < 4096 {
				if d.keys == nil {
					d.keys = make(map[string]string)
				}
				d.keys[string(raw)] = s // keys repeat across objects of one shape: one string each
			}
		}
		i, isIdx := arrayIndex(s)
		return s, i, isIdx, tp
	case tagTwoByte, tagUtf8:
		s := d.str(t, tp)
		i, ok := arrayIndex(s)
		return s, i, ok, tp
	case tagInt32:
		u := d.varint()
		n := int32(u>>1) ^ -int32(u&1)
		return strconv.FormatInt(int64(n), 10), uint32(n), n >= 0, tp
	case tagUint32:
		u := d.varint()
		return strconv.FormatUint(uint64(u), 10), u, u != math.MaxUint32, tp
	case tagDouble:
		v := d.double()
		if v != math.Trunc(v) || math.Abs(v) > 1<<53-1 { // NaN and ±Inf fail the first test
			fail(formwire.SCKey, tp, "a number key must be a safe integer")
		}
		n := int64(v)
		return strconv.FormatInt(n, 10), uint32(n), n >= 0 && n <= math.MaxUint32-1, tp
	}
	fail(formwire.SCKey, tp, "a property key must be a string or a number")
	return "", 0, false, 0
}

// arrayIndex reports whether s is a canonical array index 0 ... 2^32-2.
func arrayIndex(s string) (uint32, bool) {
	if len(s) == 0 || len(s) > 10 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	if v > math.MaxUint32-1 {
		return 0, false
	}
	return uint32(v), true
}

// endTag checks for the container's end tag after padding; if present it is consumed and its offset returned.
func (d *decoder) endTag(end byte) (int, bool) {
	p := d.next()
	if d.b[p] != end {
		return 0, false
	}
	d.p = p + 1
	return p, true
}

func (d *decoder) pop() {
	d.stack[len(d.stack)-1] = frame{}
	d.stack = d.stack[:len(d.stack)-1]
}

// step advances the top container by one item: it returns a finished value for the container to take (a child, or
// the container itself when it ended and was popped), or (nil, false) when a child container was pushed or the item
// needed no delivery (a hole, an Error field).
func (d *decoder) step(f *frame) (Value, bool) {
	switch f.kind {
	case tagObject:
		if ep, ok := d.endTag(tagObjectEnd); ok {
			if d.varint() != f.n {
				fail(formwire.SCCount, ep, "object end count does not match")
			}
			o := f.obj
			if f.unorder {
				sortIndexKeys(o)
			}
			d.pop()
			return o, true
		}
		name, _, isIdx, kp := d.key()
		d.checkName(f, name, kp, len(f.obj.Props))
		if isIdx {
			f.unorder = true
		}
		f.key = name
		return d.value()
	case tagDense, tagSparse:
		if f.inElems {
			p := d.next()
			if d.b[p] == tagHole {
				d.p = p + 1
				f.i++
				f.inElems = f.i < f.wireLen
				return nil, false
			}
			return d.value()
		}
		end := byte(tagDenseEnd)
		if f.kind == tagSparse {
			end = tagSparseEnd
		}
		if ep, ok := d.endTag(end); ok {
			count := d.varint()
			n := d.varint()
			if count != f.n || n != f.wireLen {
				fail(formwire.SCCount, ep, "array end does not match")
			}
			a := f.arr
			if f.unorder {
				sort.Slice(a.Items, func(i, j int) bool { return a.Items[i].Index < a.Items[j].Index })
			}
			d.pop()
			return a, true
		}
		name, idx, isIdx, kp := d.key()
		a := f.arr
		if isIdx {
			if f.present == nil {
				f.present = make(map[uint32]struct{}, len(a.Items)+1)
				for _, it := range a.Items {
					f.present[it.Index] = struct{}{}
				}
			}
			if _, dup := f.present[idx]; dup {
				fail(formwire.SCKey, kp, "array index defined twice")
			}
			f.present[idx] = struct{}{}
			if idx >= a.Length {
				a.Length = idx + 1 // V8 DefineOwnProperty grows the array
			}
			if n := len(a.Items); n > 0 && a.Items[n-1].Index > idx {
				f.unorder = true
			}
		} else {
			if name == "length" {
				fail(formwire.SCKey, kp, "an array already has a length")
			}
			d.checkName(f, name, kp, len(a.Props))
		}
		f.key, f.idx, f.isIdx = name, idx, isIdx
		return d.value()
	case tagMap:
		if !f.half {
			if ep, ok := d.endTag(tagMapEnd); ok {
				if d.varint() != f.n {
					fail(formwire.SCCount, ep, "map end count does not match")
				}
				m := f.mp
				d.pop()
				return m, true
			}
		}
		return d.value()
	case tagSet:
		if ep, ok := d.endTag(tagSetEnd); ok {
			if d.varint() != f.n {
				fail(formwire.SCCount, ep, "set end count does not match")
			}
			s := f.set
			d.pop()
			return s, true
		}
		return d.value()
	default: // tagError, SC-D-24
		sp := d.p
		sub := d.u8()
		e := f.err
		var bit uint8
		switch sub {
		case errTagEnd:
			d.pop()
			return e, true
		case errTagEval, errTagRange, errTagReference, errTagSyntax, errTagType, errTagUri:
			bit = 1
		case errTagMessage:
			bit = 2
		case errTagCause:
			bit = 4
		case errTagStack:
			bit = 8
		default:
			fail(formwire.SCTag, sp, "unknown Error subtag")
		}
		if f.errSeen&bit != 0 {
			fail(formwire.SCTag, sp, "repeated Error subtag")
		}
		f.errSeen |= bit
		switch bit {
		case 1:
			e.Name = errorName(sub)
		case 2:
			e.Message, e.HasMessage = d.stringValue(), true
		case 8:
			e.Stack, e.HasStack = d.stringValue(), true
		case 4:
			return d.value()
		}
		return nil, false
	}
}

// checkName is the duplicate check of property names (SC-D-12): a scan while there are few, then a set.
func (d *decoder) checkName(f *frame, name string, kp int, have int) {
	props := f.arr
	var list []Property
	if props != nil {
		list = props.Props
	} else {
		list = f.obj.Props
	}
	if f.names == nil && have < 16 {
		for i := range list {
			if list[i].Key == name {
				fail(formwire.SCKey, kp, "duplicate property")
			}
		}
		return
	}
	if f.names == nil {
		f.names = make(map[string]struct{}, 2*have)
		for i := range list {
			f.names[list[i].Key] = struct{}{}
		}
	}
	if _, dup := f.names[name]; dup {
		fail(formwire.SCKey, kp, "duplicate property")
	}
	f.names[name] = struct{}{}
}

// deliver gives a finished value to the container that asked for it.
func (d *decoder) deliver(f *frame, v Value) {
	switch f.kind {
	case tagObject:
		if f.obj.Props == nil {
			f.obj.Props = make([]Property, 0, 4)
		}
		f.obj.Props = append(f.obj.Props, Property{f.key, v})
		f.n++
	case tagDense, tagSparse:
		a := f.arr
		if f.inElems {
			a.Items = append(a.Items, Item{f.i, v})
			f.i++
			f.inElems = f.i < f.wireLen
		} else {
			if f.isIdx {
				a.Items = append(a.Items, Item{f.idx, v})
			} else {
				a.Props = append(a.Props, Property{f.key, v})
			}
			f.n++
		}
	case tagMap:
		f.n++
		if !f.half {
			f.mapKey, f.half = v, true
			return
		}
		f.half = false
		k := f.mapKey
		f.mapKey = nil
		if x, ok := k.(float64); ok && x == 0 {
			k = float64(0) // Map.prototype.set: -0 becomes +0
		}
		if f.members == nil {
			f.members = make(map[memberKey]int)
		}
		mk := keyOf(k)
		if i, ok := f.members[mk]; ok {
			f.mp.Entries[i].Value = v
			return
		}
		f.members[mk] = len(f.mp.Entries)
		f.mp.Entries = append(f.mp.Entries, MapEntry{k, v})
	case tagSet:
		f.n++
		if x, ok := v.(float64); ok && x == 0 {
			v = float64(0)
		}
		if f.members == nil {
			f.members = make(map[memberKey]int)
		}
		mk := keyOf(v)
		if _, ok := f.members[mk]; ok {
			return
		}
		f.members[mk] = len(f.set.Values)
		f.set.Values = append(f.set.Values, v)
	case tagError:
		f.err.Cause, f.err.HasCause = v, true
	}
}

// memberKey identifies a value under SameValueZero (SC-D-20): primitives by value (every NaN alike, -0 as +0),
// objects by identity.
type memberKey struct {
	kind byte
	bits uint64
	s    string
	ptr  any
}

func keyOf(v Value) memberKey {
	switch x := v.(type) {
	case Undefined:
		return memberKey{kind: 1}
	case Null:
		return memberKey{kind: 2}
	case bool:
		if x {
			return memberKey{kind: 3, bits: 1}
		}
		return memberKey{kind: 3}
	case float64:
		if x != x {
			return memberKey{kind: 4, bits: 0x7FF8000000000000}
		}
		if x == 0 {
			return memberKey{kind: 4}
		}
		return memberKey{kind: 4, bits: math.Float64bits(x)}
	case string:
		return memberKey{kind: 5, s: x}
	case *big.Int:
		// the magnitude's bytes and the sign: linear in the size, where a decimal String() is not
		return memberKey{kind: 6, bits: uint64(x.Sign() + 1), s: string(x.Bytes())}
	}
	return memberKey{kind: 7, ptr: v}
}

// sortIndexKeys puts array-index keys first, ascending, the others after them in their order (SC-D-12).
func sortIndexKeys(o *Object) {
	type ik struct {
		i uint32
		p Property
	}
	var idx []ik
	rest := make([]Property, 0, len(o.Props))
	for _, p := range o.Props {
		if i, ok := arrayIndex(p.Key); ok {
			idx = append(idx, ik{i, p})
		} else {
			rest = append(rest, p)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a].i < idx[b].i })
	out := o.Props[:0]
	for _, x := range idx {
		out = append(out, x.p)
	}
	o.Props = append(out, rest...)
}
