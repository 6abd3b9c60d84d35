package formhttp_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/formhttp"
	"github.com/formwire/formwire/go/multipart"
)

// An upload handler that streams each file part to disk as it arrives, in
// constant memory, with every limit on. Errors carry their HTTP status.
func Example_uploadHandler() {
	dir, _ := os.MkdirTemp("", "uploads")
	defer os.RemoveAll(dir)

	upload := func(w http.ResponseWriter, r *http.Request) {
		opts := multipart.DefaultOptions()
		opts.MaxFileBytes = 1 << 30 // this server's policy
		mr, err := multipart.NewReader(r.Body, r.Header.Get("Content-Type"), &opts)
		if err != nil {
			http.Error(w, err.Error(), formwire.StatusOf(err))
			return
		}
		for part, err := range mr.Parts() {
			if err != nil {
				http.Error(w, err.Error(), formwire.StatusOf(err))
				return
			}
			if !part.IsFile {
				continue
			}
			f, err := os.CreateTemp(dir, "upload-*")
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			n, err := io.Copy(f, part) // Part is an io.WriterTo: no extra copy
			f.Close()
			if err != nil {
				os.Remove(f.Name())
				http.Error(w, err.Error(), formwire.StatusOf(err))
				return
			}
			fmt.Fprintf(w, "%s: %d bytes\n", filepath.Base(part.Filename), n)
		}
	}

	enc := multipart.NewEncoder()
	enc.AddField("title", "holiday")
	enc.AddFile("photo", "beach.jpg", "image/jpeg", strings.NewReader(strings.Repeat("J", 300_000)), 300_000)
	req := httptest.NewRequest("POST", "/upload", enc.Reader())
	req.Header.Set("Content-Type", enc.ContentType())
	w := httptest.NewRecorder()
	upload(w, req)
	fmt.Print(w.Body.String())
	// Output: beach.jpg: 300000 bytes
}

// ParseRequest in an existing handler: r.FormValue and r.PostFormValue keep
// working, with WHATWG parsing and limits on.
func ExampleParseRequest() {
	handler := func(w http.ResponseWriter, r *http.Request) {
		if _, err := formhttp.ParseRequest(r, nil); err != nil {
			http.Error(w, err.Error(), formwire.StatusOf(err))
			return
		}
		fmt.Fprintf(w, "q=%s name=%s tags=%q", r.FormValue("q"), r.PostFormValue("name"), r.PostForm["tag"])
	}
	req := httptest.NewRequest("POST", "/?q=search", strings.NewReader("name=Ada+Lovelace&tag=a%3Bb&tag=caf%C3%A9"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	handler(w, req)
	fmt.Println(w.Body.String())
	// Output: q=search name=Ada Lovelace tags=["a;b" "café"]
}

// Posting a form with a streamed file: the Content-Length is known before the
// first byte, and the file is read only while the request is sent.
func Example_postForm() {
	srv := httptest.NewServer(formhttp.Middleware(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, fh, err := formhttp.FormFile(r, "report")
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		defer f.Close()
		n, _ := io.Copy(io.Discard, f)
		fmt.Fprintf(w, "%s %s %d bytes, length %d", r.FormValue("owner"), fh.Filename, n, r.ContentLength)
	})))
	defer srv.Close()

	enc := multipart.NewEncoder()
	enc.AddField("owner", "ops")
	data := strings.Repeat("row\n", 50_000)
	enc.AddFile("report", "report.csv", "text/csv", strings.NewReader(data), int64(len(data)))
	req, _ := http.NewRequest("POST", srv.URL, enc.Reader())
	req.Header.Set("Content-Type", enc.ContentType())
	req.ContentLength, _ = enc.ContentLength()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	fmt.Println(string(out), req.ContentLength > int64(len(data)))
	// Output: ops report.csv 200000 bytes, length 200300 true
}
