package multipart

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	formwire "github.com/formwire/formwire/go"
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

// headerList is every header of every part, as Head.Header gives them.
func headerList(t testing.TB, ctype string, o *Options, chunks [][]byte) string {
	t.Helper()
	p, err := NewParser(ctype, o)
	if err != nil {
		return errString(err)
	}
	var sb strings.Builder
	drain := func() error {
		for {
			ev, err := p.Next()
			if err != nil || ev.Kind == None {
				return err
			}
			if ev.Kind == PartStart {
				h := p.Head()
				for i := 0; i < h.NumHeaders(); i++ {
					n, v := h.Header(i)
					fmt.Fprintf(&sb, "%q=%q;", n, v)
				}
				sb.WriteString("\n")
			}
		}
	}
	return feedAll(p, chunks, &sb, drain)
}

// MP-H-01, MP-H-02, MP-H-11: with AllowUtf8HeaderNames bytes 80-FF are name
// bytes anywhere in a name (no UTF-8 check), the raw name is ASCII-lowercased
// only, and such a name is never Content-Disposition or Content-Type. The
// whole-block header reader leaves these lines to the line reader: both must
// agree at every split.
func TestUTF8HeaderNames(t *testing.T) {
	cd := "Content-Disposition: form-data; name=\"a\"\r\n"
	cases := []struct {
		block, want, strict string
	}{
		{"F\xc3\xb8\xc3\xb8: 1\r\n" + cd, `"føø"="1";"content-disposition"="form-data; name=\"a\"";` + "\n", "ERR MP_HEADER_NAME@6"},
		{cd + "X-F\xc3\x98\xc3\x98 \t: 1\r\n", `"content-disposition"="form-data; name=\"a\"";"x-fØØ"="1";` + "\n", "ERR MP_HEADER_NAME@50"},
		{"\xff\x80:\r\n" + cd, `"\xff\x80"="";"content-disposition"="form-data; name=\"a\"";` + "\n", "ERR MP_HEADER_NAME@5"},
		{" \xc3\xa9:x\r\n" + cd, `"é"="x";"content-disposition"="form-data; name=\"a\"";` + "\n", "ERR MP_HEADER_NAME@6"},
		// Not the ASCII names: no Content-Disposition, and no Content-Type.
		{"Content-Dispositi\xc3\xb8n: form-data; name=\"a\"\r\n", "ERR MP_NO_DISPOSITION@48", "ERR MP_HEADER_NAME@22"},
		// Every other name rule is unchanged.
		{cd + "\xc3\xb8\x00: 1\r\n", "ERR MP_HEADER_NAME@49", "ERR MP_HEADER_NAME@47"},
		{cd + "\xc3\xb8 \xc3\xb8: 1\r\n", "ERR MP_HEADER_NAME@50", "ERR MP_HEADER_NAME@47"},
		{cd + "\xc3\xb8\r\n", "ERR MP_HEADER_NAME@49", "ERR MP_HEADER_NAME@47"},
	}
	for _, c := range cases {
		b := []byte("--b\r\n" + c.block + "\r\nv\r\n--b--")
		for _, lenient := range []bool{true, false} {
			o := DefaultOptions()
			o.AllowUtf8HeaderNames = lenient
			want := c.strict
			if lenient {
				want = c.want
			}
			whole := headerList(t, ct, &o, [][]byte{b})
			if whole != want {
				t.Errorf("%q (lenient %v): got %s, want %s", c.block, lenient, whole, want)
			}
			if got := headerList(t, ct, &o, bytewise(b)); got != whole {
				t.Errorf("%q (lenient %v): byte by byte %s, whole %s", c.block, lenient, got, whole)
			}
			checkAllSplits(t, ct, &o, b)
		}
	}
	// MP-H-05 first: a name byte 80-FF at the header byte limit is the limit.
	o := DefaultOptions()
	o.AllowUtf8HeaderNames, o.MaxHeaderBytes = true, 2
	if got := checkAllSplits(t, ct, &o, []byte("--b\r\nF\xc3\xb8: 1\r\n\r\n\r\n--b--")); got != "ERR MP_LIMIT_HEADER_BYTES@7" {
		t.Errorf("header limit: %s", got)
	}
}

