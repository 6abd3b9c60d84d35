package multipart

import (
	"bytes"
	"errors"
	"io"
	stdmultipart "mime/multipart"
	"net/textproto"
	"os"
	"unicode/utf8"
	"unsafe"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/internal/text"
)

// FormOptions bounds what ReadForm keeps on this machine. The wire limits,
// file and field counts included (max_files, max_fields: MP-L-05), are the
// Reader's Options; MaxDiskBytes is the registry's form-layer limit
// max_disk_bytes (MP-L-06), on by default, and exceeding it is a
// *formwire.Error with code MP_LIMIT_DISK_BYTES (errors.Is(err,
// formwire.ErrLimit), HTTP 413), like every other limit.
type FormOptions struct {
	// MaxMemory is how many file bytes, all files together, are kept in
	// memory; a file that does not fit goes to a temp file. Default 32 MiB
	// (net/http's ParseMultipartForm default). Text fields are always in
	// memory, bounded by Options.MaxTotalFieldBytes.
	MaxMemory int64
	// MaxFileMemory is the largest file kept in memory: a bigger one goes
	// to its temp file as soon as it passes this size, instead of being
	// buffered up to MaxMemory first. Default 1 MiB.
	MaxFileMemory int64
	// MaxDiskBytes (max_disk_bytes, MP-L-06) is how many bytes all temp
	// files of one form may hold; formwire.Unlimited turns it off. Default
	// formwire.DefaultMultipartMaxDiskBytes (10 GiB).
	MaxDiskBytes int64
	// TempDir is where temp files go (os.TempDir when empty). Each is created
	// with os.CreateTemp: mode 0600, owner-only.
	TempDir string
}

// DefaultFormOptions returns the FormOptions defaults.
func DefaultFormOptions() FormOptions {
	return FormOptions{MaxMemory: 32 << 20, MaxFileMemory: 1 << 20, MaxDiskBytes: formwire.DefaultMultipartMaxDiskBytes}
}

// Form is a parsed form: text fields in Value (MP-F-01: UTF-8 with U+FFFD),
// files in File, both in body order under each name (MP-F-04). Call RemoveAll
// when done to delete its temp files.
type Form struct {
	Value map[string][]string
	File  map[string][]*FileHeader
	temps []string
}

// FormFile returns the first file under key, in the shape of
// http.Request.FormFile: the open file, its header, or http.ErrMissingFile's
// twin ErrMissingFile.
func (f *Form) FormFile(key string) (stdmultipart.File, *FileHeader, error) {
	if f == nil || len(f.File[key]) == 0 {
		return nil, nil, ErrMissingFile
	}
	fh := f.File[key][0]
	file, err := fh.Open()
	if err != nil {
		return nil, nil, err
	}
	return file, fh, nil
}

// ErrMissingFile is returned by FormFile when the form has no such file.
var ErrMissingFile = errors.New("multipart: no such file")

// RemoveAll deletes the form's temp files.
func (f *Form) RemoveAll() error {
	var first error
	for _, t := range f.temps {
		if err := os.Remove(t); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = err
		}
	}
	f.temps = nil
	return first
}

// FileHeader describes a file part of a Form. It mirrors
// mime/multipart.FileHeader, which cannot be used here: its content and temp
// file fields are unexported, so no package outside the standard library can
// make one whose Open works.
type FileHeader struct {
	Filename    string
	Header      textproto.MIMEHeader
	Size        int64
	ContentType string // the File type of MP-F-03 (text/plain when absent)
	content     []byte
	tmpfile     string
}

// Open opens the file's bytes: from memory, or its temp file.
func (fh *FileHeader) Open() (stdmultipart.File, error) {
	if fh.tmpfile != "" {
		return os.Open(fh.tmpfile)
	}
	return sectionFile{io.NewSectionReader(bytes.NewReader(fh.content), 0, int64(len(fh.content)))}, nil
}

type sectionFile struct{ *io.SectionReader }

func (sectionFile) Close() error { return nil }

// arena hands out strings cut from shared 64 KiB chunks: one allocation for
// many short names and values instead of one each. A chunk is only appended
// to, never rewritten, so the strings stay valid.
type arena struct {
	buf  []byte
	vals []string
}

