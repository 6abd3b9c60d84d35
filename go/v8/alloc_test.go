package v8

import (
	"runtime"
	"testing"
	"time"

	formwire "github.com/formwire/formwire/go"
)

// SC-L-04: a declared size is checked against the bytes left before anything is allocated for it, so short inputs
// that declare 4 GiB strings, buffers, BigInts, host views or dense arrays fail SC_TRUNCATED cheaply.
func TestDeclaredSizesAllocateNothing(t *testing.T) {
	huge := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x0F} // u32 varint 2^32-1
	cases := map[string][]byte{
		"one-byte":  append([]byte{0xFF, 0x0F, '"'}, huge...),
		"two-byte":  {0xFF, 0x0F, 'c', 0xFE, 0xFF, 0xFF, 0xFF, 0x0F},
		"utf8":      append([]byte{0xFF, 0x0F, 'S'}, huge...),
		"buffer":    append([]byte{0xFF, 0x0F, 'B'}, huge...),
		"resizable": append(append([]byte{0xFF, 0x0F, '~'}, huge...), huge...),
		"bigint":    {0xFF, 0x0F, 'Z', 0xFE, 0xFF, 0xFF, 0xFF, 0x07},
		"dense":     append([]byte{0xFF, 0x0F, 'A'}, huge...),
		"host":      append([]byte{0xFF, 0x0F, '\\', 1}, huge...),
	}
	o := DefaultOptions()
	o.MaxBigIntBytes = formwire.Unlimited
	for name, in := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Decode(in, &o)
		runtime.ReadMemStats(&after)
		wantErr(t, err, formwire.SCTruncated, int64(len(in)))
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
			t.Errorf("%s: %d bytes allocated for a %d-byte input", name, grew, len(in))
		}
	}
}

// A sparse array's length allocates nothing (holes are not stored).
func TestSparseLengthAllocatesNothing(t *testing.T) {
	in := []byte{0xFF, 0x0F, 'a', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, '@', 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := Decode(in, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if a := v.(*Array); a.Length != 1<<32-1 || len(a.Items) != 0 {
		t.Fatalf("got length %d with %d items", a.Length, len(a.Items))
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
		t.Errorf("%d bytes allocated", grew)
	}
}

// Nested dense arrays that each declare every byte left as their length: memory stays linear in the input
// (reserving each declared length would be quadratic: here about 190 MB for 8 KB).
func TestNestedDenseLengthsStayLinear(t *testing.T) {
	const k = 2000
	total := 2 + 4*k + 1
	in := []byte{0xFF, 0x0F}
	for i := 0; i < k; i++ {
		left := total - (len(in) + 4) // bytes after this array's length varint
		in = append(in, 'A', byte(left)|0x80, byte(left>>7)|0x80, byte(left>>14))
	}
	in = append(in, '_')
	o := DefaultOptions()
	o.MaxDepth = k
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Decode(in, &o)
	runtime.ReadMemStats(&after)
	wantErr(t, err, formwire.SCTruncated, int64(len(in)))
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Errorf("%d bytes allocated for a %d-byte input", grew, len(in))
	}
}

// A Set of large BigInts: SameValueZero keys are linear in the BigInt's size (a decimal conversion per member
// would take seconds for 1 MiB digits).
func TestLargeBigIntMembersAreCheap(t *testing.T) {
	const n = 1 << 20
	in := []byte{0xFF, 0x0F, '\'', 'Z', 0x80, 0x80, 0x80, 0x01} // bitfield 2^21: 2^20 digit bytes, positive
	in = append(in, make([]byte, n)...)
	in[len(in)-1] = 1
	in = append(in, 'Z', 0x81, 0x80, 0x80, 0x01) // the same magnitude, negative: another member
	in = append(in, make([]byte, n)...)
	in[len(in)-1] = 1
	in = append(in, ',', 2)
	start := time.Now()
	v, err := Decode(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(v.(*Set).Values); got != 2 {
		t.Fatalf("%d members", got)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
}
