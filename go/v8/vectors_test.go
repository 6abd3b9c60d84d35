package v8

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	formwire "github.com/formwire/formwire/go"
)

// The shared clone vectors (vectors/clone), fed whole: every decode case's value or error code and offset, every
// encode case's exact bytes, and each encoding decoded back to the input value.

type vector struct {
	ID     string         `json:"id"`
	Kind   string         `json:"kind"`
	Input  map[string]any `json:"input"`
	Opts   map[string]any `json:"options"`
	Expect map[string]any `json:"expect"`
}

func loadVectors(t testing.TB) []vector {
	var out []vector
	for _, verdict := range []string{"accept", "reject"} {
		dir := filepath.Join("..", "..", "vectors", "clone", verdict)
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no clone vectors in %s", dir)
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var v vector
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if h, ok := v.Input["hex"].(string); ok {
				b, err := hex.DecodeString(h)
				if err != nil {
					t.Fatal(err)
				}
				v.Input["bytes"] = b
			} else if name, ok := v.Input["file"].(string); ok {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				v.Input["bytes"] = b
			}
			out = append(out, v)
		}
	}
	return out
}

// optionsOf reads a vector's options (absent: default; null: no limit).
func optionsOf(m map[string]any) *Options {
	o := DefaultOptions()
	for k, v := range m {
		if k == "node_ipc" {
			o.NodeIPC = v == true
			continue
		}
		l := formwire.Unlimited
		if f, ok := v.(float64); ok {
			l = int64(f)
		}
		o.SetLimit(k, l)
	}
	return &o
}

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

func TestVectors(t *testing.T) {
	vs := loadVectors(t)
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

func checkDecode(t *testing.T, v vector) {
	got, err := Decode(v.Input["bytes"].([]byte), optionsOf(v.Opts))
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
	n, err := ToNeutral(got)
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
	enc, err := Encode(got, nil)
	if err != nil {
		t.Fatalf("re-encode: %v", err)
	}
	again, err := Decode(enc, nil)
	if err != nil {
		t.Fatalf("decode of re-encoding %x: %v", enc, err)
	}
	if !Equal(got, again) {
		t.Fatalf("re-encoding %x decodes to another value", enc)
	}
}

func checkEncode(t *testing.T, v vector) {
	val, err := FromNeutral(v.Input["value"])
	if err != nil {
		t.Fatal(err)
	}
	out, err := Encode(val, optionsOf(v.Opts))
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
	back, err := Decode(out, nil)
	if err != nil {
		t.Fatalf("decode back: %v", err)
	}
	n, err := ToNeutral(back)
	if err != nil {
		t.Fatal(err)
	}
	if have, want := canonJSON(t, n), canonJSON(t, v.Input["value"]); !reflect.DeepEqual(have, want) {
		t.Fatalf("round trip differs")
	}
}
