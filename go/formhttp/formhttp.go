// Package formhttp puts formwire under net/http: ParseRequest fills r.Form
// and r.PostForm the way Request.ParseForm does, so r.FormValue and
// r.PostFormValue keep working, with formwire's parsers (WHATWG urlencoded,
// limits on by default, coded errors) and without net/http's ReadAll +
// string(b) + url.ParseQuery copies (golang/go#14655).
//
// What differs from net/http, on purpose:
//   - urlencoded bodies and the query are read the WHATWG way: ';' is data
//     (ParseQuery drops the pair and fails), a bad '%' stays literal (ParseQuery
//     drops the pair), names and values are UTF-8 decoded with U+FFFD
//     (spec/urlencoded.md UE-D-01..04).
//   - multipart files are not in r.MultipartForm: mime/multipart.FileHeader
//     cannot be built outside the standard library (its content fields are
//     unexported), so r.FormFile cannot see them. Use the returned
//     *multipart.Form's FormFile, or FormFile(r, key) under Middleware.
//     r.MultipartForm gets the text values (File empty), so r.FormValue works
//     and net/http never parses the body a second time.
//   - errors are *formwire.Error with an offset and an HTTP status
//     (formwire.StatusOf); a body cut by http.MaxBytesReader is the total
//     limit of its format (MP_LIMIT_TOTAL_BYTES / UE_LIMIT_BYTES, 413) at the
//     MaxBytesReader's limit.
package formhttp

import (
	"context"
	"errors"
	"io"
	stdmultipart "mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/internal/mime"
	"github.com/formwire/formwire/go/multipart"
	"github.com/formwire/formwire/go/urlencoded"
)

// Options configures ParseRequest. A nil *Options, or a nil field, means the
// defaults of that format.
type Options struct {
	Multipart  *multipart.Options
	URLEncoded *urlencoded.Options
	Form       *multipart.FormOptions
}

// defaults is what a nil *Options means (only read).
var defaults Options

// maxBytesReader maps a *http.MaxBytesError from the body to the format's
// total limit, so the answer is a coded 413 like every other limit.
type maxBytesReader struct {
	r    io.Reader
	code formwire.Code
}

func (m *maxBytesReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	if err != nil && err != io.EOF {
		// Declared here: &mb escapes, so it costs an allocation per Read.
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			err = &formwire.Error{Code: m.code, Offset: mb.Limit, Message: "request body larger than http.MaxBytesReader's limit"}
		}
	}
	return n, err
}

// Body buffers (golang/go#14655). When the request says its length, the
// body is read into one buffer of that size (plus one byte, to see a body
// over the limit) and decoded in place: the strings in r.Form alias that
// buffer, so the text is never copied again (net/http copies it three times:
// ReadAll, string(b), unescape). That buffer belongs to the parsed values
// and is never reused.
//
// Bodies of unknown length (chunked) are read into a buffer from pool and
// decoded into a new allocation. On golang/go#21516 rsc warns that a pooled
// buffer handed to a user io.Reader may be retained by it. Decision: the
// pooled buffer goes only to r.Body.Read, whose io.Reader contract forbids
// retaining p; nothing the caller gets aliases it (urlencoded.ParseValues
// copies); and buffers that grew past 4 MiB are dropped, not pooled, so the
// pool never pins a large body.
var pool = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

const poolKeep = 4 << 20

// readInto appends all of body to b, at most limit bytes in total.
func readInto(b []byte, body io.Reader, limit int64) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		room := cap(b) - len(b)
		if left := limit - int64(len(b)); left < int64(room) {
			room = int(left)
		}
		if room <= 0 {
			return b, nil
		}
		n, err := body.Read(b[len(b) : len(b)+room])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

func release(bp *[]byte) {
	if cap(*bp) > poolKeep {
		return
	}
	*bp = (*bp)[:0]
	pool.Put(bp)
}

