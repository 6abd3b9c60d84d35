package v8

import (
	"errors"
	"testing"

	formwire "github.com/formwire/formwire/go"
)

// FuzzDecode: any input either decodes or fails with a *formwire.Error (never a panic), and what decodes
// re-encodes to bytes that decode to the same graph. Seeded from every clone vector's input.
// Run: go test ./v8 -run '^$' -fuzz FuzzDecode -fuzztime 10m
func FuzzDecode(f *testing.F) {
	for _, v := range LoadVectors(f) {
		if b, ok := v.Input["bytes"].([]byte); ok && len(b) < 1<<16 {
			f.Add(b, v.Opts["node_ipc"] == true)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, ipc bool) {
		o := DefaultOptions()
		o.NodeIPC = ipc
		o.MaxDepth = 64 // keeps Equal's recursion short; the decoder itself has no recursion
		v, err := Decode(b, &o)
		if err != nil {
			var fe *formwire.Error
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(b)) || fe.Code.Kind() == 0 {
				t.Fatalf("not a coded error with an offset in the input: %#v", err)
			}
			return
		}
		enc, err := Encode(v, &o)
		if err != nil {
			t.Fatalf("decoded value does not encode: %v", err)
		}
		back, err := Decode(enc, &o)
		if err != nil {
			t.Fatalf("re-encoding %x does not decode: %v", enc, err)
		}
		if !Equal(v, back) {
			t.Fatalf("re-encoding %x decodes to another value", enc)
		}
	})
}
