package v8

import (
	"bytes"
	"errors"
	"testing"

	formwire "github.com/formwire/formwire/go"
)

// Nesting is bounded by max_depth only: a million levels with the limit raised decode and encode without
// recursion (a recursive reader would need a frame per level on the goroutine stack).

const million = 1000000

// levels is the nesting depth of these tests: a million, or 100,000 under
// -race (the same non-recursive paths and limit checks, at a tenth of the
// instrumented cost; go-unit also runs them without -race at a million).
var levels = func() int {
	if raceEnabled {
		return 100_000
	}
	return million
}()

// nestedArrays is [[[...[undefined]...]]] with n arrays.
func nestedArrays(n int) []byte {
	b := make([]byte, 0, 2+6*n+1)
	b = append(b, 0xFF, 0x0F)
	for i := 0; i < n; i++ {
		b = append(b, 'A', 1)
	}
	b = append(b, '_')
	for i := 0; i < n; i++ {
		b = append(b, '$', 0, 1)
	}
	return b
}

func TestDeepArrays(t *testing.T) {
	in := nestedArrays(levels)
	o := DefaultOptions()
	o.MaxDepth = int64(levels)
	deep, err := Decode(in, &o)
	if err != nil {
		t.Fatal(err)
	}
	v := deep
	depth := 0
	for {
		a, ok := v.(*Array)
		if !ok {
			break
		}
		depth++
		if len(a.Items) != 1 {
			t.Fatalf("level %d has %d items", depth, len(a.Items))
		}
		v = a.Items[0].Value
	}
	if depth != levels || v != (Undefined{}) {
		t.Fatalf("depth %d, innermost %v", depth, v)
	}
	out, err := Encode(deep, &o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, in) {
		t.Fatal("encoding of the decoded deeply nested array differs from the input")
	}
	// One level fewer allowed: the innermost array's tag is refused, and the encoder refuses too.
	o.MaxDepth = int64(levels - 1)
	_, err = Decode(in, &o)
	wantErr(t, err, formwire.SCLimitDepth, int64(2+2*(levels-1)))
	_, err = Encode(deep, &o)
	wantErr(t, err, formwire.SCLimitDepth, int64(2+2*(levels-1)))
}

// withDepth is the default options with max_depth set.
func withDepth(depth int64) *Options {
	o := DefaultOptions()
	o.MaxDepth = depth
	return &o
}

func TestDeepMixed(t *testing.T) {
	// objects, Maps, Sets and Error causes in turn, each holding the next
	b := []byte{0xFF, 0x0F}
	var ends [][]byte
	for i := 0; i < levels; i++ {
		switch i % 4 {
		case 0:
			b = append(b, 'o', '"', 1, 'k')
			ends = append(ends, []byte{'{', 1})
		case 1:
			b = append(b, ';', 'T')
			ends = append(ends, []byte{':', 2})
		case 2:
			b = append(b, '\'')
			ends = append(ends, []byte{',', 1})
		case 3:
			b = append(b, 'r', 'c')
			ends = append(ends, []byte{'.'})
		}
	}
	b = append(b, '0')
	for i := len(ends) - 1; i >= 0; i-- {
		b = append(b, ends[i]...)
	}
	o := withDepth(int64(levels))
	v, err := Decode(b, o)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Encode(v, o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Fatal("re-encoding differs")
	}
	_, err = Decode(b, nil)
	wantErr(t, err, formwire.SCLimitDepth, -1)
}

// wantErr checks err is a *formwire.Error with code and (offset >= 0) offset.
func wantErr(t *testing.T, err error, code formwire.Code, offset int64) {
	t.Helper()
	var fe *formwire.Error
	if !errors.As(err, &fe) {
		t.Fatalf("want %s, got %v", code, err)
	}
	if fe.Code != code || (offset >= 0 && fe.Offset != offset) {
		t.Fatalf("want %s at %d, got %v", code, offset, fe)
	}
	if !errors.Is(err, code) {
		t.Fatalf("errors.Is(%v, %s) is false", err, code)
	}
}
