// Package v8neutral is the neutral value description of vectors/SCHEMA.md (SC-N rules) for package v8: test
// support for the conformance testee (cmd/formwire-testee) and v8's vector tests, kept out of the published
// package.
package v8neutral

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/formwire/formwire/go/v8"

	"github.com/formwire/formwire/go/internal/ecma"
)

// The neutral value description is the JSON form the conformance vectors and testees use. ToNeutral and FromNeutral work on the generic JSON values of encoding/json (map[string]any, []any,
// float64, string, bool). They recurse over the graph, so they are for values Decode accepted (depth bounded by
// max_depth) and for test data.

// ToNeutral describes v: objects numbered in first-visit depth-first order, a second visit as {"t":"ref"}.
func ToNeutral(v v8.Value) (any, error) {
	n := &neutralOut{ids: map[any]int{}}
	return n.d(v)
}

type neutralOut struct {
	ids map[any]int
}

func numberOut(x float64) any {
	switch {
	case x != x:
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0 && math.Signbit(x):
		return "-0"
	}
	return x
}

func strField(s string) any {
	if v8.WellFormed(s) {
		return s
	}
	return map[string]any{"u16": unitsAny(s)}
}

func unitsAny(s string) []any {
	u, _ := v8.Units(s)
	out := make([]any, len(u))
	for i, c := range u {
		out[i] = float64(c)
	}
	return out
}

func strValue(t string, s string, id int) map[string]any {
	m := map[string]any{"t": t}
	if id >= 0 {
		m["id"] = id
	}
	if v8.WellFormed(s) {
		m["v"] = s
	} else {
		m["u16"] = unitsAny(s)
	}
	return m
}

func (n *neutralOut) take(o any) int {
	id := len(n.ids)
	n.ids[o] = id
	return id
}

