// Package urlencoded is application/x-www-form-urlencoded exactly as WHATWG
// URL §5 says (spec/urlencoded.md).
//
// Parsing splits on '&' only (';' is data, unlike net/url.ParseQuery:
// UE-D-01), skips empty sequences, splits each at its first '=', turns '+'
// into a space before percent-decoding, keeps an invalid '%' sequence as it
// is (ParseQuery drops the pair: UE-D-02), and decodes UTF-8 with U+FFFD per
// maximal subpart, keeping a BOM. Only the limits fail: UE_LIMIT_PAIRS and
// UE_LIMIT_BYTES, on by default.
//
// Parse works from a []byte in one pass, with one allocation for all the
// decoded text; Parser is the sans-IO streaming form (any chunking gives the
// same pairs); Append and Serialize write the WHATWG serialization.
package urlencoded

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/internal/text"
)

// Pair is one name-value pair, in input order (UE-P-09).
type Pair struct {
	Name, Value string
}

var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
		t[c-32] = byte(c-'a') + 10
	}
	return
}()

// firstSpecial is the index of the first '+' or '%' of src, or -1. Short
// names and values are scanned inline; long ones with IndexByte (SIMD).
func firstSpecial(src []byte) int {
	if len(src) < 32 {
		for i, c := range src {
			if c == '+' || c == '%' {
				return i
			}
		}
		return -1
	}
	p, q := bytes.IndexByte(src, '+'), bytes.IndexByte(src, '%')
	if p < 0 || (q >= 0 && q < p) {
		return q
	}
	return p
}

// appendDecoded appends the UE-P-06/07/08 decoding of src to dst.
func appendDecoded(dst, src []byte) []byte {
	i := firstSpecial(src)
	if i < 0 {
		// The usual case: nothing to decode but the UTF-8 check.
		if utf8.Valid(src) {
			return append(dst, src...)
		}
		return text.AppendLossy(dst, src)
	}
	start := len(dst)
	dst = append(dst, src[:i]...)
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '+':
			c = ' ' // UE-P-06
		case c == '%' && i+2 < len(src) && hexVal[src[i+1]] != 0xFF && hexVal[src[i+2]] != 0xFF:
			c = hexVal[src[i+1]]<<4 | hexVal[src[i+2]] // UE-P-07
			i += 2
		}
		dst = append(dst, c)
	}
	// UE-P-08: UTF-8 decode without BOM, with replacement.
	if !utf8.Valid(dst[start:]) {
		fixed := text.AppendLossy(nil, dst[start:])
		dst = append(dst[:start], fixed...)
	}
	return dst
}

// Parse parses a whole body (UE-P, UE-L). A nil o means DefaultOptions.
// Errors: UE_LIMIT_PAIRS at the first byte of pair MaxPairs+1, UE_LIMIT_BYTES
// at MaxBytes, the lower offset winning, UE_LIMIT_BYTES at a tie (UE-L-03).
//
// The decoded names and values share one allocation.
func Parse(b []byte, o *Options) ([]Pair, error) {
	var pairs []Pair
	err := parse(b, o, false, func(n int) { pairs = make([]Pair, 0, n) },
		func(n, v string) { pairs = append(pairs, Pair{n, v}) })
	if err != nil {
		return nil, err
	}
	return pairs, nil
}

// ParseString is Parse over the UTF-8 bytes of s (UE-P-01).
func ParseString(s string, o *Options) ([]Pair, error) {
	// Copying mode never writes to the input, so s's bytes are only read.
	return Parse(unsafe.Slice(unsafe.StringData(s), len(s)), o)
}

// ParseFunc calls fn for every pair of b, in order, or returns the limit
// error without calling fn (limits are checked before any pair is decoded).
func ParseFunc(b []byte, o *Options, fn func(name, value string)) error {
	return parse(b, o, false, nil, fn)
}

// ParseValues parses b into a map in the shape of url.Values, sized for its
// pairs up front, every value slice cut from one backing array (appending to
// one copies it, as it must).
func ParseValues(b []byte, o *Options) (map[string][]string, error) {
	return parseValues(b, o, false)
}

// ParseValuesInPlace is ParseValues decoding b in place: the strings alias b
// (no copy of the text at all), so b must never be modified or reused
// afterwards. Decoding never makes a name or value longer, except invalid
// UTF-8, whose U+FFFD replacement is then allocated separately.
func ParseValuesInPlace(b []byte, o *Options) (map[string][]string, error) {
	return parseValues(b, o, true)
}