// ReadForm's FileHeader.Header keys are the display decoding of the names
// (MP-H-11), so a UTF-8 name is a valid string key and invalid bytes are
// U+FFFD.
func TestUTF8HeaderNamesReadForm(t *testing.T) {
	o := DefaultOptions()
	o.AllowUtf8HeaderNames = true
	b := body("Content-Disposition: form-data; name=f; filename=x\r\nX-\xff: 1\r\nF\xc3\xb8\xc3\xb8: 2\r\n\r\nbody")
	r, _ := NewReader(bytes.NewReader(b), ct, &o)
	form, err := ReadForm(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := form.File["f"][0].Header
	if len(h["x-\uFFFD"]) != 1 || h["x-\uFFFD"][0] != "1" || len(h["føø"]) != 1 || h["føø"][0] != "2" {
		t.Fatalf("%q", h)
	}
}

// MP-H-07: with AllowAnyDispositionType any token is the disposition type
// and the rest of the value is read as for form-data, with either reading of
// quoted-strings (AllowQuotedPairs combines); the type must still be a token.
func TestAnyDispositionType(t *testing.T) {
	cases := []struct {
		value string
		qp    bool
		want  string // with the option; without it every case is MP_DISPOSITION
	}{
		{`form-field; name="a"`, false, `["a" file=false "" `},
		{`X.Y; filename=f.txt; name=a`, false, `["a" file=true "f.txt" `},
		{`attachment; name="a\"b"`, true, `["a\"b" file=false "" `},
		{`attachment; name="a\"; x=y`, false, `["a\\" file=false "" `},
		{`inline;name=a`, false, `["a" file=false "" `},
		{`attachment;; name="a"; filename=""`, false, `["a" file=true "" `},
		{`attachment`, false, "ERR MP_DISPOSITION@5"},
		{`attachment; filename=f`, false, "ERR MP_DISPOSITION@5"},
		{`a{b; name=a`, false, "ERR MP_DISPOSITION@5"},
		{`; name=a`, false, "ERR MP_DISPOSITION@5"},
	}
	for _, c := range cases {
		b := []byte("--b\r\nContent-Disposition: " + c.value + "\r\n\r\nv\r\n--b--")
		for _, lenient := range []bool{true, false} {
			o := DefaultOptions()
			o.AllowAnyDispositionType, o.AllowQuotedPairs = lenient, c.qp
			got := checkAllSplits(t, ct, &o, b)
			want := "ERR MP_DISPOSITION@5"
			if lenient {
				want = c.want
			}
			if !strings.HasPrefix(got, want) {
				t.Errorf("%s (lenient %v, quoted pairs first %v): got %q, want %q", c.value, lenient, c.qp, got, want)
			}
		}
	}
	// A form-field part is an ordinary entry of ReadForm.
	o := DefaultOptions()
	o.AllowAnyDispositionType = true
	r, _ := NewReader(bytes.NewReader(body("Content-Disposition: form-field; name=\"a\"\r\n\r\n1")), ct, &o)
	form, err := ReadForm(r, nil)
	if err != nil || len(form.Value["a"]) != 1 || form.Value["a"][0] != "1" {
		t.Fatal(form, err)
	}
}

// MP-H-04: a continuation line is joined with one SP only when it has
// content; one that is empty after its OWS adds nothing, whatever the split.
func TestObsFoldEmptyContinuation(t *testing.T) {
	o := DefaultOptions()
	o.AllowObsFold = true
	cd := "Content-Disposition: form-data; name=a\r\n"
	cases := []struct{ block, want string }{
		{"X: a\r\n \t\r\n", `"x"="a";`},
		{"X: a\r\n \r\n\tb \r\n \r\n", `"x"="a b";`},
		{"X:\r\n \r\n", `"x"="";`},
		{"X:\r\n b\r\n", `"x"=" b";`},
	}
	for _, c := range cases {
		b := []byte("--b\r\n" + cd + c.block + "\r\nv\r\n--b--")
		want := `"content-disposition"="form-data; name=a";` + c.want + "\n"
		if got := headerList(t, ct, &o, [][]byte{b}); got != want {
			t.Errorf("%q: got %s, want %s", c.block, got, want)
		}
		if got := headerList(t, ct, &o, bytewise(b)); got != want {
			t.Errorf("%q byte by byte: got %s, want %s", c.block, got, want)
		}
	}
}

// MP-H-06: with AllowMissingDisposition a block without a Content-Disposition,
// or whose only one is empty after OWS and obs-fold, is a nameless part (a
// field for every limit, MP-L-05); a second Content-Disposition and a
// non-empty invalid one are still errors.
func TestMissingDisposition(t *testing.T) {
	nameless := `[nameless file=false "" `
	cases := []struct {
		block        string
		want, strict string
	}{
		{"", nameless + `ct="" type="text/plain"] 1`, "ERR MP_NO_DISPOSITION@5"},
		{"Content-Type: text/x\r\n", nameless + `ct="text/x" type="text/x"] 1`, "ERR MP_NO_DISPOSITION@27"},
		{"Content-Disposition:\r\n", nameless, "ERR MP_DISPOSITION@5"},
		{"Content-Disposition: \t \r\nX: y\r\n", nameless, "ERR MP_DISPOSITION@5"},
		{"X: y\r\nContent-Disposition:\r\n \t\r\n", nameless, "ERR MP_OBS_FOLD@33"},
		{"Content-Disposition:\r\nContent-Disposition:\r\n", "ERR MP_DISPOSITION@27", "ERR MP_DISPOSITION@27"},
		{"Content-Disposition: form-data; name=a\r\nContent-Disposition:\r\n", "ERR MP_DISPOSITION@45", "ERR MP_DISPOSITION@45"},
		{"Content-Disposition: form-data\r\n", "ERR MP_DISPOSITION@5", "ERR MP_DISPOSITION@5"},
		{"Content-Disposition: ;\r\n", "ERR MP_DISPOSITION@5", "ERR MP_DISPOSITION@5"},
	}
	for _, c := range cases {
		// The part after it has a name again.
		b := []byte("--b\r\n" + c.block + "\r\nv\r\n--b\r\n" + field("z", "") + "\r\n--b--")
		for _, lenient := range []bool{true, false} {
			o := DefaultOptions()
			o.AllowMissingDisposition, o.AllowObsFold = lenient, lenient
			got := checkAllSplits(t, ct, &o, b)
			want := c.strict
			if lenient {
				want = c.want
			}
			if !strings.HasPrefix(got, want) || (!strings.HasPrefix(want, "ERR") && !strings.Contains(got, "\n[\"z\" file=false")) {
				t.Errorf("%q (lenient %v): got %q, want %q", c.block, lenient, got, want)
			}
		}
	}

	// Head: no name bytes, no filename, no name*; the next head is named.
	o := DefaultOptions()
	o.AllowMissingDisposition = true
	p, _ := NewParser(ct, &o)
	p.Feed([]byte("--b\r\nContent-Disposition: \r\n\r\nv\r\n--b\r\n" + field("z", "") + "\r\n--b--"))
	var heads []string
	for {
		ev, err := p.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == None {
			break
		}
		if ev.Kind == PartStart {
			h := p.Head()
			_, star := h.NameStar()
			heads = append(heads, fmt.Sprintf("%v %v %q %v %v %d", h.Nameless(), h.NameBytes() == nil, h.Name(), h.IsFile(), star, h.NumHeaders()))
		}
	}
	if got := strings.Join(heads, ","); got != `true true "" false false 1,false false "z" false false 1` {
		t.Fatal(got)
	}
}

// MP-H-06, MP-F-05: NextPart delivers a nameless part (Part.Nameless, Name
// ""); ReadForm skips it without an entry, after it was counted: it is a
// field for max_fields and max_total_field_bytes.
func TestMissingDispositionReader(t *testing.T) {
	b := body("Content-Type: text/plain\r\n\r\nxxxx", field("a", "1"), "\r\nyy")
	o := DefaultOptions()
	o.AllowMissingDisposition = true
	r, _ := NewReader(bytes.NewReader(b), ct, &o)
	var got []string
	for part, err := range r.Parts() {
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(part)
		got = append(got, fmt.Sprintf("%q:%v:%q:%s", part.Name, part.Nameless, part.ContentType, data))
	}
	if s := strings.Join(got, ","); s != `"":true:"text/plain":xxxx,"a":false:"":1,"":true:"":yy` {
		t.Fatal(s)
	}

	r, _ = NewReader(bytes.NewReader(b), ct, &o)
	form, err := ReadForm(r, nil)
	if err != nil || len(form.Value) != 1 || len(form.Value["a"]) != 1 || len(form.File) != 0 {
		t.Fatal(form, err)
	}
	// Still counted: the nameless parts' bodies are field bytes, the parts fields.
	o.MaxTotalFieldBytes = 6
	r, _ = NewReader(bytes.NewReader(b), ct, &o)
	if form, err := ReadForm(r, nil); form != nil || errString(err) != "ERR MP_LIMIT_TOTAL_FIELD_BYTES@99" {
		t.Fatal(form, err)
	}
	o.MaxTotalFieldBytes, o.MaxFields = formwire.Unlimited, 2
	r, _ = NewReader(bytes.NewReader(b), ct, &o)
	if form, err := ReadForm(r, nil); form != nil || errString(err) != "ERR MP_LIMIT_FIELDS@96" {
		t.Fatal(form, err)
	}
}

// MP-H-07: with Allow8bitParameterNames a parameter name may hold bytes
// 80-FF; such a parameter is none of name, filename, name*, filename* and is
// ignored, its value still read as a token or quoted-string.
func TestEightBitParameterNames(t *testing.T) {
	cases := []struct{ value, want string }{
		{"form-data; name=\"a\";\xa0filename=\"a.txt\"", `["a" file=false "" `},
		{"form-data; name=\"a\"; f\xc3\xa9=x; filename=\"f.txt\"", `["a" file=true "f.txt" `},
		{"form-data; name=\"a\"; name\xff=\"b\"", `["a" file=false "" `},
		{"form-data; name=a; \x80\x81=\"q\\\"\"", `["a" file=false "" `},
		{"form-data; \xa0name=\"a\"", "ERR MP_DISPOSITION@5"},
		{"form-data; name=\"a\"; \xa0x=\"unterminated", "ERR MP_DISPOSITION@5"},
		{"form-data; name=\"a\"; \xa0x", "ERR MP_DISPOSITION@5"},
		{"form-data; name=\"a\"; f@o=1", "ERR MP_DISPOSITION@5"},
		{"form-data\xa0; name=\"a\"", "ERR MP_DISPOSITION@5"},
		{"form-data; name=\"a\"; filename\xa0*0=x", `["a" file=false "" `},
	}
	for _, c := range cases {
		b := []byte("--b\r\nContent-Disposition: " + c.value + "\r\n\r\nv\r\n--b--")
		for _, lenient := range []bool{true, false} {
			o := DefaultOptions()
			o.Allow8bitParameterNames, o.AllowRfc2231Continuations = lenient, lenient
			got := checkAllSplits(t, ct, &o, b)
			want := "ERR MP_DISPOSITION@5"
			if lenient {
				want = c.want
			}
			if !strings.HasPrefix(got, want) {
				t.Errorf("%q (lenient %v): got %q, want %q", c.value, lenient, got, want)
			}
		}
	}
}

// MP-H-09: with AllowRfc2231Continuations and no filename parameter,
// filename*0, filename*1*, ... are joined (percent-decoded where marked `*`,
// charset'language' removed) into the filename; without the option they are
// ignored and the part is a field.
func TestRFC2231Continuations(t *testing.T) {
	cases := []struct{ value, want string }{
		{`form-data; name="f"; filename*0="a b"; filename*1=".txt"`, `["f" file=true "a b.txt" `},
		{`form-data; name="f"; filename*0*=UTF-8'en'%C3%A9t%C3%A9; filename*1=.txt`, "[\"f\" file=true \"\u00e9t\u00e9.txt\" "},
		{`form-data; name="f"; filename*0*=iso-8859-1''caf%E9`, "[\"f\" file=true \"caf\ufffd\" "},
		{`form-data; name="f"; filename*0="evil"; filename="safe.txt"; filename*1=".php"`, `["f" file=true "safe.txt" `},
		{`form-data; name="f"; filename*0="a"; filename*0="b"; filename="safe.txt"`, "ERR MP_DISPOSITION@5"},
		{`form-data; name="f"; filename*0*=x; filename="safe.txt"`, `["f" file=true "safe.txt" `},
		{`form-data; name="f"; filename*1="b"; filename*0="a"; filename*3="d"`, `["f" file=true "ab" `},
		{`form-data; name="f"; filename*1="b"`, `["f" file=false "" `},
		{`form-data; name="f"; filename*0="a"; filename*01="b"`, `["f" file=true "a" `},
		{`form-data; name="f"; filename*0*=''100%25%2x%`, `["f" file=true "100%%2x%" `},
		{`form-data; name="f"; FILENAME*0="a"; FileName*1*=%62`, `["f" file=true "ab" `},
		{`form-data; name="n"; name*0="x"; filename*0="f"`, `["n" file=true "f" `},
		{`form-data; name="f"; filename*0="a\"b"`, `["f" file=true "a\"b" `},
		{`form-data; name="f"; filename*0=""; filename*1=""`, `["f" file=true "" `},
		{`form-data; name="f"; filename*0="a"; filename*0*=''b`, "ERR MP_DISPOSITION@5"},
		{`form-data; name="f"; filename*0="a"; filename*7="b"; filename*7="c"`, "ERR MP_DISPOSITION@5"},
		{`form-data; name="f"; filename*0*=utf-8%20a.txt`, "ERR MP_DISPOSITION@5"},
		{`form-data; name="f"; filename*0*=utf-8'a.txt`, "ERR MP_DISPOSITION@5"},
	}
	for _, c := range cases {
		b := []byte("--b\r\nContent-Disposition: " + c.value + "\r\n\r\nv\r\n--b--")
		o := DefaultOptions()
		o.AllowRfc2231Continuations = true
		if got := checkAllSplits(t, ct, &o, b); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.value, got, c.want)
		}
		// Strict: continuations are other parameters, ignored.
		strict := summary(t, ct, nil, whole(b))
		if strings.Contains(c.value, `filename="`) != strings.Contains(strict, "file=true") || strings.HasPrefix(strict, "ERR") {
			t.Errorf("%s strict: %q", c.value, strict)
		}
	}

	// The joined filename is a file part for every limit (MP-L-02, MP-L-05),
	// and FilenameBytes are the joined bytes.
	o := DefaultOptions()
	o.AllowRfc2231Continuations, o.MaxFileBytes = true, 3
	b := []byte("--b\r\nContent-Disposition: form-data; name=f; filename*0*=''a%00b\r\n\r\nabcd\r\n--b--")
	if got := checkAllSplits(t, ct, &o, b); got != `["f" file=true "a\x00b" ct="" type="text/plain"]ERR MP_LIMIT_FILE_BYTES@71` {
		t.Errorf("got %q", got)
	}
	p, _ := NewParser(ct, &o)
	p.Feed(b)
	if ev, err := p.Next(); err != nil || ev.Kind != PartStart || string(p.Head().FilenameBytes()) != "a\x00b" {
		t.Fatalf("%v %v", ev, err)
	}
	// Many segments, in reverse order: joined in order of N.
	var sb strings.Builder
	sb.WriteString("form-data; name=f")
	for i := 299; i >= 0; i-- {
		fmt.Fprintf(&sb, "; filename*%d=%c", i, 'a'+i%26)
	}
	var want strings.Builder
	for i := 0; i < 300; i++ {
		want.WriteByte(byte('a' + i%26))
	}
	o = DefaultOptions()
	o.AllowRfc2231Continuations, o.MaxHeaderBytes = true, formwire.Unlimited
	b = []byte("--b\r\nContent-Disposition: " + sb.String() + "\r\n\r\nv\r\n--b--")
	if got := summary(t, ct, &o, whole(b)); !strings.HasPrefix(got, `["f" file=true "`+want.String()+`"`) {
		t.Errorf("300 segments: %q", got)
	}
}

