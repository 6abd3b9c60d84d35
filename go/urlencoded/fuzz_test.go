package urlencoded

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: nothing panics; the streaming parser at two cuts and the
// whole-input parser agree (UE-P-11); serialize then parse gives the pairs
// back (UE-S-07). Seeded from the shared urlencoded vectors.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../vectors/urlencoded/*/*.txt")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint16(len(b)/2), uint16(len(b)-1), uint8(0))
		}
	}
	f.Add([]byte("a=1&&b=%zz+%C3%A9"), uint16(3), uint16(9), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, c1, c2 uint16, lim uint8) {
		var o *Options
		if lim != 0 {
			o = &Options{MaxPairs: int64(lim % 8), MaxBytes: int64(lim)}
		}
		ps, err := Parse(b, o)
		want := show(ps, err)
		var cuts []int
		if len(b) > 1 {
			x, y := int(c1)%len(b), int(c2)%len(b)
			if x > y {
				x, y = y, x
			}
			for _, c := range []int{x, y} {
				if c > 0 && (len(cuts) == 0 || c > cuts[len(cuts)-1]) {
					cuts = append(cuts, c)
				}
			}
		}
		if got := show(stream(b, o, cuts)); got != want {
			t.Fatalf("cuts %v: %s, whole %s", cuts, got, want)
		}
		if err == nil {
			back, _ := Parse([]byte(Serialize(ps)), &Options{MaxPairs: -1, MaxBytes: -1})
			if show(back, nil) != want {
				t.Fatalf("round trip %s -> %s", want, show(back, nil))
			}
		}
	})
}