func parseValues(b []byte, o *Options, inPlace bool) (map[string][]string, error) {
	var m map[string][]string
	var backing []string
	err := parse(b, o, inPlace, func(n int) {
		m = make(map[string][]string, n)
		backing = make([]string, n)
	}, func(n, v string) {
		if old, ok := m[n]; ok {
			m[n] = append(old, v)
			return
		}
		backing[0] = v
		m[n] = backing[:1:1]
		backing = backing[1:]
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// parse is every whole-input parser: limits first (so fn sees nothing of an
// input that fails), then size(n) with the pair count, then fn per pair. In
// copying mode the text goes to one new buffer; in place it is decoded over
// b itself.
func parse(b []byte, o *Options, inPlace bool, size func(int), fn func(name, value string)) error {
	opts := normalize(o)
	in := b
	var limitErr error
	if int64(len(in)) > opts.MaxBytes {
		in = in[:opts.MaxBytes]
		limitErr = formwire.New(formwire.UELimitBytes, opts.MaxBytes)
	}
	// An earlier UE_LIMIT_PAIRS wins (UE-L-03). With fewer '&' than
	// MaxPairs the limit cannot be reached: count them in one pass and size
	// for that many (empty sequences make it an upper bound).
	n := int64(bytes.Count(in, []byte{'&'})) + 1
	if n > opts.MaxPairs {
		n = pairCount(in, opts.MaxPairs)
		if n < 0 {
			return formwire.New(formwire.UELimitPairs, -n-1)
		}
	}
	if limitErr != nil {
		return limitErr
	}
	if size != nil {
		size(int(n))
	}
	if inPlace {
		for i := 0; i < len(in); {
			j := indexAmp(in[i:])
			seq := in[i:]
			if j >= 0 {
				seq = in[i : i+j]
				i += j + 1
			} else {
				i = len(in)
			}
			if len(seq) == 0 {
				continue // UE-P-03
			}
			name, value := split(seq)
			fn(decodeInPlace(name), decodeInPlace(value))
		}
		return nil
	}
	out := make([]byte, 0, len(in))
	type cut struct{ n, v int }
	cuts := make([]cut, 0, n)
	for i := 0; i < len(in); {
		j := indexAmp(in[i:])
		seq := in[i:]
		if j >= 0 {
			seq = in[i : i+j]
			i += j + 1
		} else {
			i = len(in)
		}
		if len(seq) == 0 {
			continue // UE-P-03
		}
		name, value := split(seq)
		out = appendDecoded(out, name)
		ne := len(out)
		out = appendDecoded(out, value)
		cuts = append(cuts, cut{ne, len(out)})
	}
	if len(out) == 0 {
		for range cuts {
			fn("", "")
		}
		return nil
	}
	// out is never written again: the string shares its bytes.
	s := unsafe.String(&out[0], len(out))
	prev := 0
	for _, c := range cuts {
		fn(s[prev:c.n], s[c.n:c.v])
		prev = c.v
	}
	return nil
}

// pairCount counts the pairs of in (UE-P-03: empty sequences are not
// pairs), or returns -(offset+1) of the first byte of pair max+1.
func pairCount(in []byte, max int64) int64 {
	n := int64(0)
	for i := 0; i < len(in); {
		j := indexAmp(in[i:])
		if j != 0 {
			n++
			if n > max {
				return -int64(i) - 1
			}
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return n
}

// decodeInPlace decodes src over itself (UE-P-06/07 never lengthen) and
// returns a string aliasing it; invalid UTF-8 (UE-P-08) gets its own copy.
func decodeInPlace(src []byte) string {
	i := firstSpecial(src)
	if i < 0 {
		if len(src) == 0 {
			return ""
		}
		if !utf8.Valid(src) {
			return text.Lossy(src)
		}
		return unsafe.String(&src[0], len(src))
	}
	w := i
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '+':
			c = ' '
		case c == '%' && i+2 < len(src) && hexVal[src[i+1]] != 0xFF && hexVal[src[i+2]] != 0xFF:
			c = hexVal[src[i+1]]<<4 | hexVal[src[i+2]]
			i += 2
		}
		src[w] = c
		w++
	}
	d := src[:w]
	if !utf8.Valid(d) {
		return text.Lossy(d)
	}
	return unsafe.String(&d[0], len(d))
}

func indexAmp(b []byte) int { return bytes.IndexByte(b, '&') }

// split: UE-P-04, at the first '='.
func split(seq []byte) (name, value []byte) {
	if i := bytes.IndexByte(seq, '='); i >= 0 {
		return seq[:i], seq[i+1:]
	}
	return seq, nil
}

func normalize(o *Options) Options {
	var n Options
	if o == nil {
		n = DefaultOptions()
	} else {
		n = *o
	}
	n.MaxPairs = formwire.Lim(n.MaxPairs)
	n.MaxBytes = formwire.Lim(n.MaxBytes)
	return n
}

// Parser is the sans-IO streaming parser: Feed chunks, take pairs with Next
// until it reports none, Finish at the end of input. A pair split across
// chunks is kept (at most MaxBytes) until its '&' or the end arrives.
type Parser struct {
	opts     Options
	chunk    []byte
	pos      int
	base     int64 // offset of chunk[0]
	over     bool
	eof      bool
	partial  []byte // the current sequence so far, when it spans chunks
	inSeq    bool
	pairs    int64
	err      error
	scratch  []byte
	consumed int64
}

// NewParser returns a streaming parser; a nil o means DefaultOptions.
func NewParser(o *Options) *Parser { return &Parser{opts: normalize(o)} }

// Feed gives the parser the next chunk; call Next until ok is false first.
func (p *Parser) Feed(b []byte) {
	if p.pos < len(p.chunk) && p.err == nil {
		panic("urlencoded: Feed before the previous chunk was used up")
	}
	p.base = p.consumed
	p.pos = 0
	// UE-L-01: bytes from MaxBytes on are never interpreted.
	if room := p.opts.MaxBytes - p.consumed; int64(len(b)) > room {
		b = b[:room]
		p.over = true
	}
	p.chunk = b
}

// Finish says the input has ended: Next then returns the last pair, if any.
func (p *Parser) Finish() {
	p.Feed(nil)
	p.eof = true
}

// Next returns the next complete pair (ok true), or ok false when the input
// fed so far is used up (not an error), or a limit error (which ends the parse).
func (p *Parser) Next() (pair Pair, ok bool, err error) {
	if p.err != nil {
		return Pair{}, false, p.err
	}
	for p.pos < len(p.chunk) {
		rest := p.chunk[p.pos:]
		if !p.inSeq {
			if rest[0] == '&' {
				p.pos++
				p.consumed++
				continue // UE-P-03
			}
			// UE-L-02: a pair begins here.
			p.pairs++
			if p.pairs > p.opts.MaxPairs {
				p.err = formwire.New(formwire.UELimitPairs, p.base+int64(p.pos))
				return Pair{}, false, p.err
			}
			p.inSeq = true
		}
		j := indexAmp(rest)
		if j < 0 {
			p.partial = append(p.partial, rest...)
			p.pos = len(p.chunk)
			p.consumed = p.base + int64(p.pos)
			break
		}
		seq := rest[:j]
		if len(p.partial) > 0 {
			p.partial = append(p.partial, seq...)
			seq = p.partial
		}
		p.pos += j + 1
		p.consumed = p.base + int64(p.pos)
		p.inSeq = false
		pair := p.decode(seq)
		p.partial = p.partial[:0]
		return pair, true, nil
	}
	if p.over {
		p.over = false
		p.err = formwire.New(formwire.UELimitBytes, p.opts.MaxBytes)
		return Pair{}, false, p.err
	}
	if p.eof && p.inSeq {
		p.inSeq = false
		pair := p.decode(p.partial)
		p.partial = p.partial[:0]
		return pair, true, nil
	}
	return Pair{}, false, nil
}

func (p *Parser) decode(seq []byte) Pair {
	name, value := split(seq)
	p.scratch = appendDecoded(p.scratch[:0], name)
	n := len(p.scratch)
	p.scratch = appendDecoded(p.scratch, value)
	s := string(p.scratch)
	return Pair{s[:n], s[n:]}
}

// keep: UE-S-04, the bytes written as they are.
var keep = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-32] = true, true
	}
	for _, c := range "*-._" {
		t[c] = true
	}
	return
}()

const upperHex = "0123456789ABCDEF"

// AppendString appends the WHATWG encoding of one name or value (UE-S-01..05):
// space as '+', A-Za-z0-9*-._ as is, every other byte of the UTF-8 as %XX.
// Invalid UTF-8 in s is first replaced by U+FFFD (a Go string may hold any
// bytes; the spec's strings are scalar value strings, UE-S-01).
func AppendString(dst []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = text.Lossy([]byte(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case keep[c]:
			dst = append(dst, c)
		case c == ' ':
			dst = append(dst, '+')
		default:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst
}

// Append appends the serialization of pairs: name=value joined by '&' (UE-S-06).
func Append(dst []byte, pairs []Pair) []byte {
	for i, p := range pairs {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = AppendString(dst, p.Name)
		dst = append(dst, '=')
		dst = AppendString(dst, p.Value)
	}
	return dst
}

// Serialize returns the serialization of pairs (empty list: "").
func Serialize(pairs []Pair) string { return string(Append(nil, pairs)) }
