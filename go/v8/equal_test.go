package v8

import (
	"bytes"
	"math"
	"math/big"
)

// Equal reports whether two value graphs are the same up to renaming objects: same shapes, same primitives (every
// NaN alike, -0 apart from +0), and the same sharing (a bijection between their objects).
func Equal(a, b Value) bool {
	q := &eq{ab: map[any]any{}, ba: map[any]any{}}
	return q.eq(a, b)
}

type eq struct{ ab, ba map[any]any }

func sameNum(x, y float64) bool {
	if x != x || y != y {
		return x != x && y != y
	}
	return math.Float64bits(x) == math.Float64bits(y)
}

func (q *eq) eq(a, b Value) bool {
	switch x := a.(type) {
	case Undefined, Null, bool, string:
		return a == b
	case float64:
		y, ok := b.(float64)
		return ok && sameNum(x, y)
	case *big.Int:
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	}
	if m, ok := q.ab[a]; ok {
		return m == b
	}
	if _, ok := q.ba[b]; ok {
		return false
	}
	q.ab[a], q.ba[b] = b, a
	props := func(p, r []Property) bool {
		if len(p) != len(r) {
			return false
		}
		for i := range p {
			if p[i].Key != r[i].Key || !q.eq(p[i].Value, r[i].Value) {
				return false
			}
		}
		return true
	}
	switch x := a.(type) {
	case *Object:
		y, ok := b.(*Object)
		return ok && props(x.Props, y.Props)
	case *Array:
		y, ok := b.(*Array)
		if !ok || x.Length != y.Length || len(x.Items) != len(y.Items) {
			return false
		}
		for i := range x.Items {
			if x.Items[i].Index != y.Items[i].Index || !q.eq(x.Items[i].Value, y.Items[i].Value) {
				return false
			}
		}
		return props(x.Props, y.Props)
	case *Date:
		y, ok := b.(*Date)
		return ok && sameNum(x.Ms, y.Ms)
	case *RegExp:
		y, ok := b.(*RegExp)
		return ok && *x == *y
	case *Map:
		y, ok := b.(*Map)
		if !ok || len(x.Entries) != len(y.Entries) {
			return false
		}
		for i := range x.Entries {
			if !q.eq(x.Entries[i].Key, y.Entries[i].Key) || !q.eq(x.Entries[i].Value, y.Entries[i].Value) {
				return false
			}
		}
		return true
	case *Set:
		y, ok := b.(*Set)
		if !ok || len(x.Values) != len(y.Values) {
			return false
		}
		for i := range x.Values {
			if !q.eq(x.Values[i], y.Values[i]) {
				return false
			}
		}
		return true
	case *BooleanObject:
		y, ok := b.(*BooleanObject)
		return ok && *x == *y
	case *NumberObject:
		y, ok := b.(*NumberObject)
		return ok && sameNum(x.V, y.V)
	case *BigIntObject:
		y, ok := b.(*BigIntObject)
		return ok && x.V.Cmp(y.V) == 0
	case *StringObject:
		y, ok := b.(*StringObject)
		return ok && *x == *y
	case *ArrayBuffer:
		y, ok := b.(*ArrayBuffer)
		return ok && bytes.Equal(x.Data, y.Data) && x.Resizable == y.Resizable &&
			(!x.Resizable || x.MaxByteLength == y.MaxByteLength)
	case *View:
		y, ok := b.(*View)
		return ok && x.Kind == y.Kind && x.ByteOffset == y.ByteOffset && x.ByteLength == y.ByteLength &&
			x.LengthTracking == y.LengthTracking && q.eq(x.Buffer, y.Buffer)
	case *Error:
		y, ok := b.(*Error)
		if !ok || x.Name != y.Name || x.HasMessage != y.HasMessage || x.HasStack != y.HasStack ||
			x.HasCause != y.HasCause || (x.HasMessage && x.Message != y.Message) || (x.HasStack && x.Stack != y.Stack) {
			return false
		}
		return !x.HasCause || q.eq(x.Cause, y.Cause)
	}
	return false
}