func (n *neutralOut) d(v v8.Value) (any, error) {
	switch x := v.(type) {
	case v8.Undefined:
		return map[string]any{"t": "undefined"}, nil
	case nil, v8.Null:
		return map[string]any{"t": "null"}, nil
	case bool:
		return map[string]any{"t": "bool", "v": x}, nil
	case float64:
		return map[string]any{"t": "number", "v": numberOut(x)}, nil
	case string:
		return strValue("string", x, -1), nil
	case *big.Int:
		return map[string]any{"t": "bigint", "v": x.String()}, nil
	}
	if id, ok := n.ids[v]; ok {
		return map[string]any{"t": "ref", "id": id}, nil
	}
	if x, ok := v.(*v8.View); ok {
		buf, err := n.d(x.Buffer)
		if err != nil {
			return nil, err
		}
		id := n.take(x)
		return map[string]any{"t": "view", "id": id, "kind": x.Kind.String(), "buffer": buf,
			"byte_offset": x.ByteOffset, "byte_length": x.ByteLength, "length_tracking": x.LengthTracking}, nil
	}
	id := n.take(v)
	props := func(ps []v8.Property) ([]any, error) {
		out := make([]any, 0, len(ps))
		for _, p := range ps {
			dv, err := n.d(p.Value)
			if err != nil {
				return nil, err
			}
			out = append(out, []any{strField(p.Key), dv})
		}
		return out, nil
	}
	switch x := v.(type) {
	case *v8.Object:
		ps, err := props(x.Props)
		if err != nil {
			return nil, err
		}
		return map[string]any{"t": "object", "id": id, "props": ps}, nil
	case *v8.Array:
		items := make([]any, 0, len(x.Items))
		for _, it := range x.Items {
			dv, err := n.d(it.Value)
			if err != nil {
				return nil, err
			}
			items = append(items, []any{it.Index, dv})
		}
		ps, err := props(x.Props)
		if err != nil {
			return nil, err
		}
		return map[string]any{"t": "array", "id": id, "length": x.Length, "items": items, "props": ps}, nil
	case *v8.Date:
		return map[string]any{"t": "date", "id": id, "v": numberOut(x.Ms)}, nil
	case *v8.RegExp:
		return map[string]any{"t": "regexp", "id": id, "source": strField(x.Source), "flags": x.Flags}, nil
	case *v8.Map:
		es := make([]any, 0, len(x.Entries))
		for _, e := range x.Entries {
			k, err := n.d(e.Key)
			if err != nil {
				return nil, err
			}
			val, err := n.d(e.Value)
			if err != nil {
				return nil, err
			}
			es = append(es, []any{k, val})
		}
		return map[string]any{"t": "map", "id": id, "entries": es}, nil
	case *v8.Set:
		vs := make([]any, 0, len(x.Values))
		for _, m := range x.Values {
			dv, err := n.d(m)
			if err != nil {
				return nil, err
			}
			vs = append(vs, dv)
		}
		return map[string]any{"t": "set", "id": id, "values": vs}, nil
	case *v8.BooleanObject:
		return map[string]any{"t": "boolean-object", "id": id, "v": x.V}, nil
	case *v8.NumberObject:
		return map[string]any{"t": "number-object", "id": id, "v": numberOut(x.V)}, nil
	case *v8.BigIntObject:
		return map[string]any{"t": "bigint-object", "id": id, "v": x.V.String()}, nil
	case *v8.StringObject:
		return strValue("string-object", x.V, id), nil
	case *v8.ArrayBuffer:
		m := map[string]any{"t": "arraybuffer", "id": id, "base64": base64.StdEncoding.EncodeToString(x.Data)}
		if x.Resizable {
			m["max_byte_length"] = x.MaxByteLength
		}
		return m, nil
	case *v8.Error:
		name := x.Name
		if !knownErrorNames[name] {
			name = "Error"
		}
		m := map[string]any{"t": "error", "id": id, "name": name}
		if x.HasMessage {
			m["message"] = strField(x.Message)
		}
		if x.HasStack {
			m["stack"] = strField(x.Stack)
		}
		if x.HasCause {
			c, err := n.d(x.Cause)
			if err != nil {
				return nil, err
			}
			m["cause"] = c
		}
		return m, nil
	}
	return nil, fmt.Errorf("v8: cannot describe a %T", v)
}

// FromNeutral builds the value graph a neutral description describes (ids and refs give shared objects).
func FromNeutral(j any) (v8.Value, error) {
	b := &neutralIn{ids: map[int]v8.Value{}}
	return b.b(j)
}

type neutralIn struct {
	ids map[int]v8.Value
}

var errNeutral = errors.New("v8: bad neutral value")

func numberIn(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case string:
		switch x {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		case "-0":
			return math.Copysign(0, -1), nil
		}
	}
	return 0, fmt.Errorf("%w: number %v", errNeutral, v)
}

func unitsIn(v any) (string, error) {
	a, ok := v.([]any)
	if !ok {
		return "", fmt.Errorf("%w: u16 %v", errNeutral, v)
	}
	u := make([]uint16, len(a))
	for i, c := range a {
		f, ok := c.(float64)
		if !ok || f < 0 || f > 0xFFFF || f != math.Trunc(f) {
			return "", fmt.Errorf("%w: code unit %v", errNeutral, c)
		}
		u[i] = uint16(f)
	}
	return v8.FromUnits(u), nil
}

func strFieldIn(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	if m, ok := v.(map[string]any); ok {
		return unitsIn(m["u16"])
	}
	return "", fmt.Errorf("%w: string field %v", errNeutral, v)
}

func stringIn(m map[string]any) (string, error) {
	if s, ok := m["v"].(string); ok {
		return s, nil
	}
	return unitsIn(m["u16"])
}

func bigIn(v any) (*big.Int, error) {
	s, _ := v.(string)
	x, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("%w: bigint %v", errNeutral, v)
	}
	return x, nil
}

