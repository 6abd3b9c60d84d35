package multipart

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// MP-P-05, MP-P-07: with AllowJunkAfterClose the epilogue starts right after
// `--B--`, so End comes as soon as the second dash is read (no byte after it
// is needed), whatever follows is ignored, and the delimiter itself is
// unchanged.
func TestJunkAfterClose(t *testing.T) {
	o := DefaultOptions()
	o.AllowJunkAfterClose = true
	cases := []struct{ body, want string }{
		{"--b--", "END\n"},
		{"--b--junk\r\n--b\r\n", "END\n"},
		{"--b--\r", "END\n"},
		{"--b--\r\r\n\x00", "END\n"},
		{"--b-x", "ERR MP_DELIMITER@4"},
		{"--b-", "ERR MP_TRUNCATED@4"},
		{"--b\r\n" + field("a", "1") + "\r\n--b--\n--b\r\n" + field("c", "2") + "\r\n--b--",
			"[\"a\" file=false \"\" ct=\"\" type=\"text/plain\"] 1 6b86b273ff34\nEND\n"},
	}
	for _, c := range cases {
		if got := checkAllSplits(t, ct, &o, []byte(c.body)); got != c.want {
			t.Errorf("%q: got %q, want %q", c.body, got, c.want)
		}
	}

	// End is an event of the chunk that holds the second dash.
	p, _ := NewParser(ct, &o)
	p.Feed([]byte("--b--"))
	if ev, err := p.Next(); err != nil || ev.Kind != End || !p.Done() || p.Offset() != 5 {
		t.Fatalf("%v %v done=%v offset=%d", ev, err, p.Done(), p.Offset())
	}
	p.Feed([]byte("\rjunk"))
	if ev, err := p.Next(); err != nil || ev.Kind != None || p.Offset() != 10 {
		t.Fatalf("%v %v offset=%d", ev, err, p.Offset())
	}
	p.Finish()
	if ev, err := p.Next(); err != nil || ev.Kind != None {
		t.Fatalf("%v %v", ev, err)
	}

	// The Reader reads the junk to the end (MaxTotalBytes counts it) and
	// then gives io.EOF; without the option it gives the part, then the error.
	b := []byte("--b\r\n" + field("a", "1") + "\r\n--b--" + strings.Repeat("j", 9000))
	for _, lenient := range []bool{true, false} {
		o := DefaultOptions()
		o.AllowJunkAfterClose = lenient
		src := bytes.NewReader(b)
		r, _ := NewReaderBuffer(src, ct, &o, make([]byte, 4096))
		var names []string
		var last error
		for part, err := range r.Parts() {
			if err != nil {
				last = err
				break
			}
			names = append(names, part.Name)
		}
		want := "ERR MP_DELIMITER@57"
		if lenient {
			want = "ERR <nil>"
			if src.Len() != 0 {
				t.Errorf("%d bytes of the epilogue not read", src.Len())
			}
		}
		if got := "ERR " + errOrNil(last); strings.Join(names, ",") != "a" || got != want {
			t.Errorf("lenient %v: parts %v, %s; want %s", lenient, names, got, want)
		}
		o.MaxTotalBytes = int64(len(b) - 1)
		r, _ = NewReaderBuffer(bytes.NewReader(b), ct, &o, make([]byte, 4096))
		last = nil
		for _, err := range r.Parts() {
			last = err
		}
		if lenient {
			want = fmt.Sprintf("ERR MP_LIMIT_TOTAL_BYTES@%d", o.MaxTotalBytes)
		}
		if got := errString(last); got != want {
			t.Errorf("lenient %v, max_total_bytes %d: %s, want %s", lenient, o.MaxTotalBytes, got, want)
		}
	}
}

func errOrNil(err error) string {
	if err == nil {
		return "<nil>"
	}
	return strings.TrimPrefix(errString(err), "ERR ")
}
