package v8

import (
	"encoding/binary"
	"math"
	"math/big"
	"sync"

	formwire "github.com/formwire/formwire/go"

	"github.com/formwire/formwire/go/internal/ecma"
)

// Encode writes v in formwire's canonical encoding (raw dialect, version 15, SC-E rules). opts nil means
// DefaultOptions; only MaxDepth applies. A value outside the model (a Go type that is not a Value, a nil pointer,
// duplicate keys, an invalid string, a view out of its buffer, ...) is SC_DATA_CLONE; nesting deeper than MaxDepth
// is SC_LIMIT_DEPTH. Error offsets are the output length at that point.
func Encode(v Value, opts *Options) ([]byte, error) {
	return AppendEncode(nil, v, opts)
}

// AppendEncode appends the encoding of v to dst. On error dst is returned with its original length.
func AppendEncode(dst []byte, v Value, opts *Options) (out []byte, err error) {
	o := resolve(opts)
	e := encoders.Get().(*encoder)
	e.out, e.start, e.maxDepth, e.next = dst, len(dst), lim(o.MaxDepth), 0
	defer e.release()
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			out, err = dst[:e.start], f.err
		}
	}()
	e.out = append(e.out, tagVersion, 15) // SC-E-01
	e.run(v)
	return e.out, nil
}

// encoders keeps the id maps and the stack of finished encodes: a map grown again for every call was a quarter of
// the time of encoding 100 small objects.
var encoders = sync.Pool{New: func() any {
	return &encoder{ids: make(map[any]uint32), objIDs: make(map[*Object]uint32)}
}}

// release empties the encoder (it holds no value of the caller afterwards) and pools it unless it grew large.
func (e *encoder) release() {
	big := len(e.ids)+len(e.objIDs) > 4096 || cap(e.stack) > 1024
	clear(e.ids)
	clear(e.objIDs)
	clear(e.stack[:cap(e.stack)])
	e.stack = e.stack[:0]
	e.out = nil
	if !big {
		encoders.Put(e)
	}
}

type encoder struct {
	out      []byte
	start    int
	maxDepth int64
	ids      map[any]uint32
	objIDs   map[*Object]uint32 // plain objects, the most common: a pointer-keyed map hashes faster
	next     uint32             // the next id
	stack    []eframe
}

// eframe is one container being written: what is left of it.
type eframe struct {
	kind    byte
	props   []Property // object properties in write order; array named properties
	items   []Item
	entries []MapEntry
	values  []Value
	err     *Error
	i       int
	phase   uint8
	dense   bool
	length  uint32
}

func (e *encoder) fail(code formwire.Code, msg string) {
	fail(code, len(e.out)-e.start, msg)
}

func (e *encoder) bad(msg string) { e.fail(formwire.SCDataClone, msg) }

func (e *encoder) run(v Value) {
	e.value(v)
	for len(e.stack) > 0 {
		e.step(&e.stack[len(e.stack)-1])
	}
}

func (e *encoder) pop() {
	e.stack[len(e.stack)-1] = eframe{}
	e.stack = e.stack[:len(e.stack)-1]
}

func (e *encoder) varint(x uint32) {
	e.out = binary.AppendUvarint(e.out, uint64(x))
}

func (e *encoder) double(x float64) {
	if x != x {
		e.out = binary.LittleEndian.AppendUint64(e.out, 0x7FF8000000000000) // SC-E-03
		return
	}
	e.out = binary.LittleEndian.AppendUint64(e.out, math.Float64bits(x))
}

// SC-E-03
func (e *encoder) number(x float64) {
	if x == math.Trunc(x) && x >= math.MinInt32 && x <= math.MaxInt32 && !(x == 0 && math.Signbit(x)) {
		n := int32(x)
		e.out = append(e.out, tagInt32)
		e.varint(uint32(n<<1) ^ uint32(n>>31))
		return
	}
	e.out = append(e.out, tagDouble)
	e.double(x)
}

// str writes a string item (SC-E-05): one-byte when every code unit is <= 0xFF, else two-byte, aligned.
func (e *encoder) str(s string) {
	ascii := len(s) < 1<<32
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < 0x80
	}
	if ascii {
		e.out = append(e.out, tagOneByte)
		e.varint(uint32(len(s)))
		e.out = append(e.out, s...)
		return
	}
	oneByte := true
	for i := 0; i < len(s); {
		r, n := nextUnit(s, i)
		if n == 0 {
			e.bad("string is not WTF-8")
		}
		if r > 0xFF {
			oneByte = false
		}
		i += n
	}
	if oneByte {
		e.out = append(e.out, tagOneByte)
		e.varint(uint32(countRunes(s)))
		for i := 0; i < len(s); {
			r, n := nextUnit(s, i)
			e.out = append(e.out, byte(r))
			i += n
		}
		return
	}
	u, _ := Units(s)
	if uint64(len(u))*2 > math.MaxUint32 {
		e.bad("string too long")
	}
	nb := uint32(2 * len(u))
	p := len(e.out) - e.start
	if (p+1+varintLen(nb))&1 == 1 {
		e.out = append(e.out, 0)
	}
	e.out = append(e.out, tagTwoByte)
	e.varint(nb)
	for _, c := range u {
		e.out = append(e.out, byte(c), byte(c>>8))
	}
}