func (a *arena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 4<<10 {
		return string(b)
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		a.buf = make([]byte, 0, 64<<10)
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	return unsafe.String(&a.buf[start], len(b))
}

// text is the MP-F-01 string of b (UTF-8 with U+FFFD), from the arena.
func (a *arena) text(b []byte) string {
	if utf8.Valid(b) {
		return a.str(b)
	}
	return text.Lossy(b)
}

// one returns a one-element slice for v, cut from a shared backing array
// with its capacity cut (appending to it copies).
func (a *arena) one(v string) []string {
	if len(a.vals) == 0 {
		a.vals = make([]string, 256)
	}
	a.vals[0] = v
	s := a.vals[:1:1]
	a.vals = a.vals[1:]
	return s
}

type fieldValue struct{ name, value string }

// fieldList holds fields in blocks of 256 (growing one slice would copy
// every field about once more).
type fieldList struct {
	blocks [][]fieldValue
	n      int
}

func (l *fieldList) add(f fieldValue) {
	if k := len(l.blocks); k == 0 || len(l.blocks[k-1]) == cap(l.blocks[k-1]) {
		l.blocks = append(l.blocks, make([]fieldValue, 0, 256))
	}
	b := &l.blocks[len(l.blocks)-1]
	*b = append(*b, f)
	l.n++
}

// values builds Form.Value from the fields in body order (MP-F-04): one map
// sized for every field, each name's values in one slice.
func (a *arena) values(fields *fieldList) map[string][]string {
	m := make(map[string][]string, fields.n)
	for _, b := range fields.blocks {
		for _, f := range b {
			if old := m[f.name]; old != nil {
				m[f.name] = append(old, f.value)
			} else {
				m[f.name] = a.one(f.value)
			}
		}
	}
	return m
}

// ReadForm reads a whole form from r (see NewReader), from its current
// position: fields in memory (bounded by Options.MaxTotalFieldBytes), files
// in memory up to fo.MaxMemory then in owner-only temp files. On any error (a
// parse error, a limit, a read error such as an aborted upload) every temp
// file already written is removed before it returns. A nameless part
// (AllowMissingDisposition) is skipped after the limits counted it (MP-F-05).
// A nil fo means DefaultFormOptions.
func ReadForm(r *Reader, fo *FormOptions) (form *Form, err error) {
	opts := DefaultFormOptions()
	if fo != nil {
		opts = *fo
	}
	maxMem, maxDisk := formwire.Lim(opts.MaxMemory), formwire.Lim(opts.MaxDiskBytes)
	maxFileMem := formwire.Lim(opts.MaxFileMemory)
	form = &Form{Value: map[string][]string{}, File: map[string][]*FileHeader{}}
	var tmp *os.File
	defer func() {
		if tmp != nil {
			tmp.Close()
		}
		if err != nil {
			form.RemoveAll()
			form = nil
		}
	}()
	if r.err != nil {
		return form, r.err
	}
	// The part NextPart handed out last (if any) is skipped.
	skip := r.part != nil && !r.part.done
	if r.part != nil {
		r.part.done = true
		r.part = nil
	}
	r.pending = nil
	var a arena
	var mem, disk int64
	// The current file's body offset and the temp files' total before it
	// (MP-L-06: a file moved to disk counts from its first byte).
	var fileStart, diskBefore int64
	var field []byte
	// Text fields in body order; the map is built once at the end, sized
	// for all of them (growing it field by field rehashes it ~log2(n) times).
	var fields fieldList
	var fh *FileHeader
	var buf []byte
	isFile := false
	for {
		ev, err := r.event()
		if err != nil {
			if err == io.EOF && r.ended {
				r.err = io.EOF
				form.Value = a.values(&fields)
				return form, nil
			}
			r.err = err
			return form, err
		}
		switch ev.Kind {
		case PartStart:
			h := r.p.Head()
			// MP-F-05: a nameless part is no entry; its body is read (and
			// counted by the parser's limits) and dropped, never spooled.
			if skip = h.Nameless(); skip {
				continue
			}
			isFile = h.IsFile()
			if !isFile {
				field = field[:0]
				continue
			}
			fileStart, diskBefore = h.BodyOffset(), disk
			fh = &FileHeader{Filename: h.Filename(), Header: textproto.MIMEHeader{}, ContentType: h.Type()}
			for i := 0; i < h.NumHeaders(); i++ {
				n, v := h.Header(i)
				// The display decoding of names too (MP-H-11: bytes 80-FF with AllowUtf8HeaderNames).
				k := textproto.CanonicalMIMEHeaderKey(DecodeLossy(n))
				fh.Header[k] = append(fh.Header[k], DecodeLossy(v))
			}
			buf = nil
		case Data:
			d := ev.Data
			switch {
			case skip:
			case !isFile:
				field = append(field, d...)
			case tmp == nil && mem+int64(len(d)) <= maxMem && int64(len(buf)+len(d)) <= maxFileMem:
				// In memory while it fits; the first byte that does not moves it to disk.
				buf = append(buf, d...)
				mem += int64(len(d))
			default:
				if tmp == nil {
					if tmp, err = os.CreateTemp(opts.TempDir, "formwire-*"); err != nil {
						return form, err
					}
					form.temps = append(form.temps, tmp.Name())
					fh.tmpfile = tmp.Name()
					mem -= int64(len(buf))
					disk += int64(len(buf))
					if _, err := tmp.Write(buf); err != nil {
						return form, err
					}
					buf = nil
				}
				disk += int64(len(d))
				if disk > maxDisk { // MP-L-06, at the file's byte that makes the total max_disk_bytes + 1
					return form, &formwire.Error{Code: formwire.MPLimitDiskBytes, Offset: fileStart + maxDisk - diskBefore,
						Message: "temp files longer than max_disk_bytes"}
				}
				if _, err := tmp.Write(d); err != nil {
					return form, err
				}
			}
		case PartEnd:
			if skip {
				skip = false
				continue
			}
			h := r.p.Head()
			name := h.NameBytes()
			if !isFile {
				fields.add(fieldValue{a.text(name), a.text(field)})
				continue
			}
			if tmp != nil {
				st, serr := tmp.Stat()
				cerr := tmp.Close()
				tmp = nil
				if serr != nil {
					return form, serr
				}
				if cerr != nil {
					return form, cerr
				}
				fh.Size = st.Size()
			} else {
				fh.content = buf
				fh.Size = int64(len(buf))
			}
			k := a.text(name)
			form.File[k] = append(form.File[k], fh)
		case End:
			r.ended = true
		}
	}
}
