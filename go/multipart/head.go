package multipart

import (
	"bytes"
	"slices"
	"strings"

	"github.com/formwire/formwire/go/internal/mime"
	"github.com/formwire/formwire/go/internal/text"
)

// parseDisposition reads the Content-Disposition value hbuf[vs:ve] into
// p.disp (MP-H-07..09): the literal reading of quoted-strings first, the
// quoted-pair reading when that fails; AllowQuotedPairs reverses the order.
// With AllowAnyDispositionType the type may be any token; with
// Allow8bitParameterNames a parameter name may hold bytes 80-FF; with
// AllowRfc2231Continuations a filename may be joined from filename*N.
func (p *Parser) parseDisposition(vs, ve int) bool {
	if p.browserForm(vs, ve) {
		return true
	}
	first := p.opts.AllowQuotedPairs
	mark := len(p.hbuf)
	if p.parseDispositionAs(vs, ve, first) {
		return true
	}
	p.hbuf = p.hbuf[:mark]
	return p.parseDispositionAs(vs, ve, !first)
}

// browserForm reads the two shapes browsers send, `form-data; name="n"` and
// `form-data; name="n"; filename="f"`, without the general grammar. It
// gives what the literal reading gives, so it answers only when that is the
// reading chosen: always by default, and with AllowQuotedPairs only when the
// value holds no backslash (then both readings agree).
func (p *Parser) browserForm(vs, ve int) bool {
	const name, filename = `form-data; name="`, `; filename="`
	v := p.hbuf[vs:ve]
	if len(v) < len(name) || string(v[:len(name)]) != name {
		return false
	}
	if p.opts.AllowQuotedPairs && bytes.IndexByte(v, '\\') >= 0 {
		return false
	}
	rest := v[len(name):]
	q := bytes.IndexByte(rest, '"')
	if q < 0 {
		return false
	}
	a := vs + len(name)
	d := disposition{name: span{a, a + q}}
	after := rest[q+1:]
	if len(after) > 0 {
		if len(after) < len(filename) || string(after[:len(filename)]) != filename {
			return false
		}
		f := after[len(filename):]
		// The filename's closing quote must end the value.
		if len(f) == 0 || bytes.IndexByte(f, '"') != len(f)-1 {
			return false
		}
		d.hasFilename = true
		d.filename = span{ve - len(f), ve - 1}
	}
	p.disp = d
	return true
}

func skipOWS(v []byte, i int) int {
	for i < len(v) && (v[i] == sp || v[i] == ht) {
		i++
	}
	return i
}

func tokenEnd(v []byte, i int) int {
	for i < len(v) && mime.TokenByte(v[i]) {
		i++
	}
	return i
}

// parseDispositionAs parses with one reading for the whole value. Unescaped
// quoted-pair values are appended to hbuf (spans index it).
func (p *Parser) parseDispositionAs(vs, ve int, pairs bool) bool {
	d := disposition{}
	p.segs = p.segs[:0]
	v := p.hbuf[vs:ve:ve]
	t := tokenEnd(v, 0)
	if p.opts.AllowAnyDispositionType {
		if t == 0 { // MP-H-07: any type, but a token
			return false
		}
	} else if !strings.EqualFold(string(v[:t]), "form-data") {
		return false
	}
	i := t
	hasName := false
	for {
		i = skipOWS(v, i)
		if i == len(v) {
			break
		}
		if v[i] != ';' {
			return false
		}
		i = skipOWS(v, i+1)
		if i == len(v) {
			break
		}
		if v[i] == ';' {
			continue // an empty parameter
		}
		pn := i
		i = tokenEnd(v, i)
		// MP-H-07: with Allow8bitParameterNames a name is 1*(tchar / 80-FF),
		// and such a parameter is read, then ignored.
		eight := false
		for p.opts.Allow8bitParameterNames && i < len(v) && v[i] >= 0x80 {
			eight = true
			i = tokenEnd(v, i+1)
		}
		if i == pn {
			return false
		}
		pname := v[pn:i]
		i = skipOWS(v, i)
		if i == len(v) || v[i] != '=' {
			return false
		}
		i = skipOWS(v, i+1)
		var val span
		if i < len(v) && v[i] == '"' {
			if !pairs {
				c := bytes.IndexByte(v[i+1:], '"')
				if c < 0 {
					return false
				}
				val = span{vs + i + 1, vs + i + 1 + c}
				i = i + 1 + c + 1
			} else {
				// RFC 9110 §5.6.4: `\` and any byte stand for that byte.
				j := i + 1
				esc := false
				for j < len(v) && v[j] != '"' {
					if v[j] == '\\' {
						if j+1 >= len(v) {
							return false
						}
						esc = true
						j++
					}
					j++
				}
				if j >= len(v) {
					return false
				}
				if !esc {
					val = span{vs + i + 1, vs + j}
				} else {
					a := len(p.hbuf)
					for k := i + 1; k < j; k++ {
						if v[k] == '\\' {
							k++
						}
						p.hbuf = append(p.hbuf, v[k])
					}
					val = span{a, len(p.hbuf)}
				}
				i = j + 1
			}
		} else {
			s := i
			i = tokenEnd(v, i)
			if i == s {
				return false
			}
			val = span{vs + s, vs + i}
		}
		// MP-H-08, MP-H-09: case-insensitive names, no repeats.
		switch {
		case eight:
		case asciiEq(pname, "name"):
			if hasName {
				return false
			}
			hasName = true
			d.name = val
		case asciiEq(pname, "filename"):
			if d.hasFilename {
				return false
			}
			d.hasFilename, d.filename = true, val
		case asciiEq(pname, "name*"):
			if d.hasNameStar {
				return false
			}
			d.hasNameStar, d.nameStar = true, val
		case asciiEq(pname, "filename*"):
			if d.hasFStar {
				return false
			}
			d.hasFStar, d.filenameStar = true, val
		default:
			if p.opts.AllowRfc2231Continuations {
				if n, ext, ok := continuation(pname); ok {
					p.segs = append(p.segs, contSeg{n: n, val: val, ext: ext})
				}
			}
		}
	}
	if !hasName {
		return false
	}
	if len(p.segs) > 0 && !p.joinContinuations(&d) {
		return false
	}
	p.disp = d
	return true
}

