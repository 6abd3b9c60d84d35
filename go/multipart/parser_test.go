package multipart

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	formwire "github.com/formwire/formwire/go"
)

// summary parses body fed in the given chunks and describes the result: every
// part's name, filename and body hash, or the error code and offset.
func summary(t testing.TB, ct string, o *Options, chunks [][]byte) string {
	t.Helper()
	p, err := NewParser(ct, o)
	if err != nil {
		return errString(err)
	}
	var sb strings.Builder
	h := sha256.New()
	var n int64
	drain := func() error {
		for {
			ev, err := p.Next()
			if err != nil {
				return err
			}
			switch ev.Kind {
			case None:
				return nil
			case PartStart:
				hd := p.Head()
				name := fmt.Sprintf("%q", hd.Name())
				if hd.Nameless() {
					name = "nameless"
				}
				fmt.Fprintf(&sb, "[%s file=%v %q ct=%q type=%q]", name, hd.IsFile(), hd.Filename(), hd.contentTypeString(), hd.Type())
				h.Reset()
				n = 0
			case Data:
				h.Write(ev.Data)
				n += int64(len(ev.Data))
			case PartEnd:
				fmt.Fprintf(&sb, " %d %x\n", n, h.Sum(nil)[:6])
			case End:
				sb.WriteString("END\n")
			}
		}
	}
	return feedAll(p, chunks, &sb, drain)
}

// feedAll feeds the chunks, draining the events after each and after Finish,
// and returns what was written to sb, with the error that stopped it.
func feedAll(p *Parser, chunks [][]byte, sb *strings.Builder, drain func() error) string {
	for _, c := range chunks {
		p.Feed(c)
		if err := drain(); err != nil {
			return sb.String() + errString(err)
		}
	}
	p.Finish()
	if err := drain(); err != nil {
		return sb.String() + errString(err)
	}
	return sb.String()
}

func (h *Head) contentTypeString() string {
	b, _ := h.ContentType()
	return string(b)
}

func errString(err error) string {
	var fe *formwire.Error
	if errors.As(err, &fe) {
		return fmt.Sprintf("ERR %s@%d", fe.Code, fe.Offset)
	}
	return "ERR " + err.Error()
}

func whole(b []byte) [][]byte { return [][]byte{b} }

func split(b []byte, cuts ...int) [][]byte {
	var out [][]byte
	prev := 0
	for _, c := range cuts {
		out = append(out, b[prev:c])
		prev = c
	}
	return append(out, b[prev:])
}

func bytewise(b []byte) [][]byte {
	out := make([][]byte, len(b))
	for i := range b {
		out[i] = b[i : i+1]
	}
	return out
}

const ct = "multipart/form-data; boundary=b"

func body(parts ...string) []byte {
	var s strings.Builder
	for _, p := range parts {
		s.WriteString("--b\r\n")
		s.WriteString(p)
		s.WriteString("\r\n")
	}
	s.WriteString("--b--\r\n")
	return []byte(s.String())
}

func field(name, value string) string {
	return "Content-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value
}

// checkAllSplits asserts that whole, byte-by-byte and every single cut agree
// (MP-P-08) and returns the result.
func checkAllSplits(t *testing.T, ctype string, o *Options, b []byte) string {
	t.Helper()
	want := summary(t, ctype, o, whole(b))
	if got := summary(t, ctype, o, bytewise(b)); got != want {
		t.Fatalf("byte by byte:\n%s\nwhole:\n%s", got, want)
	}
	for i := 1; i < len(b); i++ {
		if got := summary(t, ctype, o, split(b, i)); got != want {
			t.Fatalf("cut at %d:\n%s\nwhole:\n%s", i, got, want)
		}
	}
	return want
}

func TestBasicFormEverySplit(t *testing.T) {
	b := body(field("a", "1"), "Content-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\nContent-Type: TEXT/Plain\r\n\r\nline\r\n--bX\r\n-", field("c", ""))
	got := checkAllSplits(t, ct, nil, b)
	want := "[\"a\" file=false \"\" ct=\"\" type=\"text/plain\"] 1 6b86b273ff34\n" +
		"[\"f\" file=true \"x.txt\" ct=\"TEXT/Plain\" type=\"text/plain\"] 13 "
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "END\n") || strings.Count(got, "\n") != 4 {
		t.Fatalf("got\n%s", got)
	}
}

