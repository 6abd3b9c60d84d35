package multipart

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	formwire "github.com/formwire/formwire/go"
)

func tempEntries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestReadFormSpillAndOpen(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("B", 3000)
	b := body(field("a", "1"), field("a", "2"),
		"Content-Disposition: form-data; name=f; filename=\"small.txt\"\r\nContent-Type: text/x\r\n\r\nsmall",
		"Content-Disposition: form-data; name=f; filename=\"big.bin\"\r\n\r\n"+big)
	r, _ := NewReader(bytes.NewReader(b), ct, nil)
	fo := DefaultFormOptions()
	fo.MaxMemory = 1000
	fo.TempDir = dir
	form, err := ReadForm(r, &fo)
	if err != nil {
		t.Fatal(err)
	}
	if got := form.Value["a"]; len(got) != 2 || got[0] != "1" || got[1] != "2" {
		t.Fatal(got)
	}
	fs := form.File["f"]
	if len(fs) != 2 || fs[0].tmpfile != "" || fs[1].tmpfile == "" || fs[1].Size != 3000 || fs[0].ContentType != "text/x" {
		t.Fatalf("%+v", fs)
	}
	st, err := os.Stat(fs[1].tmpfile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("temp file mode %v, %v", st.Mode(), err)
	}
	for i, want := range []string{"small", big} {
		f, err := fs[i].Open()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(f)
		f.Close()
		if string(got) != want {
			t.Fatalf("file %d: %d bytes", i, len(got))
		}
	}
	file, fh, err := form.FormFile("f")
	if err != nil || fh.Filename != "small.txt" {
		t.Fatal(err)
	}
	file.Close()
	if _, _, err := form.FormFile("nope"); err != ErrMissingFile {
		t.Fatal(err)
	}
	if err := form.RemoveAll(); err != nil {
		t.Fatal(err)
	}
	if left := tempEntries(t, dir); len(left) != 0 {
		t.Fatal(left)
	}
}

// errAfter gives the first n bytes of b, then fails like a dropped connection.
type errAfter struct {
	r io.Reader
	n int
}

var errAbort = errors.New("connection reset")

func (e *errAfter) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, errAbort
	}
	if len(p) > e.n {
		p = p[:e.n]
	}
	n, err := e.r.Read(p)
	e.n -= n
	return n, err
}

// An upload aborted mid-file frees the temp files already written.
func TestReadFormAbortRemovesTempFiles(t *testing.T) {
	dir := t.TempDir()
	b := body("Content-Disposition: form-data; name=f; filename=a\r\n\r\n"+strings.Repeat("x", 5000),
		"Content-Disposition: form-data; name=g; filename=b\r\n\r\n"+strings.Repeat("y", 5000))
	fo := DefaultFormOptions()
	fo.MaxMemory = 100
	fo.TempDir = dir
	r, _ := NewReader(&errAfter{bytes.NewReader(b), len(b) - 2000}, ct, nil)
	form, err := ReadForm(r, &fo)
	if !errors.Is(err, errAbort) || form != nil {
		t.Fatalf("%v %v", form, err)
	}
	if left := tempEntries(t, dir); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

// 5,000 file parts: max_files (default 1000, MP-L-05) stops them with
// MP_LIMIT_FILES at file 1001's header block and no temp file left; with it
// raised they all arrive, and none of the 200 that went to disk holds a file
// descriptor.
func TestManyFileParts(t *testing.T) {
	var parts []string
	for i := 0; i < 5000; i++ {
		parts = append(parts, "Content-Disposition: form-data; name=f; filename=x\r\n\r\n"+strings.Repeat("z", 300))
	}
	b := body(parts...)
	o := DefaultOptions()
	o.MaxParts = 10_000
	dir := t.TempDir()
	fo := DefaultFormOptions()
	fo.MaxMemory = 4800 * 300 // the last 200 files go to disk
	fo.TempDir = dir
	r, _ := NewReader(bytes.NewReader(b), ct, &o)
	_, err := ReadForm(r, &fo)
	var fe *formwire.Error
	at := int64(1000*len("--b\r\n"+parts[0]+"\r\n") + len("--b\r\n"))
	if !errors.As(err, &fe) || fe.Code != formwire.MPLimitFiles || fe.Offset != at || !errors.Is(err, formwire.ErrLimit) {
		t.Fatal(err, at)
	}
	if left := tempEntries(t, dir); len(left) != 0 {
		t.Fatalf("%d temp files left", len(left))
	}
	fdsBefore := openFDs(t)
	o.MaxFiles = formwire.Unlimited
	r, _ = NewReader(bytes.NewReader(b), ct, &o)
	form, err := ReadForm(r, &fo)
	if err != nil {
		t.Fatal(err)
	}
	defer form.RemoveAll()
	if n := len(form.File["f"]); n != 5000 {
		t.Fatal(n)
	}
	if n := len(tempEntries(t, dir)); n != 200 {
		t.Fatalf("%d temp files", n)
	}
	if d := openFDs(t) - fdsBefore; d > 2 {
		t.Fatalf("%d file descriptors still open", d)
	}
}

func openFDs(t *testing.T) int {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd on this system: the descriptor count cannot be checked")
	}
	return len(es)
}

