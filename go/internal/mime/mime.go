// Package mime is the WHATWG MIME type parser and serializer (MIME Sniffing
// §4.4, §4.5) and Fetch's "extract a MIME type", over isomorphic-decoded
// strings: each byte of a header value is one code point (MP-B-02).
package mime

import (
	"strings"
	"unicode/utf8"
)

// Type is a parsed MIME type: lowercase type and subtype, parameters in
// order (first occurrence of a name kept).
type Type struct {
	Type, Subtype string
	Params        [][2]string
}

func isHTTPWS(c rune) bool { return c == '\n' || c == '\r' || c == '\t' || c == ' ' }

// IsToken reports whether c is an HTTP token code point (RFC 9110 §5.6.2).
func IsToken(c rune) bool {
	if c >= 0x80 {
		return false
	}
	return tokenTable[c]
}

var tokenTable = func() (t [128]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-32] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return
}()

// TokenByte reports whether b is an RFC 9110 token byte.
func TokenByte(b byte) bool { return b < 0x80 && tokenTable[b] }

func isQuotedToken(c rune) bool {
	return c == 0x09 || (c >= 0x20 && c <= 0x7E) || (c >= 0x80 && c <= 0xFF)
}

func allToken(s []rune) bool {
	for _, c := range s {
		if !IsToken(c) {
			return false
		}
	}
	return true
}

func lower(s []rune) string {
	b := make([]byte, 0, len(s))
	for _, c := range s {
		if c >= 'A' && c <= 'Z' {
			c += 32
		}
		b = utf8.AppendRune(b, c)
	}
	return string(b)
}

// collectQuoted is Fetch's "collect an HTTP quoted string" at input[pos]
// ('"'): the value (extract) or the raw text, and the position after it.
func collectQuoted(in []rune, pos int, extract bool) (string, int) {
	start := pos
	var v []rune
	pos++
	for {
		for pos < len(in) && in[pos] != '"' && in[pos] != '\\' {
			v = append(v, in[pos])
			pos++
		}
		if pos >= len(in) {
			break
		}
		q := in[pos]
		pos++
		if q == '\\' {
			if pos >= len(in) {
				v = append(v, '\\')
				break
			}
			v = append(v, in[pos])
			pos++
		} else {
			break
		}
	}
	if extract {
		return string(v), pos
	}
	return string(in[start:pos]), pos
}

// Param returns the value of the parameter name (lowercase) and whether it exists.
func (t *Type) Param(name string) (string, bool) {
	for _, p := range t.Params {
		if p[0] == name {
			return p[1], true
		}
	}
	return "", false
}

func (t *Type) setParam(name, value string) {
	for i := range t.Params {
		if t.Params[i][0] == name {
			t.Params[i][1] = value
			return
		}
	}
	t.Params = append(t.Params, [2]string{name, value})
}

// Essence is "type/subtype".
func (t *Type) Essence() string { return t.Type + "/" + t.Subtype }

// Parse parses a MIME type string (MIME Sniffing §4.4); ok is false on failure.
func Parse(s string) (*Type, bool) { return parseRunes([]rune(s)) }

// ParseLatin1 parses header bytes, isomorphic-decoded (one byte per code point).
func ParseLatin1(b []byte) (*Type, bool) { return parseRunes(latin1(b)) }

func latin1(b []byte) []rune {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return r
}

