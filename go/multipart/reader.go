package multipart

import (
	"errors"
	"io"
	"iter"
)

// DefaultBufferSize is the read buffer of a Reader made by NewReader.
const DefaultBufferSize = 64 << 10

// Reader reads the parts of a multipart/form-data body from an io.Reader,
// in the shape of mime/multipart.Reader: NextPart until io.EOF. Every limit
// of Options applies while streaming (std's NextPart has no part limit), and
// the memory used is the read buffer plus one header block, whatever the
// body's size.
type Reader struct {
	src     io.Reader
	p       *Parser
	buf     []byte
	pending []byte // data of the current part not yet handed out
	part    *Part
	srcDone bool
	err     error
	ended   bool   // End seen
	names   arena  // Part.Name and Filename strings, many per allocation
	empty   int    // consecutive empty reads
	slab    []Part // Parts are cut from slabs: one allocation for many parts
}

// NewReader returns a Reader over r for a request Content-Type header value
// as net/http gives it (raw bytes; they are isomorphic-decoded, MP-B-02). An
// error here is MP_CONTENT_TYPE, MP_BOUNDARY or MP_LIMIT_BOUNDARY (MP-B-01..04).
// A nil o means DefaultOptions.
func NewReader(r io.Reader, contentType string, o *Options) (*Reader, error) {
	return NewReaderBuffer(r, contentType, o, nil)
}

// NewReaderBuffer is NewReader reading into buf (DefaultBufferSize bytes are
// allocated when buf is nil or shorter than 4 KiB). The Reader writes into
// buf and hands out views of it (Part.WriteTo); the caller may reuse buf once
// it is done with the Reader.
func NewReaderBuffer(r io.Reader, contentType string, o *Options, buf []byte) (*Reader, error) {
	p, err := NewParser(ContentTypeLatin1(contentType), o)
	if err != nil {
		return nil, err
	}
	if len(buf) < 4<<10 {
		buf = make([]byte, DefaultBufferSize)
	}
	return &Reader{src: r, p: p, buf: buf}, nil
}

// Parser is the Reader's sans-IO parser (for Offset and Head).
func (r *Reader) Parser() *Parser { return r.p }

// event returns the next parser event, reading from the source as needed.
// It never returns None.
func (r *Reader) event() (Event, error) {
	for {
		ev, err := r.p.Next()
		if err != nil {
			return ev, err
		}
		if ev.Kind != None {
			return ev, nil
		}
		if r.srcDone {
			if r.p.Done() {
				return Event{}, io.EOF
			}
			return Event{}, io.ErrUnexpectedEOF // unreachable: Finish reports MP_TRUNCATED
		}
		n, rerr := r.src.Read(r.buf)
		if n > 0 {
			r.p.Feed(r.buf[:n])
			r.empty = 0
		} else if rerr == nil {
			// A reader that keeps returning nothing (as bufio does).
			if r.empty++; r.empty >= 100 {
				return Event{}, io.ErrNoProgress
			}
		}
		if rerr == io.EOF {
			if n == 0 {
				r.p.Finish()
				r.srcDone = true
			}
			continue
		}
		if rerr != nil {
			return Event{}, rerr
		}
	}
}

// NextPart returns the next part, or io.EOF after the close delimiter (the
// epilogue is read and counted towards MaxTotalBytes, MP-L-03). The previous
// part's unread data is skipped. A parse error is a *formwire.Error; it ends
// the Reader.
func (r *Reader) NextPart() (*Part, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.part != nil {
		r.part.done = true
		r.part = nil
	}
	r.pending = nil
	for {
		ev, err := r.event()
		if err != nil {
			if err == io.EOF && r.ended {
				r.err = io.EOF
				return nil, io.EOF
			}
			r.err = err
			return nil, err
		}
		switch ev.Kind {
		case PartStart:
			h := r.p.Head()
			if len(r.slab) == 0 {
				r.slab = make([]Part, 64)
			}
			// The slab is zeroed: only the fields that are set are written
			// (a whole-struct store costs a bulk write barrier during GC).
			part := &r.slab[0]
			r.slab = r.slab[1:]
			part.r = r
			part.Name = r.names.text(h.NameBytes())
			if h.Nameless() {
				part.Nameless = true
			}
			if h.IsFile() {
				part.IsFile = true
				part.Filename = r.names.text(h.FilenameBytes())
			}
			if ct, ok := h.ContentType(); ok {
				part.ContentType = r.names.str(ct)
			}
			r.part = part
			return part, nil
		case End:
			r.ended = true
		}
	}
}