func TestErrorsAndOffsets(t *testing.T) {
	cases := []struct {
		name string
		body string
		o    func(*Options)
		want string
	}{
		{"preamble", "x--b\r\n", nil, "ERR MP_PREAMBLE@0"},
		{"junk after close", "--b--junk", nil, "ERR MP_DELIMITER@5"},
		{"truncated", "--b\r\n" + field("a", "1"), nil, "ERR MP_TRUNCATED@50"},
		{"obs-fold", "--b\r\nContent-Disposition: form-data; name=a\r\n x: y\r\n\r\n\r\n--b--", nil, "ERR MP_OBS_FOLD@45"},
		{"no disposition", "--b\r\nX: y\r\n\r\nv\r\n--b--", nil, "ERR MP_NO_DISPOSITION@11"},
		{"bare LF in value", "--b\r\nContent-Disposition: form-data; name=a\nx\r\n\r\n\r\n--b--", nil, "ERR MP_HEADER_VALUE@43"},
		{"max_parts 0", "--b\r\n" + field("a", "1") + "\r\n--b--", func(o *Options) { o.MaxParts = 0 }, "ERR MP_LIMIT_PARTS@5"},
		{"max_parts 0 empty form", "--b--", func(o *Options) { o.MaxParts = 0 }, "END\n"},
		{"field bytes", "--b\r\n" + field("a", "12345") + "\r\n--b--", func(o *Options) { o.MaxFieldBytes = 4 }, "ERR MP_LIMIT_FIELD_BYTES@53"},
		{"field bytes exact", "--b\r\n" + field("a", "1234") + "\r\n--b--", func(o *Options) { o.MaxFieldBytes = 4 }, "[\"a\" file=false \"\" ct=\"\" type=\"text/plain\"] 4 03ac674216f3\nEND\n"},
		{"total bytes", "--b\r\n" + field("a", "12345") + "\r\n--b--", func(o *Options) { o.MaxTotalBytes = 10 }, "ERR MP_LIMIT_TOTAL_BYTES@10"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := DefaultOptions()
			if c.o != nil {
				c.o(&o)
			}
			got := checkAllSplits(t, ct, &o, []byte(c.body))
			if !strings.HasSuffix(got, c.want) || (!strings.HasPrefix(c.want, "ERR") && got != c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// MP-L-04: the fields of one body together; a sum of exactly the limit
// passes; at the same byte the per-part limit wins.
func TestTotalFieldBytes(t *testing.T) {
	o := DefaultOptions()
	o.MaxTotalFieldBytes = 6
	b := body(field("a", "123"), field("b", "456"))
	if got := checkAllSplits(t, ct, &o, b); strings.Contains(got, "ERR") {
		t.Fatalf("exact sum failed: %s", got)
	}
	b = body(field("a", "123"), field("b", "4567"))
	// The second body starts after the first part (5+45+3+2) and its own
	// delimiter and headers: the 4th byte of "4567" is over.
	second := bytes.Index(b, []byte("4567"))
	want := fmt.Sprintf("ERR MP_LIMIT_TOTAL_FIELD_BYTES@%d", second+3)
	if got := checkAllSplits(t, ct, &o, b); !strings.HasSuffix(got, want) {
		t.Fatalf("got %s, want %s", got, want)
	}
	// A file does not count.
	b = body(field("a", "123"), "Content-Disposition: form-data; name=f; filename=x\r\n\r\n0123456789", field("b", "456"))
	if got := checkAllSplits(t, ct, &o, b); strings.Contains(got, "ERR") {
		t.Fatalf("file counted: %s", got)
	}
	// Tie: the part's own limit and the total fire at the same byte.
	o.MaxFieldBytes = 3
	b = body(field("a", "123"), field("b", "4567"))
	want = fmt.Sprintf("ERR MP_LIMIT_FIELD_BYTES@%d", second+3)
	if got := checkAllSplits(t, ct, &o, b); !strings.HasSuffix(got, want) {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// MP-H-07: the literal reading first, the quoted-pair reading when it fails;
// AllowQuotedPairs reverses the order.
func TestQuotedPairs(t *testing.T) {
	cd := func(v string) string {
		return "Content-Disposition: form-data; " + v + "\r\n\r\nx"
	}
	cases := []struct {
		value string
		qp    bool
		want  string
	}{
		{`name="f"; filename="a\"b.txt"`, false, `"a\"b.txt"`},
		{`name="f"; filename="a\"`, false, `"a\\"`},
		{`name="f"; filename="a\\b"`, false, `"a\\\\b"`},
		{`name="f"; filename="a\\b"`, true, `"a\\b"`},
		{`name="f"; filename="a\"`, true, `"a\\"`},
		{`name="a\"; filename="b\"c"`, false, "ERR MP_DISPOSITION@5"},
	}
	for _, c := range cases {
		o := DefaultOptions()
		o.AllowQuotedPairs = c.qp
		got := checkAllSplits(t, ct, &o, body(cd(c.value)))
		if !strings.Contains(got, c.want) {
			t.Errorf("%s (quoted pairs first: %v): got %s, want %s", c.value, c.qp, got, c.want)
		}
	}
}

func TestBoundaryLengths(t *testing.T) {
	for _, n := range []int{70, 252, 256, 257, 4096} {
		bnd := strings.Repeat("x", n)
		b := []byte("--" + bnd + "\r\n" + field("a", "v") + "\r\n--" + bnd + "--\r\n")
		got := summary(t, "multipart/form-data; boundary="+bnd, nil, whole(b))
		if n > 256 {
			if got != "ERR MP_LIMIT_BOUNDARY@0" {
				t.Errorf("%d: %s", n, got)
			}
			o := DefaultOptions()
			o.MaxBoundaryBytes = formwire.Unlimited
			got = summary(t, "multipart/form-data; boundary="+bnd, &o, split(b, 1, n/2, n+3, len(b)-n/2))
		}
		if !strings.HasSuffix(got, "END\n") {
			t.Errorf("%d: %s", n, got)
		}
	}
}

// Research §3 (CVE-2023-24536 and others): 100k tiny parts parse in linear
// time with the part and field limits off, and fail at part 1001 by default
// (max_parts; max_fields when only max_parts is off, MP-L-05).
func TestManyTinyParts(t *testing.T) {
	var s bytes.Buffer
	for i := 0; i < 100_000; i++ {
		s.WriteString("--b\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n")
	}
	s.WriteString("--b--")
	o := DefaultOptions()
	o.MaxParts = formwire.Unlimited
	o.MaxTotalFieldBytes = formwire.Unlimited
	got := summary(t, ct, &o, split(s.Bytes(), 7, 4096, 65536))
	if want := fmt.Sprintf("ERR MP_LIMIT_FIELDS@%d", 1000*49+5); !strings.HasSuffix(got, want) {
		t.Fatalf("got %s, want %s", got[len(got)-40:], want)
	}
	o.MaxFields = formwire.Unlimited
	got = summary(t, ct, &o, split(s.Bytes(), 7, 4096, 65536))
	if n := strings.Count(got, "\n"); n != 100_001 {
		t.Fatalf("%d lines", n)
	}
	got = summary(t, ct, nil, whole(s.Bytes()))
	if want := fmt.Sprintf("ERR MP_LIMIT_PARTS@%d", 1000*49+5); !strings.HasSuffix(got, want) {
		t.Fatalf("got %s, want %s", got[len(got)-40:], want)
	}
}

// 10k header lines in one part: MP_LIMIT_HEADERS at line 9.
func TestManyHeaders(t *testing.T) {
	var s bytes.Buffer
	s.WriteString("--b\r\n")
	for i := 0; i < 10_000; i++ {
		s.WriteString("X: y\r\n")
	}
	got := summary(t, ct, nil, whole(s.Bytes()))
	if want := fmt.Sprintf("ERR MP_LIMIT_HEADERS@%d", 5+8*6); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// A 10 MiB header line: MP_LIMIT_HEADER_BYTES at block start + 8192, and the
// parser's header buffer stays within the limit.
func TestHugeHeaderLine(t *testing.T) {
	line := append([]byte("--b\r\nX: "), bytes.Repeat([]byte("a"), 10<<20)...)
	p, _ := NewParser(ct, nil)
	for off := 0; off < len(line); off += 64 << 10 {
		c := line[off:min(len(line), off+64<<10)]
		p.Feed(c)
		for {
			ev, err := p.Next()
			if err != nil {
				if got := errString(err); got != "ERR MP_LIMIT_HEADER_BYTES@8197" {
					t.Fatal(got)
				}
				if cap(p.hbuf) > 2*8192+64 {
					t.Fatalf("header buffer grew to %d", cap(p.hbuf))
				}
				return
			}
			if ev.Kind == None {
				break
			}
		}
	}
	t.Fatal("no error")
}

// endless streams n bytes of a part body without a delimiter, after head.
type endless struct {
	head []byte
	n    int64
	read int64
}

func (e *endless) Read(p []byte) (int, error) {
	if len(e.head) > 0 {
		n := copy(p, e.head)
		e.head = e.head[n:]
		e.read += int64(n)
		return n, nil
	}
	if e.n == 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), e.n)
	for i := range p[:k] {
		p[i] = 'a'
	}
	e.n -= k
	e.read += k
	return int(k), nil
}

// A 100 MiB part without a filename stops at 1 MiB + 64 KiB read, with
// MP_LIMIT_FIELD_BYTES at body start + 1 MiB.
func TestHugeField(t *testing.T) {
	head := "--b\r\nContent-Disposition: form-data; name=a\r\n\r\n"
	src := &endless{head: []byte(head), n: 100 << 20}
	r, err := NewReader(src, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	part, err := r.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, part)
	want := fmt.Sprintf("ERR MP_LIMIT_FIELD_BYTES@%d", len(head)+1<<20)
	if errString(err) != want || n != 1<<20 {
		t.Fatalf("%d bytes, %v; want %s", n, err, want)
	}
	if src.read > 1<<20+2*DefaultBufferSize {
		t.Fatalf("read %d bytes of the source", src.read)
	}
}

func TestReaderParts(t *testing.T) {
	b := body(field("a", "1"), "Content-Disposition: form-data; name=f; filename=\"x.bin\"\r\n\r\n"+strings.Repeat("z", 200_000), field("c", "3"))
	r, err := NewReaderBuffer(iotestHalf(bytes.NewReader(b)), ct, nil, make([]byte, 4096))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for part, err := range r.Parts() {
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		if part.Name == "a" {
			// Read (not WriteTo) in small steps.
			buf := make([]byte, 1)
			for {
				n, err := part.Read(buf)
				sb.Write(buf[:n])
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		} else if part.Name == "c" {
			// Skipped: NextPart discards it.
			continue
		} else if _, err := io.Copy(&sb, part); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s:%v:%d", part.Name, part.IsFile, sb.Len()))
	}
	if strings.Join(got, ",") != "a:false:1,f:true:200000" {
		t.Fatal(got)
	}
	if _, err := r.NextPart(); err != io.EOF {
		t.Fatal(err)
	}
	// A truncated body is an error, not io.EOF.
	r, _ = NewReader(bytes.NewReader(b[:len(b)-3]), ct, nil)
	var last error
	for _, err := range r.Parts() {
		last = err
	}
	if errString(last) != fmt.Sprintf("ERR MP_TRUNCATED@%d", len(b)-3) {
		t.Fatal(last)
	}
}

type halfReader struct{ r io.Reader }

func (h halfReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:(len(p)+1)/2]
	}
	return h.r.Read(p)
}

func iotestHalf(r io.Reader) io.Reader { return halfReader{r} }

type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

// A source that never makes progress is io.ErrNoProgress, not a busy loop.
func TestReaderNoProgress(t *testing.T) {
	r, _ := NewReader(stuck{}, ct, nil)
	if _, err := r.NextPart(); err != io.ErrNoProgress {
		t.Fatal(err)
	}
}

// The browser shortcut of the Content-Disposition reading gives exactly what
// the general grammar gives (MP-H-07), with and without AllowQuotedPairs.
func TestBrowserFormShortcut(t *testing.T) {
	values := []string{
		`form-data; name="a"`, `form-data; name=""`, `form-data; name="a"; filename="b.txt"`,
		`form-data; name="a"; filename=""`, `form-data; name="a\"; filename="b\"`, `form-data; name="a\\b"`,
		`form-data; name="a"; filename="b"c"`, `form-data; name="a"x`, `form-data; name="a"; filename="b"; x=y`,
		`form-data; name="a\"b"`, `form-data; name="a"; filename="x\"y.txt"`, `form-data; name="é"`,
	}
	for _, qp := range []bool{false, true} {
		for _, v := range values {
			o := DefaultOptions()
			o.AllowQuotedPairs = qp
			p, _ := NewParserBoundary([]byte("b"), &o)
			read := func(shortcut bool) string {
				p.hbuf = append(p.hbuf[:0], v...)
				var ok bool
				if shortcut {
					ok = p.parseDisposition(0, len(v))
				} else {
					ok = p.parseDispositionAs(0, len(v), qp) || p.parseDispositionAs(0, len(v), !qp)
				}
				if !ok {
					return "fail"
				}
				h := (*Head)(p)
				return fmt.Sprintf("%q %v %q", h.NameBytes(), h.IsFile(), h.FilenameBytes())
			}
			if a, b := read(true), read(false); a != b {
				t.Errorf("%s (quoted pairs first: %v): %s, general grammar %s", v, qp, a, b)
			}
		}
	}
}

// The whole-block header reader tests eight value bytes at a time for NUL,
// CR and LF (MP-H-02); a stop byte at any position of values of any length
// must give what the byte-at-a-time reader (byte-by-byte feeding) gives:
// MP_HEADER_VALUE at that byte, or a good part when the value is clean.
func TestHeaderValueStopBytes(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for at := -1; at < n; at++ {
			for _, stop := range []byte{0, '\n', '\r', 0x80, 0xFF, 0x0D ^ 0x80} {
				v := []byte(strings.Repeat("v", n))
				if at >= 0 {
					v[at] = stop
				}
				b := body("X-Test: " + string(v) + "\r\n" + field("a", "1"))
				want := summary(t, ct, nil, bytewise(b))
				if got := summary(t, ct, nil, whole(b)); got != want {
					t.Fatalf("value of %d bytes, %#x at %d: whole %q, byte by byte %q", n, stop, at, got, want)
				}
				bad := at >= 0 && (stop == 0 || stop == '\n' || stop == '\r')
				if strings.HasPrefix(want, "ERR") != bad {
					t.Fatalf("value of %d bytes, %#x at %d: %q", n, stop, at, want)
				}
			}
		}
	}
}
