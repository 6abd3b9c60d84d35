package v8

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/formwire/formwire/go/internal/ecma"
)

// Property: for random value graphs (shared objects, cycles, every kind, adversarial keys and strings),
// Decode(Encode(v)) is v, and encoding is stable: Encode(Decode(Encode(v))) is the same bytes.

var adversarialKeys = []string{
	"", "\x00", "a\x00b", "__proto__", "constructor", "length", "0", "1", "01", "00", "-0", "-1", "1.5", "1e3",
	"4294967294", "4294967295", "4294967296", "2147483647", "2147483648", "9007199254740993",
	"\xed\xa0\x80", "a\xed\xbf\xbfb", "\xed\xb0\x80\xed\xa0\x80", "😀", "é", "\u20ac", "\uffff", " 1", "1 ",
	strings.Repeat("k", 1000), strings.Repeat("€", 300),
}

type gen struct {
	r     *rand.Rand
	pool  []Value // objects made so far, for shared references and cycles
	depth int
}

func (g *gen) str() string {
	switch g.r.IntN(6) {
	case 0:
		return adversarialKeys[g.r.IntN(len(adversarialKeys))]
	case 1:
		u := make([]uint16, g.r.IntN(8))
		for i := range u {
			u[i] = uint16(g.r.Uint32())
		}
		return FromUnits(u) // lone surrogates, pairs, anything
	case 2:
		b := make([]byte, g.r.IntN(10))
		for i := range b {
			b[i] = byte(g.r.IntN(256))
		}
		return latin1String(b)
	default:
		return string(rune('a' + g.r.IntN(26)))
	}
}

func (g *gen) num() float64 {
	switch g.r.IntN(8) {
	case 0:
		return math.NaN()
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.Inf(1 - 2*g.r.IntN(2))
	case 3:
		return float64(int32(g.r.Uint32()))
	case 4:
		return float64(g.r.Int64N(1<<53)) * float64(1-2*g.r.IntN(2))
	case 5:
		return math.Float64frombits(g.r.Uint64())
	default:
		return float64(g.r.IntN(300)) - 100
	}
}

func (g *gen) bigint() *big.Int {
	b := make([]byte, g.r.IntN(20))
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	x := new(big.Int).SetBytes(b)
	if g.r.IntN(2) == 0 {
		x.Neg(x)
	}
	return x
}

func (g *gen) props(n int) []Property {
	var ps []Property
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		k := g.str()
		if seen[k] {
			continue
		}
		seen[k] = true
		ps = append(ps, Property{k, g.value()})
	}
	return ps
}

func (g *gen) keep(v Value) Value {
	g.pool = append(g.pool, v)
	return v
}

func (g *gen) buffer() *ArrayBuffer {
	data := make([]byte, 8*g.r.IntN(4))
	for i := range data {
		data[i] = byte(g.r.IntN(256))
	}
	ab := &ArrayBuffer{Data: data, MaxByteLength: len(data)}
	if g.r.IntN(3) == 0 {
		ab.Resizable, ab.MaxByteLength = true, len(data)+8*g.r.IntN(3)
	}
	return ab
}

