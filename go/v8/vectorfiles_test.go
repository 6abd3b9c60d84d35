package v8

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	formwire "github.com/formwire/formwire/go"
)

// Exported only to this package's tests (a _test.go file): the external vectors test (package v8_test, which may
// import the neutral description without an import cycle) and the internal ones share one loader.

// Vector is one shared clone vector (vectors/clone, vectors/SCHEMA.md).
type Vector struct {
	ID     string         `json:"id"`
	Kind   string         `json:"kind"`
	Input  map[string]any `json:"input"`
	Opts   map[string]any `json:"options"`
	Expect map[string]any `json:"expect"`
}

// LoadVectors reads every clone vector, with its input bytes (hex or file) in Input["bytes"].
func LoadVectors(t testing.TB) []Vector {
	var out []Vector
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
			var v Vector
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

// VectorOptions reads a vector's options (absent: default; null: no limit).
func VectorOptions(m map[string]any) *Options {
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
