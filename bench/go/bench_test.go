// Package bench compares formwire's Go module with the standard library on the
// shared workloads (bench/lib/gen.py; peers.md W1, W2, W4, W5) and the seed
// benchmark of golang/go#14655. Run it with bench/go/run, which generates the
// inputs, runs every benchmark 5 times and prints medians with CPU time.
//
// Each benchmark reports ns/op (wall), B/op and allocs/op, plus cpu-ns/op:
// the process's user+system CPU time per op (getrusage), which includes the
// garbage collector's work on other threads.
package bench

import (
	"bytes"
	"encoding/json"
	"io"
	stdmultipart "mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/formhttp"
	"github.com/formwire/formwire/go/multipart"
	"github.com/formwire/formwire/go/urlencoded"
)

var dir = func() string {
	if d := os.Getenv("FORMWIRE_BENCH_DIR"); d != "" {
		return d
	}
	return "../.work/full"
}()

type workload struct {
	ID          string `json:"id"`
	File        string `json:"file"`
	Boundary    string `json:"boundary"`
	ContentType string `json:"content_type"`
	Fields      string `json:"fields"`
	Blob        string `json:"blob"`
	BlobName    string `json:"blob_name"`
	BlobType    string `json:"blob_type"`
	Expect      struct {
		Parts     int    `json:"parts"`
		Files     int    `json:"files"`
		FileBytes int64  `json:"file_bytes"`
		Pairs     int    `json:"pairs"`
		Bytes     int64  `json:"bytes"`
		SHA256    string `json:"sha256"`
	} `json:"expect"`
	body []byte
}

var loaded = map[string]*workload{}

func load(b *testing.B, id string) *workload {
	if w, ok := loaded[id]; ok {
		return w
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		b.Skipf("no inputs in %s (run bench/go/run, which generates them): %v", dir, err)
	}
	var m struct{ Workloads []*workload }
	if err := json.Unmarshal(raw, &m); err != nil {
		b.Fatal(err)
	}
	for _, w := range m.Workloads {
		if w.ID == id {
			if w.File != "" {
				if w.body, err = os.ReadFile(filepath.Join(dir, w.File)); err != nil {
					b.Fatal(err)
				}
			}
			loaded[id] = w
			return w
		}
	}
	b.Fatalf("workload %s not in the manifest", id)
	return nil
}

// chunked returns at most 64 KiB per Read, as a socket does (the harness's
// feeding rule for Go and Java).
type chunked struct {
	b []byte
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), 64<<10, len(c.b))
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

func cpuNanos() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// run times fn b.N times and reports CPU time per op beside the wall time.
func run(b *testing.B, size int, fn func()) {
	b.ReportAllocs()
	b.SetBytes(int64(size))
	fn() // warm-up (and the result check of the caller)
	b.ResetTimer()
	c0 := cpuNanos()
	for i := 0; i < b.N; i++ {
		fn()
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuNanos()-c0)/float64(b.N), "cpu-ns/op")
}

// --- W1, W2: streaming multipart ---------------------------------------------------------------------------

func mpOptions() *multipart.Options {
	o := multipart.DefaultOptions()
	o.MaxParts = 100_000
	o.MaxFields = 100_000
	o.MaxFiles = 100_000
	return &o
}

func formwireReader(b *testing.B, w *workload) func() {
	return func() {
		r, err := multipart.NewReader(&chunked{w.body}, w.ContentType, mpOptions())
		if err != nil {
			b.Fatal(err)
		}
		parts := 0
		var fileBytes int64
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n, err := io.Copy(io.Discard, p)
			if err != nil {
				b.Fatal(err)
			}
			if p.IsFile {
				fileBytes += n
			}
			parts++
		}
		if parts != w.Expect.Parts || fileBytes != w.Expect.FileBytes {
			b.Fatalf("%d parts, %d file bytes", parts, fileBytes)
		}
	}
}

func stdReader(b *testing.B, w *workload) func() {
	return func() {
		r := stdmultipart.NewReader(&chunked{w.body}, w.Boundary)
		parts := 0
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, p); err != nil {
				b.Fatal(err)
			}
			parts++
		}
		if parts != w.Expect.Parts {
			b.Fatalf("%d parts", parts)
		}
	}
}

// request is what a server hands a handler: the body arriving in reads of
// at most 64 KiB, and the Content-Length header's value in ContentLength.
func request(w *workload, ct string) *http.Request {
	r := httptest.NewRequest("POST", "/", &chunked{w.body})
	r.Header.Set("Content-Type", ct)
	r.ContentLength = int64(len(w.body))
	return r
}

func formwireParseRequest(b *testing.B, w *workload) func() {
	o := &formhttp.Options{Multipart: mpOptions()}
	return func() {
		r := request(w, w.ContentType)
		form, err := formhttp.ParseRequest(r, o)
		if err != nil {
			b.Fatal(err)
		}
		if n := count(form.Value) + countFiles(form.File); n != w.Expect.Parts {
			b.Fatalf("%d entries", n)
		}
		form.RemoveAll()
	}
}