// MP-P-03, MP-P-04: with AllowNearDelimiters, `CRLF--B` inside a body
// followed by `-` and a non-`-`, or by CR and a non-LF, is body data (every
// byte of it counted), and the search goes on after its `-` or CR; the first
// delimiter, padding then junk and a lookalike cut by the end of the input are
// unchanged.
func TestNearDelimiters(t *testing.T) {
	one := func(v string) string { return field("a", v) }
	cases := []struct{ body, want, strict string }{
		{"--b\r\n" + one("x\r\n--b-y") + "\r\n--b--", `["a" file=false "" ct="" type="text/plain"] 8 `, "ERR MP_DELIMITER@56"},
		{"--b\r\n" + one("x\r\n--b\ry") + "\r\n--b--", `["a" file=false "" ct="" type="text/plain"] 8 `, "ERR MP_DELIMITER@56"},
		{"--b\r\n" + one("x\r\n--b-\r\n--b\rb") + "\r\n--b--", `["a" file=false "" ct="" type="text/plain"] 14 `, "ERR MP_DELIMITER@56"},
		{"--b\r\n" + one("x\r\n--b-\r") + "\r\n--b--", `["a" file=false "" ct="" type="text/plain"] 8 `, "ERR MP_DELIMITER@56"},
		{"--b\r\n" + one("x\r\n--b-\r\n--b--"), `["a" file=false "" ct="" type="text/plain"] 7 `, "ERR MP_DELIMITER@56"},
		{"--b\r\n" + one("x\r\n--b\r\r\n--b--"), `["a" file=false "" ct="" type="text/plain"] 7 `, "ERR MP_DELIMITER@56"},
		{"--b\r\n" + one("x") + "\r\n--b-", "ERR MP_TRUNCATED@56", "ERR MP_TRUNCATED@56"},
		{"--b\r\n" + one("x") + "\r\n--b\r", "ERR MP_TRUNCATED@56", "ERR MP_TRUNCATED@56"},
		{"--b\r\n" + one("x") + "\r\n--b x\r\n--b--", "ERR MP_DELIMITER@56", "ERR MP_DELIMITER@56"},
		{"--b-x\r\n" + one("x") + "\r\n--b--", "ERR MP_DELIMITER@4", "ERR MP_DELIMITER@4"},
		{"--b\r\n" + one("x") + "\r\n--b--", `["a" file=false "" ct="" type="text/plain"] 1 `, `["a" file=false "" ct="" type="text/plain"] 1 `},
	}
	for _, c := range cases {
		for _, lenient := range []bool{true, false} {
			o := DefaultOptions()
			o.AllowNearDelimiters = lenient
			got := checkAllSplits(t, ct, &o, []byte(c.body))
			want := c.strict
			if lenient {
				want = c.want
			}
			if !strings.HasPrefix(got, want) && !strings.HasSuffix(got, "\n"+want) && !strings.HasSuffix(got, "]"+want) {
				t.Errorf("%q (lenient %v): got %q, want %q", c.body, lenient, got, want)
			}
		}
	}

	// The lookalike's bytes are body bytes for every limit (MP-L-02).
	o := DefaultOptions()
	o.AllowNearDelimiters, o.MaxFieldBytes = true, 6
	b := []byte("--b\r\n" + one("ab\r\n--b-x") + "\r\n--b--")
	if got := checkAllSplits(t, ct, &o, b); got != `["a" file=false "" ct="" type="text/plain"]ERR MP_LIMIT_FIELD_BYTES@55` {
		t.Errorf("got %q", got)
	}

	// With AllowLF the lookalike may begin with a bare LF.
	o = DefaultOptions()
	o.AllowNearDelimiters, o.AllowLF = true, true
	b = []byte("--b\n" + "Content-Disposition: form-data; name=a\n\n" + "1\n--b-x\n--b--\n")
	if got := checkAllSplits(t, ct, &o, b); !strings.HasPrefix(got, `["a" file=false "" ct="" type="text/plain"] 7 `) {
		t.Errorf("LF: got %q", got)
	}

	// MP-P-08: a held lookalike is one Data event of at most
	// len(CRLF--B) + 1 bytes, and a dense body of lookalikes reads whole.
	o = DefaultOptions()
	o.AllowNearDelimiters = true
	dense := strings.Repeat("\r\n--b-x\r\n--b\ry", 2000)
	b = []byte("--b\r\n" + one(dense) + "\r\n--b--")
	if got := summary(t, ct, &o, bytewise(b)); !strings.HasPrefix(got, fmt.Sprintf(`["a" file=false "" ct="" type="text/plain"] %d `, len(dense))) {
		t.Errorf("dense: got %q", got)
	}
	p, _ := NewParser(ct, &o)
	for i := range b {
		p.Feed(b[i : i+1])
		for {
			ev, err := p.Next()
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind == None {
				break
			}
			if ev.Kind == Data && len(ev.Data) > len("\r\n--b")+1 {
				t.Fatalf("a Data event of %d bytes", len(ev.Data))
			}
		}
	}
}