func countRunes(s string) int {
	n := 0
	for i := 0; i < len(s); {
		_, k := nextUnit(s, i)
		i += k
		n++
	}
	return n
}

func varintLen(x uint32) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// SC-E-04
func (e *encoder) bigint(tag byte, x *big.Int) {
	if x == nil {
		e.bad("nil *big.Int")
	}
	mag := new(big.Int).Abs(x).Bytes() // big-endian
	n := (len(mag) + 7) / 8 * 8
	if n > 0x3FFFFFFF {
		e.bad("BigInt too long")
	}
	bits := uint32(n) << 1
	if x.Sign() < 0 {
		bits |= 1
	}
	e.out = append(e.out, tag)
	e.varint(bits)
	for i := len(mag) - 1; i >= 0; i-- {
		e.out = append(e.out, mag[i])
	}
	for i := len(mag); i < n; i++ {
		e.out = append(e.out, 0)
	}
}

// key writes a property key (SC-E-06): an array index as a number, anything else as a string.
func (e *encoder) key(k string) {
	if i, ok := arrayIndex(k); ok {
		e.index(i)
		return
	}
	e.str(k)
}

func (e *encoder) index(i uint32) {
	if i <= math.MaxInt32 {
		e.number(float64(i))
	} else {
		e.out = append(e.out, tagDouble)
		e.double(float64(i))
	}
}

// ref writes `^ id` if o was written before and reports whether it did; else o takes the next id (SC-E-02).
func (e *encoder) ref(o any) bool {
	if id, ok := e.ids[o]; ok {
		e.out = append(e.out, tagRef)
		e.varint(id)
		return true
	}
	e.ids[o] = e.next
	e.next++
	return false
}

func (e *encoder) refObject(o *Object) bool {
	if id, ok := e.objIDs[o]; ok {
		e.out = append(e.out, tagRef)
		e.varint(id)
		return true
	}
	e.objIDs[o] = e.next
	e.next++
	return false
}

func (e *encoder) open() {
	if int64(len(e.stack))+1 > e.maxDepth {
		e.fail(formwire.SCLimitDepth, "nesting deeper than max_depth")
	}
}

