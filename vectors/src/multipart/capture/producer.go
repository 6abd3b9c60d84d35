// Writes multipart/form-data bodies with Go's mime/multipart.Writer for the
// formwire capture vectors (vectors/src/multipart/capture.py runs it).
// Usage: go run producer.go <out-dir>
package main

import (
	"bytes"
	"mime/multipart"
	"os"
	"path/filepath"
	"runtime"
)

func write(dir, name string, build func(w *multipart.Writer)) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	build(w)
	if err := w.Close(); err != nil {
		panic(err)
	}
	must(os.WriteFile(filepath.Join(dir, name+".http"), buf.Bytes(), 0o644))
	must(os.WriteFile(filepath.Join(dir, name+".ctype"), []byte(w.FormDataContentType()), 0o644))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func main() {
	dir := os.Args[1]
	must(os.WriteFile(filepath.Join(dir, "go.version"), []byte(runtime.Version()), 0o644))
	// A text field, a field with a newline (sent as is), and a file part.
	write(dir, "go-basic", func(w *multipart.Writer) {
		must(w.WriteField("a", "1"))
		must(w.WriteField("note", "line1\nline2"))
		f, err := w.CreateFormFile("file", "hello.txt")
		must(err)
		_, err = f.Write([]byte("hello\x00\xff\r\n"))
		must(err)
	})
	// Go escapes `"` and `\` with a backslash (quoted-pair) and CR/LF as %0D/%0A.
	write(dir, "go-quote-filename", func(w *multipart.Writer) {
		f, err := w.CreateFormFile("file", "a\"b.txt")
		must(err)
		_, err = f.Write([]byte("x"))
		must(err)
	})
	write(dir, "go-backslash-filename", func(w *multipart.Writer) {
		f, err := w.CreateFormFile("file", "C:\\dir\\a.txt")
		must(err)
		_, err = f.Write([]byte("x"))
		must(err)
	})
	write(dir, "go-newline-name", func(w *multipart.Writer) {
		must(w.WriteField("a\r\nb", "v"))
	})
	// A caller-given boundary with characters that are not token characters:
	// Go quotes it in the Content-Type.
	write(dir, "go-set-boundary", func(w *multipart.Writer) {
		must(w.SetBoundary("a:b=c/d"))
		must(w.WriteField("a", "1"))
	})
}