// MP-P-03, MP-P-05, MP-P-06, MP-H-02, MP-H-03: with AllowCr a bare CR ends
// delimiter lines, header lines and the header block (the byte after it
// begins what follows), the close line may end at a CR, and a body also ends
// at `CR--B`; before the colon a bare CR is still MP_HEADER_NAME.
func TestBareCR(t *testing.T) {
	cd := "Content-Disposition: form-data; name=a"
	a := `["a" file=false "" ct="" type="text/plain"] `
	cases := []struct{ body, want, strict string }{
		{"--b\r" + cd + "\r\r1\r--b\r" + cd + "\r\r22\r--b--", a + "1 6b86b273ff34\n" + a + "2 ", "ERR MP_DELIMITER@4"},
		{"--b\r" + cd + "\r\r\r--b--", a + "0 ", "ERR MP_DELIMITER@4"},
		{"--b\r\n" + cd + "\r\r\n1\r\n--b--\r", a + "1 6b86b273ff34\nEND\n", "ERR MP_HEADER_VALUE@43"},
		{"--b\r\n" + cd + "\r\n\r\n1\r\n--b--\rjunk", a + "1 6b86b273ff34\nEND\n", "ERR MP_DELIMITER@56"},
		{"--b \t\r" + cd + "\r\r1\r\n--b--", a + "1 ", "ERR MP_DELIMITER@6"},
		{"--b\r" + cd + "\r\r1\r--bX\r--b--", a + "6 ", "ERR MP_DELIMITER@4"},
		{"--b\r" + cd + "\rX\r: v\r\r1\r--b--", "ERR MP_HEADER_NAME@44", "ERR MP_DELIMITER@4"},
		{"--b\r", "ERR MP_TRUNCATED@4", "ERR MP_TRUNCATED@4"},
		{"--b\r\n" + cd + "\r\n\r\n1\r\n--b-x\r\n", "ERR MP_DELIMITER@54", "ERR MP_DELIMITER@54"},
		// A body that starts with `--B` right after a CR-ended empty line is data.
		{"--b\r" + cd + "\r\r--b\r--b--", a + "3 ", "ERR MP_DELIMITER@4"},
	}
	for _, c := range cases {
		for _, lenient := range []bool{true, false} {
			o := DefaultOptions()
			o.AllowCr = lenient
			got := checkAllSplits(t, ct, &o, []byte(c.body))
			want := c.strict
			if lenient {
				want = c.want
			}
			if !strings.HasPrefix(got, want) && !strings.HasSuffix(got, "\n"+want) {
				t.Errorf("%q (lenient %v): got %q, want %q", c.body, lenient, got, want)
			}
		}
	}

	// It changes how a strictly valid body reads: `CR--B` inside a value.
	b := []byte("--b\r\n" + cd + "\r\n\r\n1\r--b\r\n" + cd + "\r\n\r\n2\r\n--b--")
	if got := checkAllSplits(t, ct, nil, b); !strings.HasPrefix(got, a+"50 ") {
		t.Errorf("strict: %q", got)
	}
	o := DefaultOptions()
	o.AllowCr = true
	if got := checkAllSplits(t, ct, &o, b); !strings.HasPrefix(got, a+"1 6b86b273ff34\n"+a+"1 ") {
		t.Errorf("allow_cr: %q", got)
	}

	// With AllowLF and AllowPreamble and AllowObsFold: CR, LF and CRLF mixed,
	// a CR-ended preamble, a CR-ended folded header.
	o.AllowLF, o.AllowPreamble, o.AllowObsFold = true, true, true
	b = []byte("pre\r--b\r" + "Content-Disposition: form-data;\r name=a" + "\n\r\nx\r--b\n" + cd + "\r\ry\n--b--")
	if got := checkAllSplits(t, ct, &o, b); !strings.HasPrefix(got, a+"1 2d711642b726\n"+a+"1 a1fce4363854\nEND") {
		t.Errorf("mixed: %q", got)
	}

	// The CR of `CR--B` is no body byte (MP-L-02), and a dense body of CR,
	// `CR--`, `CR--B` prefixes reads whole byte by byte.
	o = DefaultOptions()
	o.AllowCr, o.MaxFieldBytes = true, 3
	b = []byte("--b\r" + cd + "\r\rabc\r--b--")
	if got := checkAllSplits(t, ct, &o, b); !strings.HasPrefix(got, a+"3 ") {
		t.Errorf("limit: %q", got)
	}
	o.MaxFieldBytes = formwire.Unlimited
	o.AllowNearDelimiters = true
	dense := strings.Repeat("\r\r--\r-b\r--\r\n--bx\r--b-x\r", 500)
	b = []byte("--b\r\n" + cd + "\r\n\r\n" + dense + "\r--b--")
	if got := summary(t, ct, &o, bytewise(b)); !strings.HasPrefix(got, fmt.Sprintf("%s%d ", a, len(dense))) {
		t.Errorf("dense: %q", got[:min(len(got), 200)])
	}
	if got, want := summary(t, ct, &o, bytewise(b)), summary(t, ct, &o, whole(b)); got != want {
		t.Errorf("dense: %q whole, %q byte by byte", want, got)
	}
}
