package multipart

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	formwire "github.com/formwire/formwire/go"
)

// vectorSeeds returns the shared multipart vectors' inputs with the boundary
// of their Content-Type and their lenient flags as fuzzOptions bits (the
// corpus of FuzzParser).
func vectorSeeds(t testing.TB) (bodies [][]byte, cts []string, flags []uint16) {
	files, _ := filepath.Glob("../../vectors/multipart/*/*.json")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var v struct {
			Kind        string `json:"kind"`
			ContentType string `json:"content_type"`
			Input       struct {
				File string `json:"file"`
			} `json:"input"`
			Options map[string]any `json:"options"`
		}
		if json.Unmarshal(raw, &v) != nil || v.Kind != "multipart-parse" || v.Input.File == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(f), v.Input.File))
		if err != nil {
			continue
		}
		var f uint16
		for i, name := range flagNames {
			if on, _ := v.Options[name].(bool); on {
				f |= 1 << i
			}
		}
		bodies = append(bodies, b)
		cts = append(cts, v.ContentType)
		flags = append(flags, f)
	}
	if len(bodies) < 100 {
		t.Fatalf("only %d vector inputs found under ../../vectors/multipart", len(bodies))
	}
	return bodies, cts, flags
}

// flagNames are the lenient flags in the order of fuzzOptions' bits (bit 4
// is the small limits).
var flagNames = [...]string{"allow_preamble", "allow_lf", "allow_obs_fold", "allow_quoted_pairs", "",
	"allow_missing_disposition", "allow_any_disposition_type", "allow_junk_after_close", "allow_utf8_header_names",
	"allow_cr", "allow_near_delimiters", "allow_8bit_parameter_names", "allow_rfc2231_continuations"}

// newFlags are the bits of the options that only turn errors into parts
// (MP-R-02): a body accepted without them reads the same with them.
// allow_cr and allow_rfc2231_continuations change how valid bodies read, so
// they are not among them.
const newFlags = 1<<5 | 1<<6 | 1<<7 | 1<<8 | 1<<10 | 1<<11

// fuzzOptions turns bits into lenient flags and small limits, so the
// fuzzer reaches every option and limit path.
func fuzzOptions(flags uint16) *Options {
	o := DefaultOptions()
	for i, name := range flagNames {
		if name != "" && flags&(1<<i) != 0 {
			o.SetFlag(name, true)
		}
	}
	if flags&16 != 0 {
		o.MaxParts, o.MaxHeaders, o.MaxHeaderBytes = 3, 2, 64
		o.MaxFieldBytes, o.MaxTotalFieldBytes, o.MaxFileBytes, o.MaxTotalBytes = 7, 10, 20, 300
	}
	return &o
}

// FuzzParser: nothing panics, and the result (parts or error code and
// offset, and every part's headers) is the same whole, at two fuzzer-chosen
// cuts and (for short inputs) byte by byte (MP-P-08). A body that parses
// without allow_missing_disposition, allow_any_disposition_type,
// allow_junk_after_close, allow_utf8_header_names, allow_near_delimiters and
// allow_8bit_parameter_names parses the same with them.
func FuzzParser(f *testing.F) {
	bodies, cts, flags := vectorSeeds(f)
	for i, b := range bodies {
		f.Add(b, cts[i], uint16(len(b)/3), uint16(len(b)/2), flags[i]|uint16(i)&16)
	}
	f.Fuzz(func(t *testing.T, b []byte, ctype string, c1, c2 uint16, flags uint16) {
		o := fuzzOptions(flags)
		result := func(o *Options, chunks [][]byte) string {
			return summary(t, ctype, o, chunks) + "\n" + headerList(t, ctype, o, chunks)
		}
		want := result(o, whole(b))
		if flags&newFlags != 0 {
			base := result(fuzzOptions(flags&^newFlags), whole(b))
			if !strings.Contains(base, "ERR") && base != want {
				t.Fatalf("flags %#x:\n%s\nwithout the new flags:\n%s", flags, want, base)
			}
		}
		if len(b) > 1 {
			x, y := int(c1)%len(b), int(c2)%len(b)
			if x > y {
				x, y = y, x
			}
			var cuts []int
			for _, c := range []int{x, y} {
				if c > 0 && (len(cuts) == 0 || c > cuts[len(cuts)-1]) {
					cuts = append(cuts, c)
				}
			}
			if got := result(o, split(b, cuts...)); got != want {
				t.Fatalf("cuts %v:\n%s\nwhole:\n%s", cuts, got, want)
			}
		}
		if len(b) <= 512 {
			if got := result(o, bytewise(b)); got != want {
				t.Fatalf("byte by byte:\n%s\nwhole:\n%s", got, want)
			}
		}
	})
}

// FuzzEncoderRoundTrip: what the encoder writes parses back to the same
// entries, as WHATWG escaping leaves them (MP-S-01..04).
func FuzzEncoderRoundTrip(f *testing.F) {
	f.Add("a", "v", "f.txt", []byte("body"), "text/plain")
	f.Add("a\nb\"", "x\r\ny\rz", "", []byte("\r\n--x"), "")
	f.Fuzz(func(t *testing.T, name, value, filename string, data []byte, ctype string) {
		e := NewEncoder()
		e.AddField(name, value)
		if err := e.AddFileBytes("f", filename, ctype, data); err != nil {
			if !strings.ContainsAny(ctype, "\r\n\x00") {
				t.Fatal(err)
			}
			return
		}
		out, err := e.Bytes()
		if n, _ := e.ContentLength(); err != nil || n != int64(len(out)) {
			t.Fatalf("%v: length %d, wrote %d", err, n, len(out))
		}
		// Well-formedness, not limits: a name of 3,000 invalid bytes becomes
		// 9,000 bytes of U+FFFD, over the default max_header_bytes.
		o := DefaultOptions()
		o.MaxHeaderBytes, o.MaxFieldBytes, o.MaxTotalFieldBytes = formwire.Unlimited, formwire.Unlimited, formwire.Unlimited
		got := summary(t, e.ContentType(), &o, whole(out))
		if strings.Contains(got, "ERR") && !strings.ContainsRune(name+filename, 0) {
			t.Fatalf("encoder output does not parse: %s", got)
		}
	})
}