func intIn(v any) (int, error) {
	f, ok := v.(float64)
	if !ok || f != math.Trunc(f) || f < 0 || f > math.MaxUint32 {
		return 0, fmt.Errorf("%w: integer %v", errNeutral, v)
	}
	return int(f), nil
}

func (n *neutralIn) reg(m map[string]any, o v8.Value) error {
	id, err := intIn(m["id"])
	if err != nil {
		return err
	}
	if _, dup := n.ids[id]; dup {
		return fmt.Errorf("%w: id %d used twice", errNeutral, id)
	}
	n.ids[id] = o
	return nil
}

func (n *neutralIn) propsIn(v any) ([]v8.Property, error) {
	a, ok := v.([]any)
	if !ok && v != nil {
		return nil, fmt.Errorf("%w: props", errNeutral)
	}
	out := make([]v8.Property, 0, len(a))
	for _, p := range a {
		kv, ok := p.([]any)
		if !ok || len(kv) != 2 {
			return nil, fmt.Errorf("%w: property", errNeutral)
		}
		k, err := strFieldIn(kv[0])
		if err != nil {
			return nil, err
		}
		val, err := n.b(kv[1])
		if err != nil {
			return nil, err
		}
		out = append(out, v8.Property{Key: k, Value: val})
	}
	return out, nil
}