// contSeg is one RFC 2231 continuation filename*N (ext: filename*N*): the
// digits of N and the value read (MP-H-09).
type contSeg struct {
	n   []byte
	val span
	ext bool
}

// continuation reports whether a parameter name is filename*N or
// filename*N* (N decimal without leading zeros), and returns N's digits.
func continuation(pname []byte) (n []byte, ext bool, ok bool) {
	const pre = "filename*"
	if len(pname) <= len(pre) || !asciiEq(pname[:len(pre)], pre) {
		return nil, false, false
	}
	n = pname[len(pre):]
	if n[len(n)-1] == '*' {
		ext, n = true, n[:len(n)-1]
	}
	if len(n) == 0 || (n[0] == '0' && len(n) > 1) {
		return nil, false, false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return nil, false, false
		}
	}
	return n, ext, true
}

// joinContinuations: MP-H-09 with AllowRfc2231Continuations. Two segments
// with one N are false (MP_DISPOSITION) wherever they are, beside a filename
// too (two readings of one part); a present filename then wins. Otherwise
// filename*0, filename*1, ... up to the first missing N are joined at the
// end of hbuf into d's filename; false for a filename*0* without
// charset'language'.
func (p *Parser) joinContinuations(d *disposition) bool {
	segs := p.segs
	// Without leading zeros, (length, digits) orders N numerically; sorting
	// keeps the duplicate check O(k log k) however many segments there are.
	slices.SortFunc(segs, func(a, b contSeg) int {
		if len(a.n) != len(b.n) {
			return len(a.n) - len(b.n)
		}
		return bytes.Compare(a.n, b.n)
	})
	for i := 1; i < len(segs); i++ {
		if bytes.Equal(segs[i-1].n, segs[i].n) {
			return false
		}
	}
	if d.hasFilename {
		return true
	}
	run := 0
	for run < len(segs) && isNumber(segs[run].n, run) {
		run++
	}
	if run == 0 {
		return true // no filename*0: no filename
	}
	a := len(p.hbuf)
	for i, s := range segs[:run] {
		v := p.hbuf[s.val.a:s.val.b:s.val.b]
		if !s.ext {
			p.hbuf = append(p.hbuf, v...)
			continue
		}
		if i == 0 {
			// RFC 2231 charset'language' goes first; the charset is not
			// used, MP-H-10 reads every filename as UTF-8.
			q1 := bytes.IndexByte(v, '\'')
			if q1 < 0 {
				return false
			}
			q2 := bytes.IndexByte(v[q1+1:], '\'')
			if q2 < 0 {
				return false
			}
			v = v[q1+q2+2:]
		}
		p.hbuf = percentDecode(p.hbuf, v)
	}
	d.hasFilename, d.filename = true, span{a, len(p.hbuf)}
	return true
}

// isNumber reports whether digits (no leading zeros) spell n.
func isNumber(digits []byte, n int) bool {
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			break
		}
	}
	return bytes.Equal(digits, buf[i:])
}

