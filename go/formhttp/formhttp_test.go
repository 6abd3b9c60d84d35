package formhttp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/multipart"
	"github.com/formwire/formwire/go/urlencoded"
)

func TestParseRequestURLEncoded(t *testing.T) {
	r := httptest.NewRequest("POST", "/?q=1&a=query&s=x;y", strings.NewReader("a=body&b=%zz&c=1;2"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	form, err := ParseRequest(r, nil)
	if err != nil || form != nil {
		t.Fatal(form, err)
	}
	// net/http's precedence: body values first, then the query's.
	if got := r.Form["a"]; len(got) != 2 || got[0] != "body" || got[1] != "query" {
		t.Fatal(got)
	}
	if r.FormValue("a") != "body" || r.PostFormValue("a") != "body" || r.PostFormValue("q") != "" || r.FormValue("q") != "1" {
		t.Fatal(r.Form, r.PostForm)
	}
	// WHATWG: ';' is data, a bad '%' stays (url.ParseQuery drops both).
	if r.FormValue("b") != "%zz" || r.FormValue("c") != "1;2" || r.FormValue("s") != "x;y" {
		t.Fatal(r.Form)
	}
}

func TestParseRequestGETLeavesBody(t *testing.T) {
	r := httptest.NewRequest("GET", "/?a=1", strings.NewReader("b=2"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if _, err := ParseRequest(r, nil); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r.Body)
	if r.FormValue("a") != "1" || len(r.PostForm) != 0 || string(rest) != "b=2" {
		t.Fatal(r.Form, string(rest))
	}
}

func TestParseRequestLimits(t *testing.T) {
	// The urlencoded limit, with an offset and a 413.
	r := httptest.NewRequest("POST", "/", strings.NewReader("a=1&b=2&c=3"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	_, err := ParseRequest(r, &Options{URLEncoded: &urlencoded.Options{MaxPairs: 2, MaxBytes: 100}})
	var fe *formwire.Error
	if !errors.As(err, &fe) || fe.Code != formwire.UELimitPairs || fe.Offset != 8 || formwire.StatusOf(err) != 413 {
		t.Fatal(err)
	}
	// http.MaxBytesReader is the total limit of the format, at its limit.
	for _, c := range []struct {
		ct   string
		body string
		code formwire.Code
	}{
		{"application/x-www-form-urlencoded", strings.Repeat("a=1&", 100), formwire.UELimitBytes},
		{"multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=a\r\n\r\n" + strings.Repeat("x", 400) + "\r\n--b--", formwire.MPLimitTotalBytes},
	} {
		w := httptest.NewRecorder()
		r = httptest.NewRequest("POST", "/", strings.NewReader(c.body))
		r.Header.Set("Content-Type", c.ct)
		r.Body = http.MaxBytesReader(w, r.Body, 100)
		_, err = ParseRequest(r, nil)
		if !errors.As(err, &fe) || fe.Code != c.code || fe.Offset != 100 || formwire.StatusOf(err) != 413 {
			t.Fatalf("%s: %v", c.ct, err)
		}
	}
}

func multipartBody(t *testing.T) (*multipart.Encoder, []byte) {
	e := multipart.NewEncoder()
	e.AddField("name", "Ada")
	if err := e.AddFileBytes("upload", "notes.txt", "text/plain", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	b, err := e.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return e, b
}

func TestMiddlewareMultipart(t *testing.T) {
	e, b := multipartBody(t)
	var got string
	h := Middleware(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, fh, err := FormFile(r, "upload")
		if err != nil {
			t.Error(err)
			return
		}
		data, _ := io.ReadAll(f)
		f.Close()
		got = r.FormValue("name") + "|" + r.PostFormValue("name") + "|" + fh.Filename + "|" + string(data)
		// net/http does not parse a second time, and says so honestly.
		if _, _, err := r.FormFile("upload"); err == nil {
			t.Error("std FormFile found a file it cannot have")
		}
	}))
	r := httptest.NewRequest("POST", "/", bytes.NewReader(b))
	r.Header.Set("Content-Type", e.ContentType())
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if got != "Ada|Ada|notes.txt|hello" || w.Code != 200 {
		t.Fatal(got, w.Code)
	}
	// Malformed input is a 400 and next does not run.
	r = httptest.NewRequest("POST", "/", bytes.NewReader(b[:len(b)-5]))
	r.Header.Set("Content-Type", e.ContentType())
	w = httptest.NewRecorder()
	got = ""
	h.ServeHTTP(w, r)
	if w.Code != 400 || got != "" || !strings.Contains(w.Body.String(), "MP_TRUNCATED") {
		t.Fatal(w.Code, w.Body.String())
	}
}

// Neither buffer is shared with a later request: values parsed from one
// request survive the next request's parse, with a known length (in-place
// decoding) and without one (pooled buffer, ContentLength -1).
func TestBodyBuffersNotAliased(t *testing.T) {
	var kept []string
	for i := 0; i < 100; i++ {
		body := strings.Repeat("k=v", 1) + "&n=" + strings.Repeat(string(rune('a'+i%26)), 1000)
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if i%2 == 1 {
			r.ContentLength = -1
		}
		if _, err := ParseRequest(r, nil); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, r.PostFormValue("n"))
	}
	for i, v := range kept {
		if v != strings.Repeat(string(rune('a'+i%26)), 1000) {
			t.Fatalf("value %d changed", i)
		}
	}
}

// The form-layer limit (ReadForm's MaxDiskBytes, max_disk_bytes) and the
// file count (max_files) are 413s with their codes in the answer.
func TestMiddlewareFormLimitIs413(t *testing.T) {
	e, b := multipartBody(t)
	noFiles := multipart.DefaultOptions()
	noFiles.MaxFiles = 0
	for _, c := range []struct {
		o    Options
		code formwire.Code
	}{
		{Options{Form: &multipart.FormOptions{MaxDiskBytes: 4}}, formwire.MPLimitDiskBytes}, // "hello" goes to disk
		{Options{Multipart: &noFiles}, formwire.MPLimitFiles},
	} {
		h := Middleware(&c.o)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { t.Error("next ran") }))
		r := httptest.NewRequest("POST", "/", bytes.NewReader(b))
		r.Header.Set("Content-Type", e.ContentType())
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 413 || !strings.Contains(w.Body.String(), string(c.code)) {
			t.Fatal(c.code, w.Code, w.Body.String())
		}
	}
}

// A raw header byte E9 is isomorphic-decoded (MP-B-02): the boundary is é,
// looked for as C3 A9.
func TestRawHeaderBoundary(t *testing.T) {
	body := "--b\xc3\xa9\r\nContent-Disposition: form-data; name=a\r\n\r\nv\r\n--b\xc3\xa9--"
	r := httptest.NewRequest("POST", "/", strings.NewReader(body))
	r.Header.Set("Content-Type", "multipart/form-data; boundary=b\xe9")
	if _, err := ParseRequest(r, nil); err != nil || r.FormValue("a") != "v" {
		t.Fatal(err, r.Form)
	}
}

// An empty body (NoBody, as net/http's server and NewRequest give for a zero
// length) is no pairs: r.Form and r.PostForm are set, distinct, and hold the
// query's values only, as after r.ParseForm.
func TestParseRequestEmptyBody(t *testing.T) {
	for _, target := range []string{"/", "/?q=1"} {
		r, _ := http.NewRequest("POST", target, bytes.NewReader(nil))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if r.Body != http.NoBody {
			t.Fatal("http.NewRequest no longer gives NoBody for an empty reader")
		}
		want, _ := http.NewRequest("POST", target, bytes.NewReader(nil))
		want.Header = r.Header
		if err := want.ParseForm(); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseRequest(r, nil); err != nil {
			t.Fatal(err)
		}
		if r.PostForm == nil || r.Form == nil || len(r.PostForm) != 0 || fmt.Sprint(r.Form) != fmt.Sprint(want.Form) {
			t.Fatalf("%s: Form %v PostForm %v, want %v", target, r.Form, r.PostForm, want.Form)
		}
		r.PostForm.Set("x", "1")
		if r.Form.Get("x") != "" {
			t.Fatal("r.Form and r.PostForm are the same map")
		}
		if n := testing.AllocsPerRun(100, func() {
			r.Form, r.PostForm = nil, nil
			ParseRequest(r, nil)
		}); target == "/" && n > 2 {
			t.Fatalf("%v allocations for an empty body, want the two maps only", n)
		}
	}
}

// Reading the body through the MaxBytesReader mapping allocates nothing per
// Read (it allocated 8 bytes per Read: 3,200 times for a 200 MiB upload).
func TestMaxBytesMappingAllocatesNothing(t *testing.T) {
	m := &maxBytesReader{bytes.NewReader(make([]byte, 1<<20)), formwire.MPLimitTotalBytes}
	buf := make([]byte, 64)
	if n := testing.AllocsPerRun(100, func() { m.Read(buf) }); n != 0 {
		t.Fatalf("%v allocations per Read", n)
	}
}

// MP-F-05: with AllowMissingDisposition a nameless part is no form entry
// (r.PostForm has no "" key) but still counts (MP_LIMIT_FIELDS, 413).
func TestParseRequestNamelessPart(t *testing.T) {
	b := "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n" +
		"--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"n.txt\"\r\n\r\nfile\r\n--b\r\n\r\nyy\r\n--b--\r\n"
	o := multipart.DefaultOptions()
	o.AllowMissingDisposition = true
	r := httptest.NewRequest("POST", "/", strings.NewReader(b))
	r.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	form, err := ParseRequest(r, &Options{Multipart: &o})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.PostForm) != 1 || r.PostFormValue("a") != "1" || len(form.Value) != 1 || len(form.File) != 1 || len(form.File["f"]) != 1 {
		t.Fatal(r.PostForm, form.Value, form.File)
	}
	o.MaxFields = 2
	r = httptest.NewRequest("POST", "/", strings.NewReader(b))
	r.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	_, err = ParseRequest(r, &Options{Multipart: &o})
	if !errors.Is(err, formwire.MPLimitFields) || formwire.StatusOf(err) != 413 {
		t.Fatal(err)
	}
}
