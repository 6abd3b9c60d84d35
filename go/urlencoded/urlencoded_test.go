package urlencoded

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	formwire "github.com/formwire/formwire/go"
)

func show(ps []Pair, err error) string {
	if err != nil {
		var fe *formwire.Error
		if errors.As(err, &fe) {
			return fmt.Sprintf("ERR %s@%d", fe.Code, fe.Offset)
		}
		return err.Error()
	}
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%q=%q", p.Name, p.Value))
	}
	return strings.Join(parts, " ")
}

// stream parses b fed in chunks cut at cuts.
func stream(b []byte, o *Options, cuts []int) ([]Pair, error) {
	p := NewParser(o)
	var out []Pair
	drain := func() error {
		for {
			pr, ok, err := p.Next()
			if err != nil {
				return err
			}
			if !ok {
				return nil
			}
			out = append(out, pr)
		}
	}
	prev := 0
	for _, c := range append(cuts, len(b)) {
		p.Feed(b[prev:c])
		prev = c
		if err := drain(); err != nil {
			return nil, err
		}
	}
	p.Finish()
	if err := drain(); err != nil {
		return nil, err
	}
	return out, nil
}

func TestParse(t *testing.T) {
	cases := map[string]string{
		"a=1&b=%C3%A9+x&&c&=d&e=%zz":       `"a"="1" "b"="é x" "c"="" ""="d" "e"="%zz"`,
		"a=1;b=2&c=3":                      `"a"="1;b=2" "c"="3"`, // UE-D-01
		"%+41=%2%41&%%41":                  `"% 41"="%2A" "%A"=""`,
		"a+b=c%2Bd":                        `"a b"="c+d"`,
		"x=%C0%AF&y=%E2%82&z=\xef\xbb\xbf": `"x"="` + "\uFFFD\uFFFD" + `" "y"="` + "\uFFFD" + `" "z"="\ufeff"`,
		"":                                 ``,
		"&&&":                              ``,
		"?a=b":                             `"?a"="b"`,
		"a==b":                             `"a"="=b"`,
		"%2541=1":                          `"%41"="1"`,
	}
	for in, want := range cases {
		got := show(Parse([]byte(in), nil))
		if got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
		// Every split gives the same pairs (UE-P-11).
		for i := 0; i <= len(in); i++ {
			cuts := []int{}
			if i > 0 && i < len(in) {
				cuts = []int{i}
			}
			if s := show(stream([]byte(in), nil, cuts)); s != want {
				t.Errorf("%q cut at %d: got %s", in, i, s)
			}
		}
	}
}

// UE-L-01..03: offsets, and the same error whatever the chunking.
func TestLimits(t *testing.T) {
	cases := []struct {
		in         string
		pairs, max int64
		want       string
	}{
		{"a&b&c", 2, 100, "ERR UE_LIMIT_PAIRS@4"},
		{"&&&a&&b", 1, 100, "ERR UE_LIMIT_PAIRS@6"},
		{"abcdef", 100, 4, "ERR UE_LIMIT_BYTES@4"},
		{"a&bcdef", 1, 2, "ERR UE_LIMIT_BYTES@2"}, // tie at 2: bytes wins
		{"a&b&cdef", 1, 3, "ERR UE_LIMIT_PAIRS@2"},
		{"a&b", 2, 3, `"a"="" "b"=""`},
	}
	for _, c := range cases {
		o := Options{MaxPairs: c.pairs, MaxBytes: c.max}
		if got := show(Parse([]byte(c.in), &o)); got != c.want {
			t.Errorf("%q: got %s, want %s", c.in, got, c.want)
		}
		var cuts []int
		for i := 1; i < len(c.in); i++ {
			cuts = append(cuts, i)
		}
		if got := show(stream([]byte(c.in), &o, cuts)); got != c.want {
			t.Errorf("%q byte by byte: got %s, want %s", c.in, got, c.want)
		}
	}
	// Defaults are on: 10,001 pairs fail.
	in := strings.Repeat("a&", 10_001)
	if got := show(Parse([]byte(in), nil)); got != "ERR UE_LIMIT_PAIRS@20000" {
		t.Fatal(got)
	}
}

func TestSerialize(t *testing.T) {
	got := Serialize([]Pair{{"a b", "é&=*~"}, {"", ""}, {"x\n", "\xff"}})
	if want := "a+b=%C3%A9%26%3D*%7E&=&x%0A=%EF%BF%BD"; got != want {
		t.Fatalf("%s, want %s", got, want)
	}
	if Serialize(nil) != "" {
		t.Fatal("empty")
	}
}

// UE-S-07 and UE-P-11 on random input: parse(serialize(p)) == p, and random
// chunkings of random bytes agree with the whole parse.
func TestRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "=", "&", "+", "%", "2", "B", "é", "\xff", " ", "%C3", "%A9", ";"}
	for i := 0; i < 2000; i++ {
		var sb strings.Builder
		for j := r.IntN(20); j > 0; j-- {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		in := []byte(sb.String())
		whole, err := Parse(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		var cuts []int
		for k := 1; k < len(in); k++ {
			if r.IntN(3) == 0 {
				cuts = append(cuts, k)
			}
		}
		if a, b := show(whole, nil), show(stream(in, nil, cuts)); a != b {
			t.Fatalf("%q: whole %s, chunked %s", in, a, b)
		}
		// ParseValues and ParseValuesInPlace hold the same values per name, in order.
		want := map[string][]string{}
		for _, p := range whole {
			want[p.Name] = append(want[p.Name], p.Value)
		}
		cp := append([]byte(nil), in...)
		for mode, got := range []map[string][]string{must(ParseValues(in, nil)), must(ParseValuesInPlace(cp, nil))} {
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%q mode %d: %v, want %v", in, mode, got, want)
			}
		}
		back, _ := Parse([]byte(Serialize(whole)), nil)
		if a, b := show(whole, nil), show(back, nil); a != b {
			t.Fatalf("%q: round trip %s -> %s", in, a, b)
		}
	}
}

func must(m map[string][]string, err error) map[string][]string {
	if err != nil {
		panic(err)
	}
	return m
}