func (n *neutralIn) b(j any) (v8.Value, error) {
	m, ok := j.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: %v", errNeutral, j)
	}
	t, _ := m["t"].(string)
	switch t {
	case "undefined":
		return v8.Undefined{}, nil
	case "null":
		return v8.Null{}, nil
	case "bool":
		b, ok := m["v"].(bool)
		if !ok {
			return nil, errNeutral
		}
		return b, nil
	case "number":
		return numberIn(m["v"])
	case "bigint":
		return bigIn(m["v"])
	case "string":
		return stringIn(m)
	case "ref":
		id, err := intIn(m["id"])
		if err != nil {
			return nil, err
		}
		o, ok := n.ids[id]
		if !ok {
			return nil, fmt.Errorf("%w: ref to unknown id %d", errNeutral, id)
		}
		return o, nil
	case "object":
		o := &v8.Object{}
		if err := n.reg(m, o); err != nil {
			return nil, err
		}
		ps, err := n.propsIn(m["props"])
		o.Props = ps
		return o, err
	case "array":
		l, err := intIn(m["length"])
		if err != nil {
			return nil, err
		}
		a := &v8.Array{Length: uint32(l)}
		if err := n.reg(m, a); err != nil {
			return nil, err
		}
		items, _ := m["items"].([]any)
		for _, it := range items {
			kv, ok := it.([]any)
			if !ok || len(kv) != 2 {
				return nil, fmt.Errorf("%w: item", errNeutral)
			}
			i, err := intIn(kv[0])
			if err != nil {
				return nil, err
			}
			val, err := n.b(kv[1])
			if err != nil {
				return nil, err
			}
			a.Items = append(a.Items, v8.Item{Index: uint32(i), Value: val})
		}
		a.Props, err = n.propsIn(m["props"])
		return a, err
	case "date":
		ms, err := numberIn(m["v"])
		if err != nil {
			return nil, err
		}
		o := &v8.Date{Ms: ecma.TimeClip(ms)}
		return o, n.reg(m, o)
	case "regexp":
		src, err := strFieldIn(m["source"])
		if err != nil {
			return nil, err
		}
		flags, _ := m["flags"].(string)
		o := &v8.RegExp{Source: src, Flags: flags}
		return o, n.reg(m, o)
	case "map":
		o := &v8.Map{}
		if err := n.reg(m, o); err != nil {
			return nil, err
		}
		es, _ := m["entries"].([]any)
		for _, e := range es {
			kv, ok := e.([]any)
			if !ok || len(kv) != 2 {
				return nil, fmt.Errorf("%w: entry", errNeutral)
			}
			k, err := n.b(kv[0])
			if err != nil {
				return nil, err
			}
			val, err := n.b(kv[1])
			if err != nil {
				return nil, err
			}
			o.Entries = append(o.Entries, v8.MapEntry{Key: k, Value: val})
		}
		return o, nil
	case "set":
		o := &v8.Set{}
		if err := n.reg(m, o); err != nil {
			return nil, err
		}
		vs, _ := m["values"].([]any)
		for _, e := range vs {
			val, err := n.b(e)
			if err != nil {
				return nil, err
			}
			o.Values = append(o.Values, val)
		}
		return o, nil
	case "boolean-object":
		b, _ := m["v"].(bool)
		o := &v8.BooleanObject{V: b}
		return o, n.reg(m, o)
	case "number-object":
		x, err := numberIn(m["v"])
		if err != nil {
			return nil, err
		}
		o := &v8.NumberObject{V: x}
		return o, n.reg(m, o)
	case "bigint-object":
		x, err := bigIn(m["v"])
		if err != nil {
			return nil, err
		}
		o := &v8.BigIntObject{V: x}
		return o, n.reg(m, o)
	case "string-object":
		s, err := stringIn(m)
		if err != nil {
			return nil, err
		}
		o := &v8.StringObject{V: s}
		return o, n.reg(m, o)
	case "arraybuffer":
		s, _ := m["base64"].(string)
		data, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			if data, err = base64.RawStdEncoding.DecodeString(s); err != nil {
				return nil, fmt.Errorf("%w: base64", errNeutral)
			}
		}
		o := &v8.ArrayBuffer{Data: data, MaxByteLength: len(data)}
		if mx, ok := m["max_byte_length"]; ok {
			l, err := intIn(mx)
			if err != nil {
				return nil, err
			}
			o.Resizable, o.MaxByteLength = true, l
		}
		return o, n.reg(m, o)
	case "view":
		bv, err := n.b(m["buffer"])
		if err != nil {
			return nil, err
		}
		buf, ok := bv.(*v8.ArrayBuffer)
		if !ok {
			return nil, fmt.Errorf("%w: view buffer", errNeutral)
		}
		kindName, _ := m["kind"].(string)
		kind, ok := v8.ViewKindByName(kindName)
		if !ok {
			return nil, fmt.Errorf("%w: view kind %q", errNeutral, kindName)
		}
		off, err := intIn(m["byte_offset"])
		if err != nil {
			return nil, err
		}
		l, err := intIn(m["byte_length"])
		if err != nil {
			return nil, err
		}
		tracking, _ := m["length_tracking"].(bool)
		o := &v8.View{Kind: kind, Buffer: buf, ByteOffset: off, ByteLength: l, LengthTracking: tracking}
		return o, n.reg(m, o)
	case "error":
		name, _ := m["name"].(string)
		o := &v8.Error{Name: name}
		if err := n.reg(m, o); err != nil {
			return nil, err
		}
		if v, ok := m["message"]; ok {
			s, err := strFieldIn(v)
			if err != nil {
				return nil, err
			}
			o.Message, o.HasMessage = s, true
		}
		if v, ok := m["stack"]; ok {
			s, err := strFieldIn(v)
			if err != nil {
				return nil, err
			}
			o.Stack, o.HasStack = s, true
		}
		if v, ok := m["cause"]; ok {
			c, err := n.b(v)
			if err != nil {
				return nil, err
			}
			o.Cause, o.HasCause = c, true
		}
		return o, nil
	}
	return nil, fmt.Errorf("%w: type %q", errNeutral, t)
}

// The Error names with a V8 prototype subtag (SC-W-20); any other name is described as "Error", as it decodes.
var knownErrorNames = map[string]bool{
	"EvalError": true, "RangeError": true, "ReferenceError": true, "SyntaxError": true, "TypeError": true,
	"URIError": true,
}