func (g *gen) value() Value {
	if len(g.pool) > 0 && g.r.IntN(8) == 0 {
		return g.pool[g.r.IntN(len(g.pool))] // shared reference, or a cycle when it is an ancestor
	}
	leaf := g.depth > 6 || g.r.IntN(3) == 0
	if leaf {
		switch g.r.IntN(7) {
		case 0:
			return Undefined{}
		case 1:
			return Null{}
		case 2:
			return g.r.IntN(2) == 0
		case 3:
			return g.num()
		case 4:
			return g.bigint()
		default:
			return g.str()
		}
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.IntN(14) {
	case 0, 1:
		o := g.keep(&Object{}).(*Object)
		o.Props = g.props(g.r.IntN(6))
		sortIndexKeys(o)
		return o
	case 2, 3:
		a := g.keep(&Array{}).(*Array)
		n := uint32(g.r.IntN(6))
		if g.r.IntN(6) == 0 {
			n = uint32(g.r.Int64N(1 << 32))
		}
		a.Length = n
		dense := g.r.IntN(2) == 0 && n < 10
		for i := uint32(0); i < n && i < 10; i++ {
			if dense || g.r.IntN(2) == 0 {
				a.Items = append(a.Items, Item{i, g.value()})
			}
		}
		if n > 10 && g.r.IntN(2) == 0 {
			a.Items = append(a.Items, Item{n - 1, g.value()})
		}
		for _, p := range g.props(g.r.IntN(3)) {
			if _, idx := arrayIndex(p.Key); !idx && p.Key != "length" {
				a.Props = append(a.Props, p)
			}
		}
		return a
	case 4:
		m := g.keep(&Map{}).(*Map)
		seen := map[memberKey]bool{}
		for i := g.r.IntN(5); i > 0; i-- {
			k := zeroKey(g.value())
			if seen[keyOf(k)] {
				continue
			}
			seen[keyOf(k)] = true
			m.Entries = append(m.Entries, MapEntry{k, g.value()})
		}
		return m
	case 5:
		s := g.keep(&Set{}).(*Set)
		seen := map[memberKey]bool{}
		for i := g.r.IntN(5); i > 0; i-- {
			v := zeroKey(g.value())
			if !seen[keyOf(v)] {
				seen[keyOf(v)] = true
				s.Values = append(s.Values, v)
			}
		}
		return s
	case 6:
		names := []string{"Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"}
		e := g.keep(&Error{Name: names[g.r.IntN(len(names))]}).(*Error)
		if g.r.IntN(2) == 0 {
			e.Message, e.HasMessage = g.str(), true
		}
		if g.r.IntN(2) == 0 {
			e.Stack, e.HasStack = g.str(), true
		}
		if g.r.IntN(2) == 0 {
			e.Cause, e.HasCause = g.value(), true
		}
		return e
	case 7:
		return g.keep(&Date{Ms: ecma.TimeClip(g.num() * float64(g.r.IntN(2)))})
	case 8:
		flags := ""
		for _, f := range "dgimsuy" {
			if g.r.IntN(3) == 0 {
				flags += string(f)
			}
		}
		return g.keep(&RegExp{Source: g.str(), Flags: flags})
	case 9:
		switch g.r.IntN(4) {
		case 0:
			return g.keep(&BooleanObject{g.r.IntN(2) == 0})
		case 1:
			return g.keep(&NumberObject{g.num()})
		case 2:
			return g.keep(&BigIntObject{g.bigint()})
		default:
			return g.keep(&StringObject{g.str()})
		}
	case 10, 11:
		var buf *ArrayBuffer
		for _, p := range g.pool {
			if b, ok := p.(*ArrayBuffer); ok && g.r.IntN(2) == 0 {
				buf = b // views sharing a buffer
			}
		}
		if buf == nil {
			buf = g.keep(g.buffer()).(*ArrayBuffer)
		}
		kind := ViewKind(g.r.IntN(int(numViewKinds)))
		es := kind.ElementSize()
		off := g.r.IntN(len(buf.Data)/es+1) * es
		v := &View{Kind: kind, Buffer: buf, ByteOffset: off}
		if buf.Resizable && g.r.IntN(2) == 0 {
			v.LengthTracking = true
			v.ByteLength = (len(buf.Data) - off) / es * es
		} else {
			v.ByteLength = g.r.IntN((len(buf.Data)-off)/es+1) * es
		}
		return g.keep(v)
	default:
		return g.keep(g.buffer())
	}
}

func TestRoundTripRandom(t *testing.T) {
	for seed := uint64(0); seed < 3000; seed++ {
		g := &gen{r: rand.New(rand.NewPCG(seed, 7))}
		v := g.value()
		b, err := Encode(v, nil)
		if err != nil {
			t.Fatalf("seed %d: encode: %v", seed, err)
		}
		back, err := Decode(b, nil)
		if err != nil {
			t.Fatalf("seed %d: decode %x: %v", seed, b, err)
		}
		if !Equal(v, back) {
			t.Fatalf("seed %d: %x decodes to another value", seed, b)
		}
		again, err := Encode(back, nil)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("seed %d: encoding not stable: %x then %x (%v)", seed, b, again, err)
		}
	}
}

// Every adversarial key as an object key and as an array property keeps its exact code units and the JS order.
func TestAdversarialKeys(t *testing.T) {
	o := &Object{}
	for i := len(adversarialKeys) - 1; i >= 0; i-- {
		o.Props = append(o.Props, Property{adversarialKeys[i], float64(i)})
	}
	b, err := Encode(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Decode(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := v.(*Object).Props
	if len(got) != len(adversarialKeys) {
		t.Fatalf("%d keys back of %d", len(got), len(adversarialKeys))
	}
	// index keys first, ascending: 0 1 2147483647 2147483648 4294967294; then the rest in insertion order
	want := []string{"0", "1", "2147483647", "2147483648", "4294967294"}
	for i, k := range want {
		if got[i].Key != k {
			t.Fatalf("key %d is %q, want %q", i, got[i].Key, k)
		}
	}
	if got[len(want)].Key != strings.Repeat("€", 300) || got[len(got)-1].Key != "" {
		t.Fatalf("non-index keys not in insertion order: %q ... %q", got[len(want)].Key, got[len(got)-1].Key)
	}
	for _, p := range got {
		if adversarialKeys[int(p.Value.(float64))] != p.Key {
			t.Fatalf("key %q came back with the value of %q", p.Key, adversarialKeys[int(p.Value.(float64))])
		}
	}
}

// A string that is not WTF-8 is outside the model: SC_DATA_CLONE, and nothing is appended.
func TestEncodeRejects(t *testing.T) {
	prefix := []byte("keep")
	cases := []Value{
		"\xff", &Object{Props: []Property{{"a", 1.0}, {"a", 2.0}}}, (*Object)(nil), struct{}{},
		&Array{Length: 2, Items: []Item{{1, 1.0}, {0, 1.0}}}, &Array{Length: 1, Items: []Item{{1, 1.0}}},
		&Array{Props: []Property{{"length", 1.0}}}, &Array{Props: []Property{{"3", 1.0}}},
		&Map{Entries: []MapEntry{{math.NaN(), 1.0}, {math.NaN(), 2.0}}},
		&Set{Values: []Value{0.0, math.Copysign(0, -1)}},
		&RegExp{Flags: "uv"}, &RegExp{Flags: "gg"}, &RegExp{Flags: "l"},
		&View{Kind: Uint16Array, Buffer: &ArrayBuffer{Data: make([]byte, 4)}, ByteOffset: 1},
		&View{Kind: Uint8Array, Buffer: &ArrayBuffer{Data: make([]byte, 4)}, ByteOffset: 2, ByteLength: 3},
		&View{Kind: Uint8Array, Buffer: &ArrayBuffer{Data: make([]byte, 4)}, LengthTracking: true},
		&ArrayBuffer{Data: make([]byte, 4), Resizable: true, MaxByteLength: 3},
	}
	for i, c := range cases {
		out, err := AppendEncode(prefix, c, nil)
		wantErr(t, err, "SC_DATA_CLONE", -1)
		if string(out) != "keep" {
			t.Fatalf("case %d: output %q after an error", i, out)
		}
	}
}