// ParseRequest parses r's query and, for POST, PUT and PATCH, its body
// (application/x-www-form-urlencoded or multipart/form-data), filling
// r.PostForm with the body's values and r.Form with the body's values then
// the query's, as Request.ParseForm does; r.FormValue and r.PostFormValue
// then read them. For a multipart body it returns the *multipart.Form (files
// included; call RemoveAll when done), else nil. Other content types leave
// the body alone, like net/http. On error r.Form and r.PostForm hold what was
// parsed before it (as net/http does), and the body may be partly read.
func ParseRequest(r *http.Request, o *Options) (*multipart.Form, error) {
	if o == nil {
		o = &defaults
	}
	var form *multipart.Form
	var bodyErr error
	if r.Body != nil && (r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch) {
		ct := r.Header.Get("Content-Type")
		essence := essenceOf(ct)
		switch {
		case essence == "application/x-www-form-urlencoded" && r.Body == http.NoBody:
			// No body (net/http's server and NewRequest give NoBody for a
			// zero length): no pairs, nothing to read or buffer.
		case essence == "application/x-www-form-urlencoded":
			var vs url.Values
			vs, bodyErr = parseURLEncodedBody(r, o.URLEncoded)
			if len(r.PostForm) == 0 && vs != nil {
				r.PostForm = vs
			} else {
				for k, v := range vs {
					r.PostForm[k] = append(r.PostForm[k], v...)
				}
			}
		case essence == "multipart/form-data":
			form, bodyErr = parseMultipartBody(r, ct, o)
		}
	}
	if r.PostForm == nil {
		r.PostForm = url.Values{}
	}
	if r.Form == nil {
		var query url.Values
		if r.URL != nil && r.URL.RawQuery != "" {
			qo := urlencoded.DefaultOptions()
			if o.URLEncoded != nil {
				qo = *o.URLEncoded
			}
			var qerr error
			query, qerr = urlencoded.ParseValues([]byte(r.URL.RawQuery), &qo)
			if bodyErr == nil {
				bodyErr = qerr
			}
		}
		// Body values first, then the query's (net/http's order). The slices
		// are shared with r.PostForm with their capacity cut, so appending to
		// one copies it instead of writing into the other.
		r.Form = make(url.Values, len(r.PostForm)+len(query))
		for k, v := range r.PostForm {
			r.Form[k] = v[:len(v):len(v)]
		}
		for k, v := range query {
			r.Form[k] = append(r.Form[k], v...)
		}
	}
	return form, bodyErr
}

func parseURLEncodedBody(r *http.Request, uo *urlencoded.Options) (url.Values, error) {
	opts := urlencoded.DefaultOptions()
	if uo != nil {
		opts = *uo
	}
	// One byte past MaxBytes is enough for the parser to report UE_LIMIT_BYTES.
	limit := formwire.Lim(opts.MaxBytes)
	if limit < 1<<63-1 {
		limit++
	}
	body := &maxBytesReader{r.Body, formwire.UELimitBytes}
	if r.ContentLength > 0 {
		b, err := readInto(make([]byte, 0, min(r.ContentLength+1, limit)), body, limit)
		if err != nil {
			return nil, err
		}
		return urlencoded.ParseValuesInPlace(b, &opts)
	}
	bp := pool.Get().(*[]byte)
	b, err := readInto((*bp)[:0], body, limit)
	*bp = b
	defer release(bp)
	if err != nil {
		return nil, err
	}
	return urlencoded.ParseValues(b, &opts)
}

func parseMultipartBody(r *http.Request, ct string, o *Options) (*multipart.Form, error) {
	mr, err := multipart.NewReader(&maxBytesReader{r.Body, formwire.MPLimitTotalBytes}, ct, o.Multipart)
	if err != nil {
		return nil, err
	}
	form, err := multipart.ReadForm(mr, o.Form)
	if err != nil {
		return nil, err
	}
	if len(r.PostForm) == 0 {
		r.PostForm = form.Value
	} else {
		for k, v := range form.Value {
			r.PostForm[k] = append(r.PostForm[k], v...)
		}
	}
	// net/http's FormValue and FormFile parse only while MultipartForm is nil:
	// the values are here, the files only in form (see the package doc).
	r.MultipartForm = &stdmultipart.Form{Value: form.Value, File: map[string][]*stdmultipart.FileHeader{}}
	return form, nil
}

// essenceOf is the MIME essence of a Content-Type (MIME Sniffing §4.4), with
// a shortcut for the exact spellings clients send (no allocation).
func essenceOf(ct string) string {
	for _, e := range [...]string{"application/x-www-form-urlencoded", "multipart/form-data"} {
		if len(ct) >= len(e) && strings.EqualFold(ct[:len(e)], e) && (len(ct) == len(e) || ct[len(e)] == ';') {
			return e
		}
	}
	t, ok := mime.Parse(multipart.ContentTypeLatin1(ct))
	if !ok {
		return ""
	}
	return t.Essence()
}

type ctxKey struct{}

// Middleware parses every request with ParseRequest before next runs. A
// parse error is answered with its HTTP status (413 for a limit, 400 for
// malformed input) and next is not called. The multipart form is available
// to next through FormFile and FormOf, and its temp files are removed when
// next returns.
func Middleware(o *Options) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			form, err := ParseRequest(r, o)
			if err != nil {
				status := formwire.StatusOf(err)
				if status == 0 {
					status = http.StatusBadRequest
				}
				http.Error(w, err.Error(), status)
				return
			}
			if form != nil {
				defer form.RemoveAll()
				r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, form))
			}
			next.ServeHTTP(w, r)
		})
	}
}

// FormOf returns the multipart form Middleware parsed for r, or nil.
func FormOf(r *http.Request) *multipart.Form {
	f, _ := r.Context().Value(ctxKey{}).(*multipart.Form)
	return f
}

// FormFile is r.FormFile for requests parsed by Middleware: the first file
// under key, its header, or multipart.ErrMissingFile.
func FormFile(r *http.Request, key string) (stdmultipart.File, *multipart.FileHeader, error) {
	return FormOf(r).FormFile(key)
}
