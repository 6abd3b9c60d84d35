package multipart

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
	"unsafe"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/internal/mime"
	"github.com/formwire/formwire/go/internal/text"
)

// Encoder writes multipart/form-data the WHATWG way (HTML "multipart/form-data
// encoding algorithm", UTF-8; MP-S-01..10). Unlike mime/multipart.Writer it
// escapes names and filenames as browsers do (`"` as %22, CR/LF as %0D/%0A;
// Writer writes `\"`, which MP-H-07 reads differently), gives the
// Content-Length before the first byte (ContentLength), and never copies a
// file body: framing and text values are rendered into one buffer as entries
// are added, bodies are only referenced.
//
// Use it as an io.WriterTo, as an io.Reader (Reader, e.g. for
// http.NewRequest), or get the bytes (Bytes).
type Encoder struct {
	boundary string
	buf      []byte
	segs     []segment
	size     int64 // -1 once a body of unknown size was added
	entries  int
	closed   bool
	mark     int // buf[mark:] is in no segment yet
}

const (
	segBuf uint8 = iota // buf[a:b]
	segBytes
	segReader
)

// segment is buf[a:b], a body in memory, or a streamed body.
type segment struct {
	kind uint8
	a, b int
	body []byte
	r    io.Reader
	n    int64 // size of r, -1 unknown
}

// NewEncoder returns an encoder with a fresh random boundary (MP-S-09):
// "----formwire-" and 32 base-62 characters from crypto/rand (190 bits).
func NewEncoder() *Encoder {
	e := &Encoder{boundary: RandomBoundary()}
	return e
}

// NewEncoderBoundary returns an encoder with a caller-given boundary: 1 to 70
// characters of RFC 2046 bchars, not ending in a space, else MP_ENCODE_BOUNDARY
// (MP-S-09). A guessable boundary lets a value inject parts (MP-S-04): prefer
// NewEncoder.
func NewEncoderBoundary(boundary string) (*Encoder, error) {
	if !validBoundary(boundary) {
		return nil, &formwire.Error{Code: formwire.MPEncodeBoundary, Message: "boundary must be 1-70 bchars, not ending in a space"}
	}
	return &Encoder{boundary: boundary}, nil
}

func validBoundary(b string) bool {
	if len(b) == 0 || len(b) > 70 || b[len(b)-1] == ' ' {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("'()+_,-./:=? ", c) >= 0) {
			return false
		}
	}
	return true
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// RandomBoundary returns "----formwire-" and 32 base-62 characters drawn
// uniformly from crypto/rand: a byte is used only when below 248 (4 x 62),
// so every character is equally likely (rejection sampling, MP-S-09).
func RandomBoundary() string {
	return randomBoundary(rand.Reader)
}

func randomBoundary(src io.Reader) string {
	out := make([]byte, 0, 13+32)
	out = append(out, "----formwire-"...)
	var buf [48]byte
	for len(out) < cap(out) {
		if _, err := io.ReadFull(src, buf[:]); err != nil {
			panic("multipart: crypto/rand failed: " + err.Error())
		}
		for _, c := range buf {
			if c < 248 && len(out) < cap(out) {
				out = append(out, base62[c%62])
			}
		}
	}
	return string(out)
}

// Boundary returns the boundary.
func (e *Encoder) Boundary() string { return e.boundary }

// ContentType is the request Content-Type: the boundary as a MIME parameter
// value, quoted when it is not a token (MP-S-10).
func (e *Encoder) ContentType() string {
	tok := true
	for i := 0; i < len(e.boundary); i++ {
		if !mime.TokenByte(e.boundary[i]) {
			tok = false
		}
	}
	if tok {
		return "multipart/form-data; boundary=" + e.boundary
	}
	return `multipart/form-data; boundary="` + e.boundary + `"`
}

// usv replaces invalid UTF-8 with U+FFFD: form strings are scalar value
// strings (MP-S-07).
func usv(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return text.Lossy([]byte(s))
}

