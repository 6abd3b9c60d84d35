package v8_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/internal/v8neutral"
	"github.com/formwire/formwire/go/v8"
)

// canonJSON makes a neutral value comparable: through JSON, so numbers are float64 whatever their Go type.
func canonJSON(t testing.TB, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// The shared clone vectors (vectors/clone), fed whole: every decode case's value or error code and offset, every
// encode case's exact bytes, and each encoding decoded back to the input value.
func TestVectors(t *testing.T) {
	vs := v8.LoadVectors(t)
	decodes, encodes := 0, 0
	for _, v := range vs {
		v := v
		t.Run(v.ID, func(t *testing.T) {
			switch v.Kind {
			case "clone-decode":
				decodes++
				checkDecode(t, v)
			case "clone-encode":
				encodes++
				checkEncode(t, v)
			default:
				t.Fatalf("unknown kind %q", v.Kind)
			}
		})
	}
	if decodes+encodes != len(vs) || decodes == 0 || encodes == 0 {
		t.Fatalf("ran %d decode and %d encode cases of %d", decodes, encodes, len(vs))
	}
}

func checkDecode(t *testing.T, v v8.Vector) {
	got, err := v8.Decode(v.Input["bytes"].([]byte), v8.VectorOptions(v.Opts))
	if want, ok := v.Expect["error"].(map[string]any); ok {
		var fe *formwire.Error
		if !errors.As(err, &fe) {
			t.Fatalf("want %v, got value %v (err %v)", want, got, err)
		}
		if string(fe.Code) != want["code"] {
			t.Fatalf("want %v, got %v", want, fe)
		}
		if off, ok := want["offset"].(float64); ok && int64(off) != fe.Offset {
			t.Fatalf("want %v, got %v", want, fe)
		}
		return
	}
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	n, err := v8neutral.ToNeutral(got)
	if err != nil {
		t.Fatal(err)
	}
	want := canonJSON(t, v.Expect["value"])
	if have := canonJSON(t, n); !reflect.DeepEqual(have, want) {
		hb, _ := json.Marshal(have)
		wb, _ := json.Marshal(want)
		t.Fatalf("value differs\n got %s\nwant %s", hb, wb)
	}
	// What was decoded encodes, and that encoding decodes to the same value.
	enc, err := v8.Encode(got, nil)
	if err != nil {
		t.Fatalf("re-encode: %v", err)
	}
	again, err := v8.Decode(enc, nil)
	if err != nil {
		t.Fatalf("decode of re-encoding %x: %v", enc, err)
	}
	if !v8.Equal(got, again) {
		t.Fatalf("re-encoding %x decodes to another value", enc)
	}
}

func checkEncode(t *testing.T, v v8.Vector) {
	val, err := v8neutral.FromNeutral(v.Input["value"])
	if err != nil {
		t.Fatal(err)
	}
	out, err := v8.Encode(val, v8.VectorOptions(v.Opts))
	if want, ok := v.Expect["error"].(map[string]any); ok {
		var fe *formwire.Error
		if !errors.As(err, &fe) || string(fe.Code) != want["code"] {
			t.Fatalf("want %v, got %x, %v", want, out, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if want := strings.ToLower(v.Expect["hex"].(string)); hex.EncodeToString(out) != want {
		t.Fatalf("bytes differ\n got %x\nwant %s", out, want)
	}
	back, err := v8.Decode(out, nil)
	if err != nil {
		t.Fatalf("decode back: %v", err)
	}
	n, err := v8neutral.ToNeutral(back)
	if err != nil {
		t.Fatal(err)
	}
	if have, want := canonJSON(t, n), canonJSON(t, v.Input["value"]); !reflect.DeepEqual(have, want) {
		t.Fatalf("round trip differs")
	}
}
