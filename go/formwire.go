// Package formwire holds what every formwire format shares: the typed error
// with its stable code and byte offset (spec/errors.md), the codes as
// sentinels for errors.Is, and the limit defaults of spec/limits.md, all
// generated from spec/registry.json (registry_gen.go).
//
// The formats live in sub-packages: multipart (sans-IO parser, io.Reader
// adapter, ReadForm, Encoder), urlencoded (WHATWG parser and serializer) and
// formhttp (net/http integration).
package formwire

import (
	"errors"
	"strconv"
)

// Unlimited is the value of a limit that is off.
const Unlimited int64 = -1

// Code is a stable error code of spec/errors.md. A Code is an error itself,
// so each constant is a sentinel: errors.Is(err, formwire.MPTruncated).
type Code string

// Error returns the code's string.
func (c Code) Error() string { return string(c) }

// Kind is the class of a code: what the input did wrong, and so what an HTTP
// server answers (Status).
type Kind int

// The kinds of spec/registry.json. ErrLimit, ErrMalformed, ErrUnsupported and
// ErrEncode are their sentinels for errors.Is.
const (
	KindMalformed Kind = iota + 1
	KindUnsupported
	KindLimit
	KindEncode
)

// Error is the kind's sentinel error, so errors.Is(err, formwire.ErrLimit)
// asks "was a limit exceeded?".
func (k Kind) Error() string {
	switch k {
	case KindMalformed:
		return "formwire: malformed input"
	case KindUnsupported:
		return "formwire: unsupported input"
	case KindLimit:
		return "formwire: limit exceeded"
	case KindEncode:
		return "formwire: cannot encode"
	}
	return "formwire: unknown kind"
}

// Sentinels for errors.Is by kind.
var (
	ErrMalformed   error = KindMalformed
	ErrUnsupported error = KindUnsupported
	ErrLimit       error = KindLimit
	ErrEncode      error = KindEncode
)

// Kind returns the code's kind (0 for a code not in the registry).
func (c Code) Kind() Kind { return codeInfo[c].kind }

// Status is the HTTP status a server answers for this code: 413 for a limit,
// 400 for malformed input, 0 for an encoder error.
func (c Code) Status() int { return codeInfo[c].status }

// LimitInfo describes one named limit of spec/limits.md.
type LimitInfo struct {
	Name   string // the spec name, e.g. "max_parts"
	Format string // "multipart", "urlencoded" or "clone"
	// Layer is "core" (the parser's Options take it) or "form" (only the
	// spooling form readers, e.g. multipart.ReadForm's max_disk_bytes).
	Layer   string
	Default int64
	Code    Code // the error when it is exceeded
}

// Error is a formwire error: a stable Code, the byte Offset it points at
// (spec/errors.md says what for each code; for encoder errors the index of
// the entry) and a human Message that is not part of the contract.
type Error struct {
	Code    Code
	Offset  int64
	Message string
}

// New returns an *Error with the code's default message.
func New(code Code, offset int64) *Error {
	return &Error{Code: code, Offset: offset}
}

// Error formats the error as "formwire: CODE at offset N: message".
func (e *Error) Error() string {
	s := "formwire: " + string(e.Code) + " at offset " + strconv.FormatInt(e.Offset, 10)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Is makes errors.Is match the error's Code and its Kind.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case Kind:
		return t == e.Code.Kind()
	case *Error:
		return t.Code == e.Code && t.Offset == e.Offset
	}
	return false
}

// Status is the HTTP status for this error (Code.Status).
func (e *Error) Status() int { return e.Code.Status() }

// StatusOf is the HTTP status for any error: a formwire code's status, 413
// for any other error of kind limit (errors.Is(err, ErrLimit), e.g. a form's
// disk limit), 400 for other malformed input, else 0 (not the client's fault
// as far as formwire knows, e.g. a read error).
func StatusOf(err error) int {
	var fe *Error
	switch {
	case errors.As(err, &fe):
		return fe.Status()
	case errors.Is(err, ErrLimit):
		return 413
	case errors.Is(err, ErrMalformed):
		return 400
	}
	return 0
}

// Lim turns a limit of Options into a comparable bound: Unlimited (or any
// negative value) becomes the largest int64.
func Lim(v int64) int64 {
	if v < 0 {
		return 1<<63 - 1
	}
	return v
}
