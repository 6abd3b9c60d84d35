package main

// The clone ops (conformance/PROTOCOL.md): clone.decode and clone.encode over package v8, values in the neutral
// JSON form of vectors/SCHEMA.md.

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/formwire/formwire/go/internal/v8neutral"
	"github.com/formwire/formwire/go/v8"
)

func init() {
	register("clone.decode", func(r *Request) map[string]any { return results(r, cloneDecode) })
	register("clone.encode", cloneEncode)
}

func cloneOptions(req *Request) (*v8.Options, error) {
	o := v8.DefaultOptions()
	for k, raw := range req.Options {
		if k == "node_ipc" {
			if err := json.Unmarshal(raw, &o.NodeIPC); err != nil {
				return nil, fmt.Errorf("bad node_ipc %s", raw)
			}
			continue
		}
		n, ok := limitValue(raw)
		if !ok || !o.SetLimit(k, n) {
			return nil, fmt.Errorf("unknown clone option %s=%s", k, raw)
		}
	}
	return &o, nil
}

// cloneDecode decodes the whole input whatever the chunking: the decoder is not streaming (SC-D-01).
func cloneDecode(req *Request, input []byte, _ []int) any {
	o, err := cloneOptions(req)
	if err != nil {
		return map[string]any{"error": testeeError("%v", err)}
	}
	v, err := v8.Decode(input, o)
	if err != nil {
		return map[string]any{"error": errorJSON(err)}
	}
	n, err := v8neutral.ToNeutral(v)
	if err != nil {
		return map[string]any{"error": testeeError("%v", err)}
	}
	return map[string]any{"ok": map[string]any{"value": n}}
}

func cloneEncode(req *Request) map[string]any {
	o, err := cloneOptions(req)
	if err != nil {
		return map[string]any{"error": testeeError("%v", err)}
	}
	var j any
	if err := json.Unmarshal(req.Value, &j); err != nil {
		return map[string]any{"error": testeeError("bad value: %v", err)}
	}
	v, err := v8neutral.FromNeutral(j)
	if err != nil {
		return map[string]any{"error": testeeError("%v", err)}
	}
	b, err := v8.Encode(v, o)
	if err != nil {
		return map[string]any{"error": errorJSON(err)}
	}
	return map[string]any{"ok": map[string]any{"hex": hex.EncodeToString(b)}}
}