// value writes v, or its opening and pushes its frame when it is a container.
func (e *encoder) value(v Value) {
	switch x := v.(type) {
	case nil, Null:
		e.out = append(e.out, tagNull)
	case Undefined:
		e.out = append(e.out, tagUndefined)
	case bool:
		if x {
			e.out = append(e.out, tagTrue)
		} else {
			e.out = append(e.out, tagFalse)
		}
	case float64:
		e.number(x)
	case float32:
		e.number(float64(x))
	case int:
		e.number(float64(x))
	case int32:
		e.number(float64(x))
	case int64:
		e.number(float64(x))
	case uint32:
		e.number(float64(x))
	case string:
		e.str(x)
	case *big.Int:
		e.bigint(tagBigint, x)
	case *Object:
		if x == nil {
			e.bad("nil *Object")
		}
		if e.refObject(x) {
			return
		}
		e.open()
		props := orderProps(e, x.Props)
		e.out = append(e.out, tagObject)
		e.stack = append(e.stack, eframe{kind: tagObject, props: props})
	case *Array:
		if x == nil {
			e.bad("nil *Array")
		}
		if e.ref(x) {
			return
		}
		e.open()
		e.array(x)
	case *Map:
		if x == nil {
			e.bad("nil *Map")
		}
		if e.ref(x) {
			return
		}
		e.open()
		seen := make(map[memberKey]struct{}, len(x.Entries))
		for _, en := range x.Entries {
			k := keyOf(en.Key)
			if _, dup := seen[k]; dup {
				e.bad("Map with a repeated key")
			}
			seen[k] = struct{}{}
		}
		e.out = append(e.out, tagMap)
		e.stack = append(e.stack, eframe{kind: tagMap, entries: x.Entries})
	case *Set:
		if x == nil {
			e.bad("nil *Set")
		}
		if e.ref(x) {
			return
		}
		e.open()
		seen := make(map[memberKey]struct{}, len(x.Values))
		for _, m := range x.Values {
			k := keyOf(m)
			if _, dup := seen[k]; dup {
				e.bad("Set with a repeated value")
			}
			seen[k] = struct{}{}
		}
		e.out = append(e.out, tagSet)
		e.stack = append(e.stack, eframe{kind: tagSet, values: x.Values})
	case *Error:
		if x == nil {
			e.bad("nil *Error")
		}
		if e.ref(x) {
			return
		}
		e.open()
		e.errorHead(x)
		e.stack = append(e.stack, eframe{kind: tagError, err: x})
	case *Date:
		if x == nil {
			e.bad("nil *Date")
		}
		if e.ref(x) {
			return
		}
		e.out = append(e.out, tagDate)
		e.double(ecma.TimeClip(x.Ms))
	case *BooleanObject:
		if x == nil {
			e.bad("nil *BooleanObject")
		}
		if e.ref(x) {
			return
		}
		if x.V {
			e.out = append(e.out, tagTrueObject)
		} else {
			e.out = append(e.out, tagFalseObject)
		}
	case *NumberObject:
		if x == nil {
			e.bad("nil *NumberObject")
		}
		if e.ref(x) {
			return
		}
		e.out = append(e.out, tagNumberObject)
		e.double(x.V)
	case *BigIntObject:
		if x == nil {
			e.bad("nil *BigIntObject")
		}
		if e.ref(x) {
			return
		}
		e.bigint(tagBigintObject, x.V)
	case *StringObject:
		if x == nil {
			e.bad("nil *StringObject")
		}
		if e.ref(x) {
			return
		}
		e.out = append(e.out, tagStringObject)
		e.str(x.V)
	case *RegExp:
		if x == nil {
			e.bad("nil *RegExp")
		}
		if e.ref(x) {
			return
		}
		bits := regexpBits(e, x.Flags)
		e.out = append(e.out, tagRegexp)
		e.str(x.Source)
		e.varint(bits)
	case *ArrayBuffer:
		if x == nil {
			e.bad("nil *ArrayBuffer")
		}
		if e.ref(x) {
			return
		}
		e.arrayBuffer(x)
	case *View:
		if x == nil || x.Buffer == nil {
			e.bad("nil *View or view without a buffer")
		}
		if id, ok := e.ids[x]; ok {
			e.out = append(e.out, tagRef)
			e.varint(id)
			return
		}
		e.view(x)
	default:
		e.bad("not a formwire v8 Value")
	}
}

// orderProps validates keys and returns them in JS enumeration order (SC-E-06).
func orderProps(e *encoder, props []Property) []Property {
	anyIdx := false
	for _, p := range props {
		if _, ok := arrayIndex(p.Key); ok {
			anyIdx = true
			break
		}
	}
	checkUnique(e, props)
	if !anyIdx {
		return props
	}
	o := &Object{Props: append([]Property(nil), props...)}
	sortIndexKeys(o)
	return o.Props
}

func checkUnique(e *encoder, props []Property) {
	if len(props) < 16 {
		for i := range props {
			for j := 0; j < i; j++ {
				if props[i].Key == props[j].Key {
					e.bad("duplicate property key")
				}
			}
		}
		return
	}
	seen := make(map[string]struct{}, len(props))
	for _, p := range props {
		if _, dup := seen[p.Key]; dup {
			e.bad("duplicate property key")
		}
		seen[p.Key] = struct{}{}
	}
}

// SC-E-07
func (e *encoder) array(a *Array) {
	for i, it := range a.Items {
		if it.Index >= a.Length || (i > 0 && a.Items[i-1].Index >= it.Index) {
			e.bad("array items must be ascending, unique and below the length")
		}
	}
	for _, p := range a.Props {
		if _, ok := arrayIndex(p.Key); ok || p.Key == "length" {
			e.bad("array property named like an index or length")
		}
	}
	checkUnique(e, a.Props)
	dense := uint64(len(a.Items)) == uint64(a.Length)
	if dense {
		e.out = append(e.out, tagDense)
	} else {
		e.out = append(e.out, tagSparse)
	}
	e.varint(a.Length)
	e.stack = append(e.stack, eframe{kind: tagDense, items: a.Items, props: a.Props, dense: dense, length: a.Length})
}

func regexpBits(e *encoder, flags string) uint32 {
	var bits uint32
	for i := 0; i < len(flags); i++ {
		found := false
		for _, fb := range regexpFlagBits {
			if fb.ch == flags[i] {
				if bits&fb.bit != 0 {
					e.bad("repeated RegExp flag")
				}
				bits |= fb.bit
				found = true
			}
		}
		if !found {
			e.bad("unknown RegExp flag")
		}
	}
	if bits&16 != 0 && bits&256 != 0 {
		e.bad("RegExp flags u and v together")
	}
	return bits
}