func TestReadFormDiskLimit(t *testing.T) {
	dir := t.TempDir()
	b := body("Content-Disposition: form-data; name=f; filename=a\r\n\r\n" + strings.Repeat("x", 5000))
	fo := FormOptions{MaxMemory: 10, MaxDiskBytes: 4000, TempDir: dir}
	r, _ := NewReader(bytes.NewReader(b), ct, nil)
	_, err := ReadForm(r, &fo)
	// MP-L-06: the file's byte number 4001 (the file went to disk from its first byte)
	at := int64(bytes.IndexByte(b, 'x')) + 4000
	var fe *formwire.Error
	if !errors.As(err, &fe) || fe.Code != formwire.MPLimitDiskBytes || fe.Offset != at || formwire.StatusOf(err) != 413 {
		t.Fatal(err, at)
	}
	if left := tempEntries(t, dir); len(left) != 0 {
		t.Fatal(left)
	}
	// Two files: the second crosses the total; in memory (MaxMemory) nothing counts.
	b = body("Content-Disposition: form-data; name=f; filename=a\r\n\r\n"+strings.Repeat("x", 3000),
		"Content-Disposition: form-data; name=g; filename=b\r\n\r\n"+strings.Repeat("y", 3000))
	r, _ = NewReader(bytes.NewReader(b), ct, nil)
	_, err = ReadForm(r, &fo)
	at = int64(bytes.IndexByte(b, 'y')) + 1000
	if !errors.As(err, &fe) || fe.Code != formwire.MPLimitDiskBytes || fe.Offset != at {
		t.Fatal(err, at)
	}
	fo.MaxMemory = 6000
	fo.MaxFileMemory = 6000
	r, _ = NewReader(bytes.NewReader(b), ct, nil)
	form, err := ReadForm(r, &fo)
	if err != nil || len(form.File) != 2 {
		t.Fatal(err)
	}
	form.RemoveAll()
	fo.MaxMemory, fo.MaxFileMemory = 10, 0
	fo.MaxDiskBytes = formwire.Unlimited
	r, _ = NewReader(bytes.NewReader(b), ct, nil)
	if form, err = ReadForm(r, &fo); err != nil {
		t.Fatal(err)
	}
	form.RemoveAll()
}

// ReadForm from a Reader whose first part was already handed out skips that
// part; names with invalid UTF-8 are keyed by their U+FFFD reading, and
// repeats of every name keep their order (MP-F-04).
func TestReadFormAfterNextPartAndNames(t *testing.T) {
	b := body(field("skipped", "x"), field("a\xff", "1"), field("b", "2"), field("a\xff", "3"), field("b", "4"), field("", "5"))
	r, _ := NewReader(bytes.NewReader(b), ct, nil)
	if p, err := r.NextPart(); err != nil || p.Name != "skipped" {
		t.Fatal(err)
	}
	form, err := ReadForm(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(form.Value)
	if want := "map[:[5] a\uFFFD:[1 3] b:[2 4]]"; got != want {
		t.Fatalf("%s, want %s", got, want)
	}
}

// MaxFileMemory: a file over it goes to disk although MaxMemory has room.
func TestReadFormMaxFileMemory(t *testing.T) {
	dir := t.TempDir()
	b := body("Content-Disposition: form-data; name=f; filename=a\r\n\r\n"+strings.Repeat("x", 2000),
		"Content-Disposition: form-data; name=f; filename=b\r\n\r\n"+strings.Repeat("y", 500))
	fo := DefaultFormOptions()
	fo.MaxFileMemory = 1000
	fo.TempDir = dir
	r, _ := NewReader(bytes.NewReader(b), ct, nil)
	form, err := ReadForm(r, &fo)
	if err != nil {
		t.Fatal(err)
	}
	defer form.RemoveAll()
	fs := form.File["f"]
	if fs[0].tmpfile == "" || fs[0].Size != 2000 || fs[1].tmpfile != "" || fs[1].Size != 500 {
		t.Fatalf("%+v %+v", fs[0], fs[1])
	}
}

// Values keep body order per name across ReadForm's blocks of 256 fields
// (MP-F-04), with the map built once at the end.
func TestReadFormManyFieldsOrder(t *testing.T) {
	var parts []string
	want := map[string][]string{}
	for i := 0; i < 1000; i++ {
		name, value := fmt.Sprint("n", i%7), fmt.Sprint(i)
		parts = append(parts, field(name, value))
		want[name] = append(want[name], value)
	}
	r, _ := NewReader(bytes.NewReader(body(parts...)), ct, nil)
	form, err := ReadForm(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(form.Value) != fmt.Sprint(want) {
		t.Fatalf("got %v", form.Value)
	}
	// Each name's slice is its own: appending to one leaves the others alone.
	form.Value["n0"] = append(form.Value["n0"], "x")
	if fmt.Sprint(form.Value["n1"]) != fmt.Sprint(want["n1"]) {
		t.Fatal("append to one name's values changed another's")
	}
}