// appendEscaped: MP-S-02 (names, normalize first) and MP-S-03 (filenames).
func appendEscaped(dst []byte, s string, normalize bool) []byte {
	s = usv(s)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			if normalize {
				dst = append(dst, "%0D%0A"...)
				if i+1 < len(s) && s[i+1] == '\n' {
					i++
				}
			} else {
				dst = append(dst, "%0D"...)
			}
		case '\n':
			if normalize {
				dst = append(dst, "%0D%0A"...)
			} else {
				dst = append(dst, "%0A"...)
			}
		case '"':
			dst = append(dst, "%22"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func (e *Encoder) head(name string) {
	e.buf = append(e.buf, "--"...)
	e.buf = append(e.buf, e.boundary...)
	e.buf = append(e.buf, "\r\nContent-Disposition: form-data; name=\""...)
	e.buf = appendEscaped(e.buf, name, true)
	e.buf = append(e.buf, '"')
}

// flushSeg puts buf[mark:] into a segment, extending the last one when it
// is the buffer run just before.
func (e *Encoder) flushSeg() {
	if len(e.buf) == e.mark {
		return
	}
	if n := len(e.segs); n > 0 && e.segs[n-1].kind == segBuf && e.segs[n-1].b == e.mark {
		e.segs[n-1].b = len(e.buf)
	} else {
		e.segs = append(e.segs, segment{kind: segBuf, a: e.mark, b: len(e.buf)})
	}
	e.mark = len(e.buf)
}

// AddField adds a string entry. The value's newlines become CRLF (MP-S-04);
// nothing else is escaped.
func (e *Encoder) AddField(name, value string) {
	e.mustOpen()
	e.entries++
	e.head(name)
	e.buf = append(e.buf, "\r\n\r\n"...)
	value = usv(value)
	for i := 0; i < len(value); i++ {
		switch c := value[i]; c {
		case '\r':
			e.buf = append(e.buf, '\r', '\n')
			if i+1 < len(value) && value[i+1] == '\n' {
				i++
			}
		case '\n':
			e.buf = append(e.buf, '\r', '\n')
		default:
			e.buf = append(e.buf, c)
		}
	}
	e.buf = append(e.buf, '\r', '\n')
	e.flushSeg()
}

func (e *Encoder) mustOpen() {
	if e.closed {
		panic("multipart: Encoder used after it was written")
	}
}

func (e *Encoder) fileHead(name, filename, contentType string) error {
	if strings.ContainsAny(contentType, "\r\n\x00") { // MP-S-06
		return &formwire.Error{Code: formwire.MPEncodeHeader, Offset: int64(e.entries), Message: "content type holds CR, LF or NUL"}
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	e.head(name)
	e.buf = append(e.buf, "; filename=\""...)
	e.buf = appendEscaped(e.buf, filename, false)
	e.buf = append(e.buf, "\"\r\nContent-Type: "...)
	e.buf = append(e.buf, usv(contentType)...)
	e.buf = append(e.buf, "\r\n\r\n"...)
	e.flushSeg()
	return nil
}

func (e *Encoder) tail() {
	e.buf = append(e.buf, '\r', '\n')
	e.flushSeg()
}

// AddFileBytes adds a File entry whose bytes are body (written as they are,
// never copied). An empty contentType is sent as application/octet-stream;
// one holding CR, LF or NUL is MP_ENCODE_HEADER (offset: the entry's index).
func (e *Encoder) AddFileBytes(name, filename, contentType string, body []byte) error {
	e.mustOpen()
	if err := e.fileHead(name, filename, contentType); err != nil {
		return err
	}
	e.entries++
	e.segs = append(e.segs, segment{kind: segBytes, body: body})
	if e.size >= 0 {
		e.size += int64(len(body))
	}
	e.tail()
	return nil
}

// AddBlob adds a Blob entry (a File named "blob", MP-S-05).
func (e *Encoder) AddBlob(name, contentType string, body []byte) error {
	return e.AddFileBytes(name, "blob", contentType, body)
}

// AddFile adds a File entry streamed from r. size is the number of bytes r
// will give, or -1 when unknown (then ContentLength is unknown too). With a
// size, r giving more or fewer bytes is an error when writing (the announced
// Content-Length would be wrong).
func (e *Encoder) AddFile(name, filename, contentType string, r io.Reader, size int64) error {
	e.mustOpen()
	if err := e.fileHead(name, filename, contentType); err != nil {
		return err
	}
	e.entries++
	if size < 0 {
		e.size = -1
		size = -1
	} else if e.size >= 0 {
		e.size += size
	}
	e.segs = append(e.segs, segment{kind: segReader, r: r, n: size})
	e.tail()
	return nil
}

func (e *Encoder) closing() {
	if e.closed {
		return
	}
	e.closed = true
	e.buf = append(e.buf, "--"...)
	e.buf = append(e.buf, e.boundary...)
	e.buf = append(e.buf, "--\r\n"...)
	e.flushSeg()
}

// ContentLength is the body's length, known before any byte is written
// whenever every body's size is (MP-S-08); ok is false otherwise.
func (e *Encoder) ContentLength() (n int64, ok bool) {
	if e.size < 0 {
		return 0, false
	}
	total := int64(len(e.buf)) + int64(len("--")+len(e.boundary)+len("--\r\n"))
	if e.closed {
		total = int64(len(e.buf))
	}
	return total + e.size, true
}

// errSize: a streamed body gave another number of bytes than announced.
var errSize = errors.New("multipart: a streamed file gave a different number of bytes than its size")

// WriteTo writes the whole body to w (io.WriterTo). The encoder cannot take
// entries afterwards, and can be written only once when it streams a reader.
func (e *Encoder) WriteTo(w io.Writer) (int64, error) {
	e.closing()
	var total int64
	for _, s := range e.segs {
		var n int64
		var err error
		switch s.kind {
		case segReader:
			if s.n >= 0 {
				n, err = io.Copy(w, io.LimitReader(s.r, s.n))
				if err == nil && n != s.n {
					err = fmt.Errorf("%w: %d of %d", errSize, n, s.n)
				}
				if err == nil {
					var one [1]byte
					if m, _ := io.ReadFull(s.r, one[:]); m > 0 {
						err = errSize
					}
				}
			} else {
				n, err = io.Copy(w, s.r)
			}
		case segBytes:
			var m int
			m, err = w.Write(s.body)
			n = int64(m)
		default:
			var m int
			m, err = w.Write(e.buf[s.a:s.b])
			n = int64(m)
		}
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Bytes returns the whole body in one slice.
func (e *Encoder) Bytes() ([]byte, error) {
	e.closing()
	n, _ := e.ContentLength()
	w := &sliceWriter{makeNoZero(int(n))}
	_, err := e.WriteTo(w)
	// Capacity cut to the length: nothing past what was written is reachable.
	return w.b[:len(w.b):len(w.b)], err
}

// makeNoZero returns an empty slice with capacity n whose memory is not
// cleared first (make clears it: for W5's 10 MiB body that is a third of
// Bytes' time). strings.Builder.Grow allocates without clearing; the slice
// is a view of that allocation, which nothing else references. Every byte
// is written by append before it is part of the slice.
func makeNoZero(n int) []byte {
	if n < 64<<10 {
		return make([]byte, 0, n)
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0)
	return unsafe.Slice(unsafe.StringData(sb.String()), n)[:0]
}

type sliceWriter struct{ b []byte }

func (s *sliceWriter) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}

// Reader returns the body as an io.Reader, produced as it is read (no
// goroutine, no copy of file bodies beyond the reader's own Read), e.g. for
// http.NewRequest with req.ContentLength = ContentLength().
func (e *Encoder) Reader() io.Reader {
	e.closing()
	return &encReader{e: e}
}

type encReader struct {
	e   *Encoder
	i   int   // current segment
	off int64 // bytes of it already read
}

func (r *encReader) Read(p []byte) (int, error) {
	for r.i < len(r.e.segs) {
		s := r.e.segs[r.i]
		if s.kind == segReader {
			want := len(p)
			if s.n >= 0 {
				if left := s.n - r.off; int64(want) > left {
					want = int(left)
				}
				if want == 0 {
					// Announced size reached: the reader must be at its end.
					var one [1]byte
					if m, _ := io.ReadFull(s.r, one[:]); m > 0 {
						return 0, errSize
					}
					r.i, r.off = r.i+1, 0
					continue
				}
			}
			n, err := s.r.Read(p[:want])
			r.off += int64(n)
			if err == io.EOF {
				if s.n >= 0 && r.off != s.n {
					return n, errSize
				}
				r.i, r.off = r.i+1, 0
				err = nil
			}
			if n > 0 || err != nil {
				return n, err
			}
			continue
		}
		src := s.body
		if s.kind == segBuf {
			src = r.e.buf[s.a:s.b]
		}
		if r.off >= int64(len(src)) {
			r.i, r.off = r.i+1, 0
			continue
		}
		n := copy(p, src[r.off:])
		r.off += int64(n)
		return n, nil
	}
	return 0, io.EOF
}