// SC-E-11
func (e *encoder) arrayBuffer(b *ArrayBuffer) {
	if uint64(len(b.Data)) > math.MaxUint32 {
		e.bad("ArrayBuffer longer than 2^32-1 bytes")
	}
	if b.Resizable {
		if b.MaxByteLength < len(b.Data) || uint64(b.MaxByteLength) > math.MaxUint32 {
			e.bad("resizable ArrayBuffer with a bad maximum")
		}
		e.out = append(e.out, tagResizableBuffer)
		e.varint(uint32(len(b.Data)))
		e.varint(uint32(b.MaxByteLength))
	} else {
		e.out = append(e.out, tagArrayBuffer)
		e.varint(uint32(len(b.Data)))
	}
	e.out = append(e.out, b.Data...)
}

// SC-E-12: the buffer (or a reference to it), then the view.
func (e *encoder) view(v *View) {
	if v.Kind >= numViewKinds {
		e.bad("unknown view kind")
	}
	es := v.Kind.ElementSize()
	bl := len(v.Buffer.Data)
	n := v.ByteLength
	if v.LengthTracking {
		if !v.Buffer.Resizable {
			e.bad("length-tracking view of a fixed-length buffer")
		}
		if v.ByteOffset < 0 || v.ByteOffset > bl {
			e.bad("view out of its buffer")
		}
		n = 0
	} else if v.ByteOffset < 0 || n < 0 || v.ByteOffset > bl || n > bl-v.ByteOffset {
		e.bad("view out of its buffer")
	}
	if v.ByteOffset%es != 0 || n%es != 0 {
		e.bad("view misaligned for its element size")
	}
	e.value(v.Buffer)
	e.ids[v] = e.next
	e.next++
	e.out = append(e.out, tagView, viewSubtags[v.Kind])
	e.varint(uint32(v.ByteOffset))
	e.varint(uint32(n))
	var flags uint32
	if v.LengthTracking {
		flags |= 1
	}
	if v.Buffer.Resizable {
		flags |= 2
	}
	e.varint(flags)
}

// SC-E-13: prototype, message and stack; the cause and `.` are written by the frame.
func (e *encoder) errorHead(x *Error) {
	e.out = append(e.out, tagError)
	if sub, ok := errorSubtags[x.Name]; ok {
		e.out = append(e.out, sub)
	}
	if x.HasMessage {
		e.out = append(e.out, errTagMessage)
		e.str(x.Message)
	}
	if x.HasStack {
		e.out = append(e.out, errTagStack)
		e.str(x.Stack)
	}
}

// step writes the next item of the top container, or its end.
func (e *encoder) step(f *eframe) {
	switch f.kind {
	case tagObject:
		if f.i < len(f.props) {
			p := f.props[f.i]
			f.i++
			e.key(p.Key)
			e.value(p.Value)
			return
		}
		n := uint32(len(f.props))
		e.pop()
		e.out = append(e.out, tagObjectEnd)
		e.varint(n)
	case tagDense:
		if f.phase == 0 {
			if f.i < len(f.items) {
				it := f.items[f.i]
				f.i++
				if !f.dense {
					e.index(it.Index)
				}
				e.value(it.Value)
				return
			}
			f.phase, f.i = 1, 0
		}
		if f.i < len(f.props) {
			p := f.props[f.i]
			f.i++
			e.str(p.Key)
			e.value(p.Value)
			return
		}
		count := uint32(len(f.props))
		end := byte(tagDenseEnd)
		if !f.dense {
			count += uint32(len(f.items))
			end = tagSparseEnd
		}
		length := f.length
		e.pop()
		e.out = append(e.out, end)
		e.varint(count)
		e.varint(length)
	case tagMap:
		if f.i < 2*len(f.entries) {
			en := f.entries[f.i/2]
			var v Value = en.Value
			if f.i%2 == 0 {
				v = zeroKey(en.Key)
			}
			f.i++
			e.value(v)
			return
		}
		n := uint32(2 * len(f.entries))
		e.pop()
		e.out = append(e.out, tagMapEnd)
		e.varint(n)
	case tagSet:
		if f.i < len(f.values) {
			v := f.values[f.i]
			f.i++
			e.value(zeroKey(v))
			return
		}
		n := uint32(len(f.values))
		e.pop()
		e.out = append(e.out, tagSetEnd)
		e.varint(n)
	case tagError:
		if f.phase == 0 && f.err.HasCause {
			f.phase = 1
			e.out = append(e.out, errTagCause)
			e.value(f.err.Cause)
			return
		}
		e.pop()
		e.out = append(e.out, errTagEnd)
	}
}

// zeroKey: a Map key or Set value -0 is +0 (Map.prototype.set).
func zeroKey(v Value) Value {
	if x, ok := v.(float64); ok && x == 0 {
		return float64(0)
	}
	return v
}
