package multipart

import (
	"bytes"
	"errors"
	"io"
	stdmultipart "mime/multipart"
	"net/textproto"
	"os"
	"strconv"

	formwire "github.com/formwire/formwire/go"
)

// FormOptions bounds what ReadForm keeps. They are not wire limits (those are
// Options, spec/limits.md) but resources of this machine; each is on by
// default and exceeding one is a *LimitError (errors.Is(err, formwire.ErrLimit),
// HTTP 413).
type FormOptions struct {
	// MaxMemory is how many file bytes, all files together, are kept in
	// memory; a file that does not fit goes to a temp file. Default 32 MiB
	// (net/http's ParseMultipartForm default). Text fields are always in
	// memory, bounded by Options.MaxTotalFieldBytes.
	MaxMemory int64
	// MaxDiskBytes is how many bytes all temp files of one form may hold.
	// Default 10 GiB.
	MaxDiskBytes int64
	// MaxFiles is how many file parts one form may have. Default 1000.
	MaxFiles int64
	// TempDir is where temp files go (os.TempDir when empty). Each is created
	// with os.CreateTemp: mode 0600, owner-only.
	TempDir string
}

// DefaultFormOptions returns the FormOptions defaults.
func DefaultFormOptions() FormOptions {
	return FormOptions{MaxMemory: 32 << 20, MaxDiskBytes: 10 << 30, MaxFiles: 1000}
}

// LimitError is a FormOptions limit exceeded while reading a form.
type LimitError struct {
	Name  string // "MaxMemory", "MaxDiskBytes" or "MaxFiles"
	Limit int64
}

func (e *LimitError) Error() string {
	return "multipart: form exceeds " + e.Name + " (" + strconv.FormatInt(e.Limit, 10) + ")"
}

// Is makes errors.Is(err, formwire.ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == formwire.ErrLimit }

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

// ReadForm reads a whole form from r (see NewReader): fields in memory,
// files in memory up to fo.MaxMemory then in owner-only temp files. On any
// error (a parse error, a limit, a read error such as an aborted upload)
// every temp file already written is removed before it returns. A nil fo
// means DefaultFormOptions.
func ReadForm(r *Reader, fo *FormOptions) (form *Form, err error) {
	opts := DefaultFormOptions()
	if fo != nil {
		opts = *fo
	}
	maxMem, maxDisk, maxFiles := formwire.Lim(opts.MaxMemory), formwire.Lim(opts.MaxDiskBytes), formwire.Lim(opts.MaxFiles)
	form = &Form{Value: map[string][]string{}, File: map[string][]*FileHeader{}}
	defer func() {
		if err != nil {
			form.RemoveAll()
			form = nil
		}
	}()
	var mem, disk, files int64
	var field bytes.Buffer
	for {
		part, err := r.NextPart()
		if err == io.EOF {
			return form, nil
		}
		if err != nil {
			return form, err
		}
		if !part.IsFile {
			field.Reset()
			if _, err := part.WriteTo(&field); err != nil {
				return form, err
			}
			form.Value[part.Name] = append(form.Value[part.Name], DecodeLossy(field.Bytes()))
			continue
		}
		files++
		if files > maxFiles {
			return form, &LimitError{"MaxFiles", opts.MaxFiles}
		}
		h := part.Head()
		fh := &FileHeader{Filename: part.Filename, Header: textproto.MIMEHeader{}, ContentType: h.Type()}
		for i := 0; i < h.NumHeaders(); i++ {
			n, v := h.Header(i)
			k := textproto.CanonicalMIMEHeaderKey(string(n))
			fh.Header[k] = append(fh.Header[k], DecodeLossy(v))
		}
		// In memory while it fits; the first byte that does not moves it to disk.
		var buf []byte
		var tmp *os.File
		for {
			d, derr := part.data()
			if derr == io.EOF {
				break
			}
			if derr != nil {
				if tmp != nil {
					tmp.Close()
				}
				return form, derr
			}
			if tmp == nil && mem+int64(len(d)) <= maxMem {
				buf = append(buf, d...)
				mem += int64(len(d))
				continue
			}
			if tmp == nil {
				tmp, err = os.CreateTemp(opts.TempDir, "formwire-*")
				if err != nil {
					return form, err
				}
				form.temps = append(form.temps, tmp.Name())
				fh.tmpfile = tmp.Name()
				mem -= int64(len(buf))
				disk += int64(len(buf))
				if _, err := tmp.Write(buf); err != nil {
					tmp.Close()
					return form, err
				}
				buf = nil
			}
			disk += int64(len(d))
			if disk > maxDisk {
				tmp.Close()
				return form, &LimitError{"MaxDiskBytes", opts.MaxDiskBytes}
			}
			if _, err := tmp.Write(d); err != nil {
				tmp.Close()
				return form, err
			}
		}
		if tmp != nil {
			st, serr := tmp.Stat()
			cerr := tmp.Close()
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
		form.File[part.Name] = append(form.File[part.Name], fh)
	}
}