// percentDecode appends v to dst with `%` and two hex digits as that byte;
// any other `%` stays as it is (MP-H-09).
func percentDecode(dst, v []byte) []byte {
	for i := 0; i < len(v); i++ {
		if v[i] == '%' && i+2 < len(v) {
			if h, ok := unhex(v[i+1]); ok {
				if l, ok := unhex(v[i+2]); ok {
					dst = append(dst, h<<4|l)
					i += 2
					continue
				}
			}
		}
		dst = append(dst, v[i])
	}
	return dst
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func asciiEq(b []byte, lowerName string) bool {
	if len(b) != len(lowerName) {
		return false
	}
	for i := range b {
		if lowerByte(b[i]) != lowerName[i] {
			return false
		}
	}
	return true
}

// Head is a part's header block as the parser read it. It is a view of the
// parser's buffer: valid until the next part's delimiter line ends (strings
// returned by its methods are copies and stay valid).
type Head Parser

func (h *Head) get(s span) []byte { return h.hbuf[s.a:s.b:s.b] }

// Name is the name parameter, UTF-8 decoded with U+FFFD for invalid bytes,
// never percent-decoded (MP-H-10); "" for a nameless part (see Nameless).
func (h *Head) Name() string { return lossy(h.NameBytes()) }

// NameBytes is the raw name parameter (the unescaped bytes of the reading
// chosen, MP-H-07); nil for a nameless part.
func (h *Head) NameBytes() []byte {
	if h.disp.nameless {
		return nil
	}
	return h.get(h.disp.name)
}

// Nameless reports whether the part has no name: with
// AllowMissingDisposition, a part without a Content-Disposition header or
// whose only one is empty (MP-H-06). It has no filename, name* or filename*
// either, counts as a field for every limit, and the name→value form layers
// (ReadForm, formhttp) skip it (MP-F-05); its other headers are as for any
// part.
func (h *Head) Nameless() bool { return h.disp.nameless }

// IsFile reports whether the part has a filename parameter (MP-H-08: an empty
// one counts; filename* alone does not).
func (h *Head) IsFile() bool { return h.disp.hasFilename }

// Filename is the filename parameter decoded like Name; "" when absent (see
// IsFile).
func (h *Head) Filename() string {
	if !h.disp.hasFilename {
		return ""
	}
	return lossy(h.get(h.disp.filename))
}

// FilenameBytes is the raw filename parameter; nil when absent.
func (h *Head) FilenameBytes() []byte {
	if !h.disp.hasFilename {
		return nil
	}
	return h.get(h.disp.filename)
}

// NameStar is the raw name* parameter (RFC 8187, never decoded, never
// overriding name: MP-H-09) and whether it is present.
func (h *Head) NameStar() ([]byte, bool) { return h.get(h.disp.nameStar), h.disp.hasNameStar }

// FilenameStar is the raw filename* parameter and whether it is present.
func (h *Head) FilenameStar() ([]byte, bool) {
	return h.get(h.disp.filenameStar), h.disp.hasFStar
}

// ContentType is the value of the last Content-Type header, OWS-trimmed, as
// is (MP-H-11), and whether there is one.
func (h *Head) ContentType() ([]byte, bool) {
	if h.ct < 0 {
		return nil, false
	}
	x := h.headers[h.ct]
	return h.hbuf[x.vs:x.ve:x.ve], true
}

// Type is the File type formData() gives a file part (MP-F-03): text/plain
// without a Content-Type header, else the last valid MIME type of all
// Content-Type values, serialized; "" when none parses.
func (h *Head) Type() string {
	if h.ct < 0 {
		return "text/plain"
	}
	var vals [][]byte
	for _, x := range h.headers {
		if string(h.hbuf[x.ns:x.ne]) == "content-type" {
			vals = append(vals, h.hbuf[x.vs:x.ve])
		}
	}
	t, ok := mime.Extract(vals)
	if !ok {
		return ""
	}
	return t.String()
}

// NumHeaders is the number of header lines (an obs-folded header is one).
func (h *Head) NumHeaders() int { return len(h.headers) }

// Header returns header i: its lowercased name and OWS-trimmed raw value.
func (h *Head) Header(i int) (name, value []byte) {
	x := h.headers[i]
	return h.hbuf[x.ns:x.ne:x.ne], h.hbuf[x.vs:x.ve:x.ve]
}

// BodyOffset is the input offset of the part's first body byte.
func (h *Head) BodyOffset() int64 { return h.bodyStart }

func lossy(b []byte) string { return text.Lossy(b) }

// DecodeLossy is the spec's display decoding of raw name, filename and
// header bytes: UTF-8 with one U+FFFD per maximal invalid subpart (MP-H-10).
func DecodeLossy(b []byte) string { return text.Lossy(b) }