// Parts iterates over the parts (Go 1.23 range-over-func): each step yields
// a part, or a final error (never io.EOF).
func (r *Reader) Parts() iter.Seq2[*Part, error] {
	return func(yield func(*Part, error) bool) {
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				return
			}
			if !yield(p, err) || err != nil {
				return
			}
		}
	}
}

// Part is one part being read. It is an io.Reader and an io.WriterTo: with
// io.Copy(dst, part) the body goes from the Reader's buffer straight to dst
// (std's Part copies it twice). It is valid until the next NextPart.
type Part struct {
	r *Reader
	// Name is the name parameter (MP-H-10), Filename the filename parameter
	// ("" when absent: see IsFile), ContentType the raw last Content-Type
	// value ("" when absent).
	Name, Filename, ContentType string
	IsFile                      bool
	// Nameless: a part without a name (AllowMissingDisposition, MP-H-06);
	// Name is "". NextPart delivers it; ReadForm skips it (MP-F-05).
	Nameless bool
	done     bool
}

// FormName is Name (mime/multipart.Part's spelling).
func (p *Part) FormName() string { return p.Name }

// FileName is Filename (mime/multipart.Part's spelling), never path-stripped.
func (p *Part) FileName() string { return p.Filename }

// Head is the part's full header block (valid until the next NextPart).
func (p *Part) Head() *Head {
	if p.r.part != p {
		return nil
	}
	return p.r.p.Head()
}

// errPartDone is returned by a Part read after NextPart moved on.
var errPartDone = errors.New("multipart: part read after NextPart")

// data returns the next body bytes of the part, or io.EOF at its end.
func (p *Part) data() ([]byte, error) {
	if p.done {
		return nil, errPartDone
	}
	r := p.r
	if len(r.pending) > 0 {
		d := r.pending
		r.pending = nil
		return d, nil
	}
	if r.err != nil {
		return nil, r.err
	}
	ev, err := r.event()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		r.err = err
		return nil, err
	}
	switch ev.Kind {
	case Data:
		return ev.Data, nil
	case PartEnd:
		p.done = true
		return nil, io.EOF
	}
	return nil, nil
}

// Read reads body bytes (io.Reader). A parse error (e.g. MP_LIMIT_FILE_BYTES)
// is returned as is: the body was not complete.
func (p *Part) Read(b []byte) (int, error) {
	if p.done {
		return 0, io.EOF
	}
	for {
		d, err := p.data()
		if err != nil {
			return 0, err
		}
		if len(d) == 0 {
			continue
		}
		n := copy(b, d)
		if n < len(d) {
			p.r.pending = d[n:]
		}
		return n, nil
	}
}

// WriteTo writes the rest of the body to w, straight from the read buffer
// (io.WriterTo, used by io.Copy).
func (p *Part) WriteTo(w io.Writer) (int64, error) {
	var total int64
	if p.done {
		return 0, nil
	}
	for {
		d, err := p.data()
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
		if len(d) == 0 {
			continue
		}
		n, werr := w.Write(d)
		total += int64(n)
		if werr != nil {
			if n < len(d) {
				p.r.pending = d[n:]
			}
			return total, werr
		}
	}
}

// Close skips the rest of the part.
func (p *Part) Close() error {
	for !p.done {
		if _, err := p.data(); err != nil && err != io.EOF {
			return err
		}
	}
	return nil
}