func parseRunes(in []rune) (*Type, bool) {
	lo, hi := 0, len(in)
	for lo < hi && isHTTPWS(in[lo]) {
		lo++
	}
	for hi > lo && isHTTPWS(in[hi-1]) {
		hi--
	}
	in = in[lo:hi]
	pos := 0
	for pos < len(in) && in[pos] != '/' {
		pos++
	}
	typ := in[:pos]
	if len(typ) == 0 || !allToken(typ) || pos >= len(in) {
		return nil, false
	}
	pos++
	start := pos
	for pos < len(in) && in[pos] != ';' {
		pos++
	}
	sub := in[start:pos]
	for len(sub) > 0 && isHTTPWS(sub[len(sub)-1]) {
		sub = sub[:len(sub)-1]
	}
	if len(sub) == 0 || !allToken(sub) {
		return nil, false
	}
	t := &Type{Type: lower(typ), Subtype: lower(sub)}
	for pos < len(in) {
		pos++
		for pos < len(in) && isHTTPWS(in[pos]) {
			pos++
		}
		start := pos
		for pos < len(in) && in[pos] != ';' && in[pos] != '=' {
			pos++
		}
		nameR := in[start:pos]
		if pos < len(in) {
			if in[pos] == ';' {
				continue
			}
			pos++
		}
		if pos >= len(in) {
			break
		}
		var value string
		if in[pos] == '"' {
			value, pos = collectQuoted(in, pos, true)
			for pos < len(in) && in[pos] != ';' {
				pos++
			}
		} else {
			start := pos
			for pos < len(in) && in[pos] != ';' {
				pos++
			}
			v := in[start:pos]
			for len(v) > 0 && isHTTPWS(v[len(v)-1]) {
				v = v[:len(v)-1]
			}
			if len(v) == 0 {
				continue
			}
			value = string(v)
		}
		name := lower(nameR)
		if len(nameR) == 0 || !allToken(nameR) {
			continue
		}
		okv := true
		for _, c := range value {
			if !isQuotedToken(c) {
				okv = false
				break
			}
		}
		if _, dup := t.Param(name); okv && !dup {
			t.Params = append(t.Params, [2]string{name, value})
		}
	}
	return t, true
}

// String serializes the type (MIME Sniffing §4.5).
func (t *Type) String() string {
	var b strings.Builder
	b.WriteString(t.Type)
	b.WriteByte('/')
	b.WriteString(t.Subtype)
	for _, p := range t.Params {
		b.WriteByte(';')
		b.WriteString(p[0])
		b.WriteByte('=')
		tok := p[1] != ""
		for _, c := range p[1] {
			if !IsToken(c) {
				tok = false
				break
			}
		}
		if tok {
			b.WriteString(p[1])
			continue
		}
		b.WriteByte('"')
		for _, c := range p[1] {
			if c == '"' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
		}
		b.WriteByte('"')
	}
	return b.String()
}

// getDecodeSplit is Fetch's "get, decode, and split" over the values of one
// header name, joined with ", ".
func getDecodeSplit(values [][]byte) [][]rune {
	var in []rune
	for i, v := range values {
		if i > 0 {
			in = append(in, ',', ' ')
		}
		in = append(in, latin1(v)...)
	}
	var out [][]rune
	var temp []rune
	pos := 0
	for {
		for pos < len(in) && in[pos] != '"' && in[pos] != ',' {
			temp = append(temp, in[pos])
			pos++
		}
		if pos < len(in) && in[pos] == '"' {
			raw, p := collectQuoted(in, pos, false)
			temp = append(temp, []rune(raw)...)
			pos = p
			if pos < len(in) {
				continue
			}
		}
		lo, hi := 0, len(temp)
		for lo < hi && (temp[lo] == ' ' || temp[lo] == '\t') {
			lo++
		}
		for hi > lo && (temp[hi-1] == ' ' || temp[hi-1] == '\t') {
			hi--
		}
		out = append(out, append([]rune(nil), temp[lo:hi]...))
		temp = temp[:0]
		if pos >= len(in) {
			return out
		}
		pos++
	}
}

// Extract is Fetch's "extract a MIME type" over a part's Content-Type values
// (MP-F-03); ok is false when no piece parses.
func Extract(values [][]byte) (*Type, bool) {
	var charset, essence string
	var haveCharset, haveEssence bool
	var res *Type
	for _, piece := range getDecodeSplit(values) {
		bad := false
		for _, c := range piece {
			if c >= 0x80 {
				bad = true
				break
			}
		}
		if bad {
			continue
		}
		t, ok := parseRunes(piece)
		if !ok {
			continue
		}
		e := t.Essence()
		if e == "*/*" {
			continue
		}
		if !haveEssence || essence != e {
			charset, haveCharset = t.Param("charset")
			essence, haveEssence = e, true
		} else if _, has := t.Param("charset"); !has && haveCharset {
			t.setParam("charset", charset)
		}
		res = t
	}
	return res, res != nil
}