func stdParseMultipartForm(b *testing.B, w *workload) func() {
	return func() {
		r := request(w, w.ContentType)
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			b.Fatal(err)
		}
		if n := count(r.MultipartForm.Value) + countFiles(r.MultipartForm.File); n != w.Expect.Parts {
			b.Fatalf("%d entries", n)
		}
		r.MultipartForm.RemoveAll()
	}
}

func count(m map[string][]string) (n int) {
	for _, v := range m {
		n += len(v)
	}
	return
}

func countFiles[T any](m map[string][]T) (n int) {
	for _, v := range m {
		n += len(v)
	}
	return
}

func BenchmarkW1(b *testing.B) {
	w := load(b, "W1")
	b.Run("formwire-Reader", func(b *testing.B) { run(b, len(w.body), formwireReader(b, w)) })
	b.Run("std-Reader", func(b *testing.B) { run(b, len(w.body), stdReader(b, w)) })
	b.Run("formwire-ParseRequest", func(b *testing.B) { run(b, len(w.body), formwireParseRequest(b, w)) })
	b.Run("std-ParseMultipartForm", func(b *testing.B) { run(b, len(w.body), stdParseMultipartForm(b, w)) })
	// The floor of any parser reading an io.Reader: every byte arrives
	// through Read into the parser's buffer (the copy the io.Reader
	// contract forces; it also loads every byte once). ref-read+Index adds
	// the standard library's search (assembly bytes.Index over each read):
	// what a parser built on bytes.Index cannot go below; not a floor, a
	// faster search can.
	needle := []byte("\r\n--" + w.Boundary + "X")
	buf := make([]byte, 64<<10)
	b.Run("floor-read", func(b *testing.B) {
		run(b, len(w.body), func() {
			src := &chunked{w.body}
			var n int64
			for {
				k, err := src.Read(buf)
				n += int64(k)
				if err == io.EOF {
					break
				}
			}
			if n != int64(len(w.body)) {
				b.Fatal(n)
			}
		})
	})
	b.Run("ref-read+Index", func(b *testing.B) {
		run(b, len(w.body), func() {
			src := &chunked{w.body}
			for {
				k, err := src.Read(buf)
				if err == io.EOF {
					break
				}
				//lint:ignore S1003 this floor is bytes.Index itself, the search a parser makes
				if bytes.Index(buf[:k], needle) >= 0 {
					b.Fatal("needle found")
				}
			}
		})
	})
	// What every form reader that stores the file pays on top: the bytes
	// read as above and written to a temp file (the page cache's copy), the
	// file removed. No search: a floor under ParseRequest and
	// ParseMultipartForm alike.
	b.Run("floor-read+tempfile", func(b *testing.B) {
		run(b, len(w.body), func() {
			f, err := os.CreateTemp("", "floor-*")
			if err != nil {
				b.Fatal(err)
			}
			src := &chunked{w.body}
			var n int64
			for {
				k, err := src.Read(buf)
				if err == io.EOF {
					break
				}
				m, err := f.Write(buf[:k])
				if err != nil {
					b.Fatal(err)
				}
				n += int64(m)
			}
			f.Close()
			os.Remove(f.Name())
			if n != int64(len(w.body)) {
				b.Fatal(n)
			}
		})
	})
}

func BenchmarkW2(b *testing.B) {
	w := load(b, "W2")
	b.Run("formwire-Reader", func(b *testing.B) { run(b, len(w.body), formwireReader(b, w)) })
	b.Run("std-Reader", func(b *testing.B) { run(b, len(w.body), stdReader(b, w)) })
	b.Run("formwire-ParseRequest", func(b *testing.B) { run(b, len(w.body), formwireParseRequest(b, w)) })
	b.Run("std-ParseMultipartForm", func(b *testing.B) { run(b, len(w.body), stdParseMultipartForm(b, w)) })
}

// --- W4 and the seed: urlencoded through net/http ------------------------------------------------------------

func ueOptions() *formhttp.Options {
	o := urlencoded.DefaultOptions()
	o.MaxPairs = formwire.Unlimited
	return &formhttp.Options{URLEncoded: &o}
}

func BenchmarkW4(b *testing.B) {
	w := load(b, "W4")
	o := ueOptions()
	b.Run("formwire-ParseRequest", func(b *testing.B) {
		run(b, len(w.body), func() {
			r := request(w, "application/x-www-form-urlencoded")
			if _, err := formhttp.ParseRequest(r, o); err != nil || len(r.PostForm) != w.Expect.Pairs {
				b.Fatal(err, len(r.PostForm))
			}
		})
	})
	b.Run("std-ParseForm", func(b *testing.B) {
		run(b, len(w.body), func() {
			r := request(w, "application/x-www-form-urlencoded")
			if err := r.ParseForm(); err != nil || len(r.PostForm) != w.Expect.Pairs {
				b.Fatal(err, len(r.PostForm))
			}
		})
	})
	b.Run("formwire-urlencoded.Parse", func(b *testing.B) {
		uo := urlencoded.Options{MaxPairs: -1, MaxBytes: -1}
		run(b, len(w.body), func() {
			if ps, err := urlencoded.Parse(w.body, &uo); err != nil || len(ps) != w.Expect.Pairs {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkParsePostForm is golang/go#14655's benchmark (bodies of zero
// bytes, RunParallel), with formwire's ParseRequest beside r.ParseForm.
func BenchmarkParsePostForm(b *testing.B) {
	for _, size := range []int{0, 1000, 10_000_000} {
		body := make([]byte, size)
		// Floor: what every row must do besides decoding the text: the
		// request itself, and the two maps ParseForm leaves (r.PostForm,
		// r.Form: distinct, one key each when the body has a pair) holding
		// a string that already exists (no copy of the text).
		key := string(body)
		b.Run("floor-NewRequest+maps/"+sizeName(size), func(b *testing.B) {
			b.ReportAllocs()
			c0 := cpuNanos()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r, _ := http.NewRequest("POST", "/test", bytes.NewReader(body))
					r.Header.Add("Content-Type", "application/x-www-form-urlencoded")
					r.PostForm, r.Form = url.Values{}, url.Values{}
					if size > 0 {
						r.PostForm[key] = []string{""}
						r.Form[key] = r.PostForm[key][:1:1]
					}
				}
			})
			b.ReportMetric(float64(cpuNanos()-c0)/float64(b.N), "cpu-ns/op")
		})
		for _, impl := range []string{"formwire-ParseRequest", "std-ParseForm"} {
			b.Run(impl+"/"+sizeName(size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(size))
				c0 := cpuNanos()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						r, _ := http.NewRequest("POST", "/test", bytes.NewReader(body))
						r.Header.Add("Content-Type", "application/x-www-form-urlencoded")
						var err error
						if impl == "std-ParseForm" {
							err = r.ParseForm()
						} else {
							_, err = formhttp.ParseRequest(r, nil)
						}
						if err != nil {
							b.Error(err)
						}
					}
				})
				b.ReportMetric(float64(cpuNanos()-c0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

func sizeName(n int) string {
	switch {
	case n >= 1_000_000:
		return strconv.Itoa(n/1_000_000) + "MB"
	case n >= 1000:
		return strconv.Itoa(n/1000) + "KB"
	}
	return strconv.Itoa(n) + "B"
}

// --- W5: serialize ------------------------------------------------------------------------------------------

func BenchmarkW5(b *testing.B) {
	w := load(b, "W5")
	raw, err := os.ReadFile(filepath.Join(dir, w.Fields))
	if err != nil {
		b.Fatal(err)
	}
	var fields [][2]string
	json.Unmarshal(raw, &fields)
	blob, err := os.ReadFile(filepath.Join(dir, w.Blob))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("formwire-Encoder", func(b *testing.B) {
		run(b, int(w.Expect.Bytes), func() {
			e, _ := multipart.NewEncoderBoundary(w.Boundary)
			for _, f := range fields {
				e.AddField(f[0], f[1])
			}
			e.AddFileBytes("file", w.BlobName, w.BlobType, blob)
			out, err := e.Bytes()
			if err != nil || int64(len(out)) != w.Expect.Bytes {
				b.Fatal(err, len(out))
			}
		})
	})
	b.Run("std-Writer", func(b *testing.B) {
		run(b, int(w.Expect.Bytes), func() {
			var buf bytes.Buffer
			mw := stdmultipart.NewWriter(&buf)
			mw.SetBoundary(w.Boundary)
			for _, f := range fields {
				mw.WriteField(f[0], f[1])
			}
			fw, _ := mw.CreateFormFile("file", w.BlobName)
			fw.Write(blob)
			mw.Close()
			// Same bytes as WHATWG here: plain names, octet-stream (std cannot say
			// otherwise through CreateFormFile), no Content-Length.
			if int64(buf.Len()) != w.Expect.Bytes {
				b.Fatal(buf.Len(), w.Expect.Bytes)
			}
		})
	})
	// Streaming: the same form written to an io.Writer (a socket in real use).
	b.Run("formwire-Encoder.WriteTo", func(b *testing.B) {
		run(b, int(w.Expect.Bytes), func() {
			e, _ := multipart.NewEncoderBoundary(w.Boundary)
			for _, f := range fields {
				e.AddField(f[0], f[1])
			}
			e.AddFileBytes("file", w.BlobName, w.BlobType, blob)
			if n, err := e.WriteTo(io.Discard); err != nil || n != w.Expect.Bytes {
				b.Fatal(err, n)
			}
		})
	})
	b.Run("std-Writer.io.Discard", func(b *testing.B) {
		run(b, int(w.Expect.Bytes), func() {
			mw := stdmultipart.NewWriter(io.Discard)
			mw.SetBoundary(w.Boundary)
			for _, f := range fields {
				mw.WriteField(f[0], f[1])
			}
			fw, _ := mw.CreateFormFile("file", w.BlobName)
			fw.Write(blob)
			mw.Close()
		})
	})
	b.Run("floor-copy", func(b *testing.B) {
		dst := make([]byte, 0, w.Expect.Bytes)
		run(b, int(w.Expect.Bytes), func() {
			dst = append(dst[:0], blob...)
		})
	})
}
