package multipart

import (
	"bytes"
	"encoding/binary"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/internal/mime"
)

const (
	cr = '\r'
	lf = '\n'
	sp = ' '
	ht = '\t'
)

// isFollower: MP-P-04, the bytes that may follow `CRLF "--" B` in a delimiter.
func isFollower(b byte) bool { return b == '-' || b == sp || b == ht || b == cr || b == lf }

// EventKind says what an Event is.
type EventKind uint8

const (
	// None: the bytes fed so far are used up (need more data; not an error).
	// After Finish it means the parser has nothing more to say.
	None EventKind = iota
	// PartStart: a part's header block was complete and valid (MP-H-06..11);
	// Parser.Head describes it (Head.Nameless for a part without a name,
	// AllowMissingDisposition).
	PartStart
	// Data: body bytes of the current part, in Event.Data.
	Data
	// PartEnd: the current part's body is complete.
	PartEnd
	// End: the close delimiter line is complete (with AllowJunkAfterClose,
	// as soon as `--B--` is); what follows is the epilogue.
	End
)

// Event is one parse event. For Data, Event.Data is a view of the slice given
// to Feed (or, for at most len("\r\n--"+boundary) bytes that were held back at
// the end of an earlier chunk, of the parser's own delimiter): valid until the
// next call to Feed, never to be modified. Copying is the caller's choice.
type Event struct {
	Kind EventKind
	Data []byte
}

type state uint8

const (
	stStart state = iota // before the first delimiter (MP-P-02)
	stAfterBoundary
	stDash
	stPadding
	stLineCR
	stHeaders
	stPartStart
	stBody
	stPartEnd
	stClose
	stCloseCR
	stEnd
	stEpilogue
)

type hstate uint8

const (
	hsLineStart hstate = iota
	hsLineStartCR
	hsLead
	hsName
	hsNameOWS
	hsValueOWS
	hsValue
	hsValueCR
	hsFoldOWS
)

type hspan struct {
	ns, ne, vs, ve int
	line           int64
}

type span struct{ a, b int }

type disposition struct {
	name                               span
	filename, nameStar, filenameStar   span
	hasFilename, hasNameStar, hasFStar bool
	nameless                           bool // MP-H-06, AllowMissingDisposition
}

// Parser is a sans-IO multipart/form-data parser: bytes in (Feed, Finish),
// events out (Next). It never reads or allocates per body byte; its memory is
// the boundary and one header block (at most MaxHeaderBytes). Time is linear
// in the input whatever the chunking (MP-P-08). After an error every call to
// Next returns the same error.
//
// The zero value is not usable; make one with NewParser or NewParserBoundary.
type Parser struct {
	opts Options // limits normalized by formwire.Lim
	// delim is `CRLF "--" B`; needle is what is searched: delim, or
	// `LF "--" B` with AllowLF.
	delim, needle []byte
	// delimDash and delimCR are delim followed by `-` and by CR: with
	// AllowNearDelimiters a held delimiter keeps the byte after B until the
	// byte after it decides (MP-P-03), and held bytes stay one slice.
	delimDash, delimCR []byte
	// crDelim is `CR "--" B` (AllowCr, MP-P-06), crDash it and `-`.
	crDelim, crDash []byte

	chunk     []byte
	pos       int
	base      int64 // absolute offset of chunk[0]
	consumed  int64
	over, eof bool
	state     state
	hs        hstate
	err       error
	// held bytes are heldPat[:held], a prefix of a delimiter continued in
	// the next chunk; heldExtra: they are a whole delimiter and the `-` or CR
	// after it (AllowNearDelimiters).
	held        int
	heldPat     []byte
	heldVirtual bool
	heldExtra   bool
	// lineState is where the delimiter line goes on after PartEnd: past a
	// `-` or CR that a held delimiter already took, or stAfterBoundary.
	lineState state
	parts     int64
	// MP-L-05: parts with a filename / without, so far.
	files, fields int64

	blockStart, headerLimitOff, lineStart int64
	lines                                 int64
	nameStart, nameEnd, valueStart        int
	trimFloor                             int
	folding                               bool
	hbuf                                  []byte
	headers                               []hspan
	segs                                  []contSeg // MP-H-09, AllowRfc2231Continuations

	disp       disposition
	ct         int // index in headers of the last Content-Type, or -1
	inPart     bool
	hasHead    bool
	bodyStart  int64
	bodyLen    int64
	bodyLimit  int64
	bodyCode   formwire.Code
	isField    bool
	fieldTotal int64 // MP-L-04: body bytes of finished fields
}

func normalize(o *Options) Options {
	var n Options
	if o == nil {
		n = DefaultOptions()
	} else {
		n = *o
	}
	n.MaxBoundaryBytes = formwire.Lim(n.MaxBoundaryBytes)
	n.MaxParts = formwire.Lim(n.MaxParts)
	n.MaxFiles = formwire.Lim(n.MaxFiles)
	n.MaxFields = formwire.Lim(n.MaxFields)
	n.MaxHeaders = formwire.Lim(n.MaxHeaders)
	n.MaxHeaderBytes = formwire.Lim(n.MaxHeaderBytes)
	n.MaxFieldBytes = formwire.Lim(n.MaxFieldBytes)
	n.MaxTotalFieldBytes = formwire.Lim(n.MaxTotalFieldBytes)
	n.MaxFileBytes = formwire.Lim(n.MaxFileBytes)
	n.MaxTotalBytes = formwire.Lim(n.MaxTotalBytes)
	return n
}

// BoundaryFromContentType extracts the boundary B from a request Content-Type
// (MP-B-01..03): the WHATWG MIME type parser, essence multipart/form-data,
// the first boundary parameter, UTF-8 encoded. The string is the header value
// isomorphic-decoded, as net/http gives it (each byte one code point is what
// Fetch does; Go's header strings hold the raw bytes, so a byte E9 is read as
// U+00E9 either way: see ContentTypeLatin1).
func BoundaryFromContentType(contentType string) ([]byte, error) {
	t, ok := mime.Parse(contentType)
	if !ok || t.Type != "multipart" || t.Subtype != "form-data" {
		return nil, formwire.New(formwire.MPContentType, 0)
	}
	b, _ := t.Param("boundary")
	if err := checkBoundary([]byte(b)); err != nil {
		return nil, err
	}
	return []byte(b), nil
}

// ContentTypeLatin1 isomorphic-decodes raw header bytes (a net/http header
// string holds them as is) into the string BoundaryFromContentType and
// NewParser expect: each byte becomes one code point (MP-B-02).
func ContentTypeLatin1(raw string) string {
	ascii := true
	for i := 0; i < len(raw); i++ {
		if raw[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return raw
	}
	r := make([]rune, len(raw))
	for i := 0; i < len(raw); i++ {
		r[i] = rune(raw[i])
	}
	return string(r)
}

// checkBoundary: MP-B-03, non-empty, no CR, LF or NUL.
func checkBoundary(b []byte) error {
	if len(b) == 0 || bytes.ContainsAny(b, "\r\n\x00") {
		return formwire.New(formwire.MPBoundary, 0)
	}
	return nil
}

// NewParser makes a parser for a request Content-Type (MP-B-01..04): errors
// are MP_CONTENT_TYPE, MP_BOUNDARY and MP_LIMIT_BOUNDARY, at offset 0. A nil
// o means DefaultOptions.
func NewParser(contentType string, o *Options) (*Parser, error) {
	b, err := BoundaryFromContentType(contentType)
	if err != nil {
		return nil, err
	}
	return NewParserBoundary(b, o)
}

// NewParserBoundary makes a parser for the boundary B (the bytes after "--").
func NewParserBoundary(boundary []byte, o *Options) (*Parser, error) {
	if err := checkBoundary(boundary); err != nil {
		return nil, err
	}
	opts := normalize(o)
	if int64(len(boundary)) > opts.MaxBoundaryBytes { // MP-B-04
		return nil, formwire.New(formwire.MPLimitBoundary, 0)
	}
	p := &Parser{opts: opts}
	n := len(boundary) + 4
	buf := make([]byte, 0, 2*n+2)
	buf = append(append(append(buf, "\r\n--"...), boundary...), '-')
	p.delimDash = buf[: n+1 : n+1]
	p.delim = p.delimDash[:n:n]
	p.delimCR = append(append(buf[n+1:n+1], p.delim...), cr)
	p.needle = p.delim
	if opts.AllowLF {
		p.needle = p.delim[1:]
	}
	if opts.AllowCr {
		// Every delimiter ends in `"--" B`; the bytes before it decide
		// which one it is (MP-P-06).
		p.needle = p.delim[2:]
		p.crDash = append(append([]byte{cr}, p.delim[2:]...), '-')
		p.crDelim = p.crDash[: n-1 : n-1]
	}
	p.Reset()
	return p, nil
}

// Reset makes the parser ready for a new body with the same boundary and
// options, keeping its buffers.
func (p *Parser) Reset() {
	p.chunk, p.pos, p.base, p.consumed = nil, 0, 0, 0
	p.over, p.eof = false, false
	p.state, p.hs, p.err = stStart, hsLineStart, nil
	// MP-P-01: the first delimiter may omit its CRLF at offset 0.
	p.held, p.heldPat, p.heldVirtual, p.heldExtra = 2, p.delim, true, false
	p.lineState = stAfterBoundary
	p.parts, p.fieldTotal = 0, 0
	p.files, p.fields = 0, 0
	p.hbuf, p.headers = p.hbuf[:0], p.headers[:0]
	p.inPart, p.hasHead = false, false
}

// Boundary returns B.
func (p *Parser) Boundary() []byte { return p.delim[4:] }

// Offset is the number of bytes consumed so far (held-back bytes count).
func (p *Parser) Offset() int64 { return p.consumed }

// Done reports whether the close delimiter line was complete (End was seen;
// with AllowJunkAfterClose, once `--B--` was read).
func (p *Parser) Done() bool { return p.state == stEpilogue }

// Err is the error the parser stopped at, or nil.
func (p *Parser) Err() error { return p.err }

// Feed gives the parser the next chunk of input. Call Next until it returns
// None before feeding again (Feed panics if the previous chunk is not used
// up). p is borrowed until then: Data events are views of it.
func (p *Parser) Feed(b []byte) {
	if p.pos < len(p.chunk) && p.err == nil {
		panic("multipart: Feed before the previous chunk was used up (call Next until it returns None)")
	}
	p.base = p.consumed
	p.pos = 0
	// MP-L-03: only bytes before MaxTotalBytes are processed.
	room := p.opts.MaxTotalBytes - p.consumed
	if int64(len(b)) > room {
		b = b[:room]
		p.over = true
	}
	p.chunk = b
}

// Finish says the input has ended. Next then returns End if the input ended
// right after the close delimiter (MP-P-05), or MP_TRUNCATED at the input
// length (MP-P-07), then None.
func (p *Parser) Finish() {
	p.Feed(nil)
	p.eof = true
}

// Head describes the current part from its PartStart until the next part's
// delimiter line ends (so also after its PartEnd); nil before the first part.
func (p *Parser) Head() *Head {
	if !p.hasHead {
		return nil
	}
	return (*Head)(p)
}

func (p *Parser) fail(code formwire.Code, off int64) error {
	e := formwire.New(code, off)
	p.err = e
	return e
}

// Next returns the next event: None when the chunk is used up (feed more, or
// Finish), or an error (*formwire.Error) that ends the parse.
func (p *Parser) Next() (Event, error) {
	if p.err != nil {
		return Event{}, p.err
	}
	if p.state == stPartEnd {
		p.inPart = false
		p.state, p.lineState = p.lineState, stAfterBoundary
		p.fieldTotal += p.fieldLen()
		return Event{Kind: PartEnd}, nil
	}
	ev, err := p.run()
	p.consumed = p.base + int64(p.pos)
	if err != nil {
		return Event{}, err
	}
	if ev.Kind == None {
		if p.over {
			// MP-L-03: everything before the limit was processed.
			p.over = false
			return Event{}, p.fail(formwire.MPLimitTotalBytes, p.opts.MaxTotalBytes)
		}
		if p.eof {
			switch {
			case p.state == stClose || p.state == stCloseCR && p.opts.AllowCr:
				// MP-P-05: with AllowCr the close line may end at its CR.
				p.state = stEpilogue
				return Event{Kind: End}, nil
			case p.state == stEpilogue:
			default:
				return Event{}, p.fail(formwire.MPTruncated, p.consumed)
			}
		}
	}
	return ev, nil
}

func (p *Parser) fieldLen() int64 {
	if p.isField {
		return p.bodyLen
	}
	return 0
}

func (p *Parser) run() (Event, error) {
	end := len(p.chunk)
	for {
		switch p.state {
		case stStart, stBody:
			ev, err := p.scan()
			if err != nil || ev.Kind != None {
				return ev, err
			}
			if p.pos == end && (p.state == stStart || p.state == stBody) {
				return Event{}, nil
			}
		case stPartStart:
			p.state = stBody
			return Event{Kind: PartStart}, nil
		case stPartEnd:
			p.inPart = false
			p.state, p.lineState = p.lineState, stAfterBoundary
			p.fieldTotal += p.fieldLen()
			return Event{Kind: PartEnd}, nil
		case stEnd:
			p.state = stEpilogue
			return Event{Kind: End}, nil
		case stEpilogue:
			p.pos = end // MP-P-05: ignored, but counted (MP-L-03)
			return Event{}, nil
		case stHeaders:
			done, err := p.headersStep()
			if err != nil || !done {
				return Event{}, err
			}
		default:
			if p.pos == end {
				return Event{}, nil
			}
			if p.state == stAfterBoundary && p.pos+1 < end && p.chunk[p.pos] == cr && p.chunk[p.pos+1] == lf {
				p.pos++
				if err := p.delimiterLineEnd(); err != nil {
					return Event{}, err
				}
				continue
			}
			if err := p.delimiterLine(); err != nil {
				return Event{}, err
			}
		}
	}
}

// delimiterLine runs one byte of the rest of a delimiter line (MP-P-03, MP-P-05).
func (p *Parser) delimiterLine() error {
	b := p.chunk[p.pos]
	off := p.base + int64(p.pos)
	lfOK := p.opts.AllowLF
	bad := func() error { return p.fail(formwire.MPDelimiter, off) }
	switch p.state {
	case stAfterBoundary:
		switch {
		case b == '-':
			p.state = stDash
		case b == sp || b == ht:
			p.state = stPadding
		case b == cr:
			p.state = stLineCR
		case b == lf && lfOK:
			return p.delimiterLineEnd()
		default:
			return bad()
		}
	case stDash:
		if b != '-' {
			return bad()
		}
		p.state = stClose
		if p.opts.AllowJunkAfterClose {
			// MP-P-05: the epilogue starts right after `--B--`, so the
			// input may end anywhere from here on (MP-P-07).
			p.state = stEnd
		}
	case stPadding:
		switch {
		case b == sp || b == ht:
		case b == cr:
			p.state = stLineCR
		case b == lf && lfOK:
			return p.delimiterLineEnd()
		default:
			return bad()
		}
	case stLineCR:
		if b != lf {
			if p.opts.AllowCr {
				// MP-P-03: the line ended at the CR; b begins the header block.
				return p.partBegins()
			}
			return bad()
		}
		return p.delimiterLineEnd()
	case stClose:
		switch {
		case b == sp || b == ht:
		case b == cr:
			p.state = stCloseCR
		case b == lf && lfOK:
			p.state = stEnd
		default:
			return bad()
		}
	case stCloseCR:
		if b != lf {
			if p.opts.AllowCr {
				// MP-P-05: the line ended at the CR; b is epilogue.
				p.state = stEnd
				return nil
			}
			return bad()
		}
		p.state = stEnd
	}
	p.pos++
	return nil
}

// delimiterLineEnd: the LF of a (non-close) delimiter line at p.pos; a part begins.
func (p *Parser) delimiterLineEnd() error {
	p.pos++
	return p.partBegins()
}

// partBegins: a part's header block begins at p.pos.
func (p *Parser) partBegins() error {
	off := p.base + int64(p.pos)
	p.parts++
	if p.parts > p.opts.MaxParts { // MP-L-01
		return p.fail(formwire.MPLimitParts, off)
	}
	p.blockStart = off
	p.headerLimitOff = satAdd(off, p.opts.MaxHeaderBytes)
	p.lines = 0
	p.folding = false
	p.hbuf = p.hbuf[:0]
	p.headers = p.headers[:0]
	p.hasHead = false
	p.state = stHeaders
	p.hs = hsLineStart
	return nil
}

func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return 1<<63 - 1
}

// ---------------------------------------------------------------------------
// Delimiter search (MP-P-01, MP-P-02, MP-P-04, MP-P-06, MP-P-08)

// scan runs a body (or, in stStart, the bytes before the first delimiter).
// It returns a Data event, or None with the state changed (a delimiter was
// found) or the chunk used up.
func (p *Parser) scan() (Event, error) {
	chunk := p.chunk
	end := len(chunk)
	inBody := p.state == stBody
	if p.held > 0 {
		// Continue a delimiter match begun in an earlier chunk. The held bytes
		// start with the only CR/LF they contain, so a delimiter can only begin
		// at their first byte.
		for !p.heldExtra && p.held < len(p.heldPat) {
			if p.pos == end {
				return Event{}, nil
			}
			if c := chunk[p.pos]; c != p.heldPat[p.held] {
				// With AllowCr a held CR goes on as `CRLF "--" B` or as
				// `CR "--" B` (MP-P-06).
				if p.held != 1 || c != '-' || !p.opts.AllowCr {
					return p.heldMismatch(p.pos)
				}
				p.heldPat = p.crDelim
			}
			p.held++
			p.pos++
		}
		if p.pos == end {
			return Event{}, nil
		}
		c := chunk[p.pos]
		line := stAfterBoundary
		if p.heldExtra {
			// MP-P-03: the byte after the held `-` or CR decides.
			x := p.heldPat[p.held-1]
			if x == '-' && c != '-' || x == cr && c != lf {
				return p.heldMismatch(p.pos)
			}
			line = stDash
			if x == cr {
				line = stLineCR
			}
		} else {
			if !isFollower(c) {
				return p.heldMismatch(p.pos)
			}
			if inBody && p.nearFollower(c) {
				p.heldPat = p.withExtra(p.heldPat, c)
				p.held++
				p.heldExtra = true
				p.pos++
				return Event{}, nil
			}
		}
		p.held = 0
		p.heldVirtual, p.heldExtra = false, false
		p.delimiterFound(line)
		return Event{}, nil
	}
	nlen := len(p.needle)
	start := p.pos
	from := start
	for {
		m := p.find(chunk, from)
		if m < 0 {
			break
		}
		d := m
		pat := p.delim
		// With AllowLF the needle is `LF "--" B`; a CR before it belongs to
		// the delimiter (MP-P-06).
		if p.opts.AllowCr {
			var ok bool
			if d, pat, ok = p.crStart(chunk, start, m); !ok {
				from = m + 1
				continue
			}
		} else if p.opts.AllowLF {
			if m > start && chunk[m-1] == cr {
				d = m - 1
			} else {
				pat = p.delim[1:]
			}
		}
		after := m + nlen
		if after == end {
			// The byte that decides MP-P-04 is in the next chunk.
			p.hold(pat, end-d)
			p.pos = end
			return p.bodyData(inBody, start, d)
		}
		if c := chunk[after]; isFollower(c) {
			if inBody && p.nearFollower(c) {
				if after+1 == end {
					// The byte that decides MP-P-03 is in the next chunk.
					p.hold(p.withExtra(pat, c), end-d)
					p.heldExtra = true
					p.pos = end
					return p.bodyData(inBody, start, d)
				}
				if n := chunk[after+1]; c == '-' && n != '-' || c == cr && n != lf {
					// MP-P-03: a lookalike, body data; the search goes on
					// after its `-` or CR.
					from = after + 1
					continue
				}
			}
			p.pos = after
			p.delimiterFound(stAfterBoundary)
			return p.bodyData(inBody, start, d)
		}
		from = m + 1 // MP-P-04: `CRLF--BX` is body data; search on
	}
	// No delimiter: hold back a tail that may begin one (MP-P-08).
	h, pat := end, p.delim
	if p.opts.AllowCr {
		h, pat = p.crTailStart(chunk, start, end)
	} else {
		h = p.tailStart(chunk, start, end)
		if h < end && chunk[h] == lf {
			pat = p.delim[1:]
		}
	}
	if h < end {
		p.hold(pat, end-h)
	}
	p.pos = end
	return p.bodyData(inBody, start, h)
}

// find returns the index of the first complete needle in chunk[from:], or -1.
// Fields are short: the delimiter usually follows within a few dozen bytes,
// where IndexByte and a compare beat setting up bytes.Index. The window only
// moves where the search starts: the result is the first match either way.
func (p *Parser) find(chunk []byte, from int) int {
	const window = 128
	n := p.needle
	end := len(chunk)
	wEnd := min(end, from+window)
	q := from
	for q < wEnd {
		i := bytes.IndexByte(chunk[q:wEnd], n[0])
		if i < 0 {
			break
		}
		m := q + i
		if m+len(n) <= end && bytes.Equal(chunk[m:m+len(n)], n) {
			return m
		}
		q = m + 1
	}
	if wEnd == end {
		return -1
	}
	if i := indexNeedle(chunk[wEnd:], n); i >= 0 {
		return wEnd + i
	}
	return -1
}

// bytesIndex is bytes.Index (indexNeedle's fallback and tail).
func bytesIndex(s, n []byte) int { return bytes.Index(s, n) }

// tailStart is where a delimiter prefix begins at the end of chunk[lo:end]
// (end when none). Only the last CR (or LF, with AllowLF) can begin one,
// since B holds neither.
func (p *Parser) tailStart(chunk []byte, lo, end int) int {
	n := len(p.delim)
	window := max(lo, end-(n-1))
	tail := chunk[window:end]
	if !p.opts.AllowLF {
		if i := bytes.LastIndexByte(tail, cr); i >= 0 {
			q := window + i
			if bytes.HasPrefix(p.delim, chunk[q:end]) {
				return q
			}
		}
		return end
	}
	i := bytes.LastIndexAny(tail, "\r\n")
	if i < 0 {
		return end
	}
	q := window + i
	if chunk[q] == cr {
		// A CR can only begin `CRLF--B` as the very last byte.
		if q+1 == end {
			return q
		}
		return end
	}
	if bytes.HasPrefix(p.delim[1:], chunk[q:end]) {
		if q > lo && chunk[q-1] == cr {
			return q - 1
		}
		return q
	}
	return end
}

// crStart: with AllowCr the needle is `"--" B` at m, and the bytes before it
// (never before start, MP-P-06: a body's first bytes cannot end a
// delimiter begun in its header block) say which delimiter it ends: CR, CR
// LF, or (with AllowLF) LF. It returns where the delimiter begins and which
// one it is.
func (p *Parser) crStart(chunk []byte, start, m int) (int, []byte, bool) {
	if m == start {
		return 0, nil, false
	}
	switch chunk[m-1] {
	case cr:
		return m - 1, p.crDelim, true
	case lf:
		if m-1 > start && chunk[m-2] == cr {
			return m - 2, p.delim, true
		}
		if p.opts.AllowLF {
			return m - 1, p.delim[1:], true
		}
	}
	return 0, nil, false
}

// crTailStart is tailStart with AllowCr: the tail from the last CR or LF
// when it is a prefix of one of the delimiters, and that delimiter (a lone
// CR is held as `CRLF "--" B` and may go on as `CR "--" B`).
func (p *Parser) crTailStart(chunk []byte, lo, end int) (int, []byte) {
	window := max(lo, end-(len(p.delim)-1))
	i := bytes.LastIndexAny(chunk[window:end], "\r\n")
	if i < 0 {
		return end, nil
	}
	q := window + i
	if chunk[q] == cr {
		switch {
		case q+1 == end:
			return q, p.delim
		case bytes.HasPrefix(p.crDelim, chunk[q:end]):
			return q, p.crDelim
		}
		return end, nil
	}
	if bytes.HasPrefix(p.delim[1:], chunk[q:end]) {
		if q > lo && chunk[q-1] == cr {
			return q - 1, p.delim
		}
		if p.opts.AllowLF {
			return q, p.delim[1:]
		}
	}
	return end, nil
}

// hold holds back the last n bytes of the chunk, pat[:n].
func (p *Parser) hold(pat []byte, n int) {
	p.heldPat, p.held, p.heldExtra = pat, n, false
}

// nearFollower: with AllowNearDelimiters, a `-` or (without AllowCr, which
// ends the line there) a CR after B in a body is
// a delimiter only when the byte after it is `-` or LF (MP-P-03).
func (p *Parser) nearFollower(c byte) bool {
	return p.opts.AllowNearDelimiters && (c == '-' || c == cr && !p.opts.AllowCr)
}

// withExtra is the delimiter pat (delim or its `LF "--" B` tail) followed
// by c, `-` or CR, as one slice.
func (p *Parser) withExtra(pat []byte, c byte) []byte {
	if pat[0] == cr && pat[1] == '-' {
		return p.crDash // CR is no lookalike follower with AllowCr
	}
	buf := p.delimDash
	if c == cr {
		buf = p.delimCR
	}
	return buf[len(p.delim)-len(pat):]
}

// heldMismatch: the held bytes did not continue into a delimiter.
func (p *Parser) heldMismatch(at int) (Event, error) {
	pat, n := p.heldPat, p.held
	p.held = 0
	p.heldExtra = false
	if p.heldVirtual {
		p.heldVirtual = false
		if !p.opts.AllowPreamble {
			// MP-P-02 strict: the body must begin with `--B`, and the line
			// must go on as MP-P-03 says.
			off := p.base + int64(at)
			if n == len(pat) {
				return Event{}, p.fail(formwire.MPDelimiter, off)
			}
			return Event{}, p.fail(formwire.MPPreamble, off)
		}
		return Event{}, nil
	}
	if p.state == stBody {
		if err := p.countBody(n); err != nil {
			return Event{}, err
		}
		return Event{Kind: Data, Data: pat[:n:n]}, nil
	}
	return Event{}, nil
}

// delimiterFound: `"--" B` of a delimiter was read; its line goes on in
// state line (stAfterBoundary, or past a `-` or CR already read).
func (p *Parser) delimiterFound(line state) {
	if p.state == stBody {
		p.state = stPartEnd
		p.lineState = line
	} else {
		p.state = line
	}
}

func (p *Parser) bodyData(inBody bool, a, b int) (Event, error) {
	if !inBody || a == b {
		return Event{}, nil
	}
	if err := p.countBody(b - a); err != nil {
		return Event{}, err
	}
	return Event{Kind: Data, Data: p.chunk[a:b:b]}, nil
}

// countBody: MP-L-02, MP-L-04. Body bytes count once they are known not to
// be a delimiter. bodyLimit is already the nearer of the part's own limit and
// what is left of MaxTotalFieldBytes.
func (p *Parser) countBody(n int) error {
	l := p.bodyLen + int64(n)
	if l > p.bodyLimit {
		return p.fail(p.bodyCode, satAdd(p.bodyStart, p.bodyLimit))
	}
	p.bodyLen = l
	return nil
}

// ---------------------------------------------------------------------------
// Header lines (MP-H-01..05)

// headerByte checks MP-H-05 (1) for a header-line byte at off.
func (p *Parser) headerByte(off int64) error {
	if off >= p.headerLimitOff {
		return p.fail(formwire.MPLimitHeaderBytes, p.headerLimitOff)
	}
	return nil
}

// headerRoom: how many bytes from off still fit in the header block.
func (p *Parser) headerRoom(off int64) int {
	r := p.headerLimitOff - off
	if r < 0 {
		return 0
	}
	if r > int64(len(p.chunk)) {
		return len(p.chunk)
	}
	return int(r)
}

func lowerByte(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 32
	}
	return b
}

// headersStep runs header lines; done is true when the block is complete.
func (p *Parser) headersStep() (done bool, err error) {
	if p.hs == hsLineStart && p.lines == 0 {
		if body, ok := p.headersFast(); ok {
			crOff := p.base + int64(body-2)
			p.pos = body
			return true, p.endBlock(crOff, crOff+2)
		}
	}
	// The line state lives in a local while bytes are read and is stored
	// back once (not in a defer: with this many returns it would not be
	// open-coded, and a deferred call per header block is measurable).
	var hs hstate
	hs, done, err = p.headerLines(p.hs)
	if p.state == stHeaders {
		p.hs = hs
	}
	return done, err
}

// headerLines runs header lines byte by byte from line state hs; it returns
// the state it stopped in.
func (p *Parser) headerLines(hs hstate) (_ hstate, done bool, err error) {
	chunk := p.chunk
	end := len(chunk)
	lfOK := p.opts.AllowLF
	for {
		if p.pos == end {
			return hs, false, nil
		}
		b := chunk[p.pos]
		off := p.base + int64(p.pos)
		switch hs {
		case hsLineStart:
			if b == cr {
				// The empty line, or a bare CR: decided by the next byte.
				hs = hsLineStartCR
				p.pos++
				continue
			}
			if b == lf && lfOK {
				p.pos++
				return hs, true, p.endBlock(off, off+1)
			}
			if err := p.headerByte(off); err != nil {
				return hs, false, err
			}
			if (b == sp || b == ht) && p.lines > 0 {
				// MP-H-04: obs-fold.
				if !p.opts.AllowObsFold {
					return hs, false, p.fail(formwire.MPObsFold, off)
				}
				// Its SP goes in with its first content byte: an empty
				// continuation adds nothing.
				p.trimFloor = len(p.hbuf)
				p.folding = true
				hs = hsFoldOWS
				p.pos++
				continue
			}
			if err := p.newLine(off); err != nil {
				return hs, false, err
			}
			if b == sp || b == ht {
				hs = hsLead // MP-H-01: the first line may start with OWS
				p.pos++
			} else {
				hs = hsName
			}
		case hsLineStartCR:
			crOff := off - 1
			if b == lf {
				p.pos++
				return hs, true, p.endBlock(crOff, off+1)
			}
			if p.opts.AllowCr {
				// MP-H-03: a bare CR is an empty line; b begins the body.
				return hs, true, p.endBlock(crOff, off)
			}
			// A bare CR begins a header line: limits, then MP-H-02 (a CR is
			// not a token byte: the name check fails first).
			if err := p.headerByte(crOff); err != nil {
				return hs, false, err
			}
			if err := p.newLine(crOff); err != nil {
				return hs, false, err
			}
			return hs, false, p.fail(formwire.MPHeaderName, crOff)
		case hsLead:
			if err := p.headerByte(off); err != nil {
				return hs, false, err
			}
			if b == sp || b == ht {
				p.pos++
			} else {
				hs = hsName
			}
		case hsName:
			// A run of token bytes, lowercased into the buffer.
			stop := p.pos + p.headerRoom(off)
			if stop > end {
				stop = end
			}
			q := p.pos
			for q < stop && mime.TokenByte(chunk[q]) {
				p.hbuf = append(p.hbuf, lowerByte(chunk[q]))
				q++
			}
			p.pos = q
			if q == end {
				continue
			}
			off := p.base + int64(q)
			if err := p.headerByte(off); err != nil {
				return hs, false, err
			}
			switch c := chunk[q]; {
			case c == ':':
				if len(p.hbuf) == p.nameStart {
					return hs, false, p.fail(formwire.MPHeaderName, off)
				}
				p.nameEnd = len(p.hbuf)
				hs = hsValueOWS
			case (c == sp || c == ht) && len(p.hbuf) > p.nameStart:
				hs = hsNameOWS
			case c >= 0x80 && p.opts.AllowUtf8HeaderNames:
				// MP-H-01: bytes 80-FF are name bytes too (not
				// lowercased: ASCII only, MP-H-11). Only here, where a
				// strict name stops, so token runs stay one loop.
				p.hbuf = append(p.hbuf, c)
			default:
				// MP-H-02: before the colon every other byte (CR, LF, NUL
				// included) fails the name check first.
				return hs, false, p.fail(formwire.MPHeaderName, off)
			}
			p.pos++
		case hsNameOWS:
			if err := p.headerByte(off); err != nil {
				return hs, false, err
			}
			switch b {
			case sp, ht:
			case ':':
				p.nameEnd = len(p.hbuf)
				hs = hsValueOWS
			default:
				return hs, false, p.fail(formwire.MPHeaderName, off)
			}
			p.pos++
		case hsValueOWS, hsFoldOWS:
			if b == sp || b == ht {
				if err := p.headerByte(off); err != nil {
					return hs, false, err
				}
				p.pos++
			} else {
				if hs == hsValueOWS {
					p.valueStart = len(p.hbuf)
					p.trimFloor = p.valueStart
				} else if b != cr && b != lf {
					p.hbuf = append(p.hbuf, sp) // MP-H-04: joined with one SP
				}
				hs = hsValue
			}
		case hsValue:
			// A run up to the next NUL, CR or LF (MP-H-02).
			stop := p.pos + p.headerRoom(off)
			if stop > end {
				stop = end
			}
			q := p.pos
			for q < stop {
				c := chunk[q]
				if c == 0 || c == cr || c == lf {
					break
				}
				q++
			}
			p.hbuf = append(p.hbuf, chunk[p.pos:q]...)
			p.pos = q
			if q == end {
				continue
			}
			off := p.base + int64(q)
			if err := p.headerByte(off); err != nil {
				return hs, false, err
			}
			switch c := chunk[q]; {
			case c == cr:
				hs = hsValueCR
			case c == lf && lfOK:
				p.endLine()
				hs = hsLineStart
			default:
				return hs, false, p.fail(formwire.MPHeaderValue, off)
			}
			p.pos++
		case hsValueCR:
			if b != lf {
				if p.opts.AllowCr {
					// MP-H-02: the line ended at the CR; b begins the next.
					p.endLine()
					hs = hsLineStart
					continue
				}
				return hs, false, p.fail(formwire.MPHeaderValue, off-1)
			}
			if err := p.headerByte(off); err != nil {
				return hs, false, err
			}
			p.endLine()
			hs = hsLineStart
			p.pos++
		}
	}
}

// headersFast reads a whole header block in the common shape in one pass:
// every line `token ":" OWS value CRLF` with no byte needing a second look
// (no OWS before the colon, no obs-fold, no bare CR or LF, no NUL, within
// the limits), then the empty line, all inside the chunk. It fills hbuf and
// headers exactly as the byte-at-a-time path does and returns where the body
// begins; ok false (nothing changed) sends the block to that path, which
// decides everything else, errors included.
func (p *Parser) headersFast() (body int, ok bool) {
	chunk := p.chunk
	end := len(chunk)
	from := p.pos
	// Header line bytes must end before the limit (MP-H-05).
	limit := min(end, from+p.headerRoom(p.base+int64(from)))
	q := from
	lines := int64(0)
	// hbuf and headers are locals until the block is known good: a heap
	// store of a slice header per append costs a write barrier check each.
	hbuf, headers := p.hbuf[:0], p.headers[:0]
	for {
		if q+1 < end && chunk[q] == cr && chunk[q+1] == lf {
			break
		}
		lines++
		if lines > p.opts.MaxHeaders {
			goto bail
		}
		lineStart := q
		nameStart := len(hbuf)
		// The names browsers send, spelled as they send them.
		rest := chunk[q:]
		switch {
		case len(rest) >= 20 && string(rest[:20]) == "Content-Disposition:" && q+20 < limit:
			hbuf = append(hbuf, "content-disposition"...)
			q += 19
		case len(rest) >= 13 && string(rest[:13]) == "Content-Type:" && q+13 < limit:
			hbuf = append(hbuf, "content-type"...)
			q += 12
		default:
			for q < limit && mime.TokenByte(chunk[q]) {
				hbuf = append(hbuf, lowerByte(chunk[q]))
				q++
			}
			if q == lineStart || q >= limit || chunk[q] != ':' {
				goto bail
			}
		}
		nameEnd := len(hbuf)
		q++ // the colon
		for q < limit && (chunk[q] == sp || chunk[q] == ht) {
			q++
		}
		v := q
		q = valueEnd(chunk, q, limit)
		// The CR and its LF are header-line bytes too.
		if q+1 >= limit || chunk[q] != cr || chunk[q+1] != lf {
			goto bail
		}
		ve := q
		for ve > v && (chunk[ve-1] == sp || chunk[ve-1] == ht) {
			ve--
		}
		vs := len(hbuf)
		hbuf = append(hbuf, chunk[v:ve]...)
		headers = append(headers, hspan{nameStart, nameEnd, vs, len(hbuf), p.base + int64(lineStart)})
		q += 2
		// MP-H-04: a continuation line takes the slow path.
		if q < end && (chunk[q] == sp || chunk[q] == ht) {
			goto bail
		}
	}
	p.hbuf, p.headers = hbuf, headers
	p.lines = lines
	return q + 2, true
bail:
	p.hbuf, p.headers = hbuf[:0], headers[:0]
	return 0, false
}

// valueEnd is the index of the first NUL, CR or LF of b[q:limit] (MP-H-02),
// or limit: eight bytes per step (a zero-byte test on b, b^CR and b^LF),
// then byte by byte.
func valueEnd(b []byte, q, limit int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	for q+8 <= limit {
		x := binary.LittleEndian.Uint64(b[q:])
		if hasZero(x)|hasZero(x^(cr*ones))|hasZero(x^(lf*ones)) != 0 {
			break
		}
		q += 8
	}
	for q < limit && b[q] != 0 && b[q] != cr && b[q] != lf {
		q++
	}
	return q
}

// newLine: MP-H-05 (2), a new header line begins at off.
func (p *Parser) newLine(off int64) error {
	p.lines++
	if p.lines > p.opts.MaxHeaders {
		return p.fail(formwire.MPLimitHeaders, off)
	}
	p.lineStart = off
	p.folding = false
	p.nameStart = len(p.hbuf)
	return nil
}

// endLine: a header line ended; trim trailing OWS (MP-H-01) and record it.
func (p *Parser) endLine() {
	for len(p.hbuf) > p.trimFloor {
		c := p.hbuf[len(p.hbuf)-1]
		if c != sp && c != ht {
			break
		}
		p.hbuf = p.hbuf[:len(p.hbuf)-1]
	}
	if p.folding {
		if n := len(p.headers); n > 0 {
			p.headers[n-1].ve = len(p.hbuf)
		}
		p.folding = false
		return
	}
	p.headers = append(p.headers, hspan{p.nameStart, p.nameEnd, p.valueStart, len(p.hbuf), p.lineStart})
}

// endBlock: MP-H-06, the empty line at emptyLine ended the block; the body
// begins at bodyStart.
func (p *Parser) endBlock(emptyLine, bodyStart int64) error {
	cd, ct := -1, -1
	for i, h := range p.headers {
		name := p.hbuf[h.ns:h.ne]
		switch string(name) {
		case "content-disposition":
			if cd >= 0 {
				return p.fail(formwire.MPDisposition, h.line)
			}
			cd = i
		case "content-type":
			ct = i
		}
	}
	// MP-H-06: with AllowMissingDisposition no Content-Disposition, or one
	// that is empty once OWS-trimmed and obs-fold-joined, is a nameless part
	// (after the duplicate check above); a non-empty value must still parse.
	if cd < 0 {
		if !p.opts.AllowMissingDisposition {
			return p.fail(formwire.MPNoDisposition, emptyLine)
		}
		p.disp = disposition{nameless: true}
	} else if h := p.headers[cd]; h.vs == h.ve && p.opts.AllowMissingDisposition {
		p.disp = disposition{nameless: true}
	} else if !p.parseDisposition(h.vs, h.ve) {
		return p.fail(formwire.MPDisposition, h.line)
	}
	// MP-L-05: a file part has a filename (MP-L-02's rule; a nameless part
	// has none); the offset is MP-L-01's, the start of this part's header block.
	if p.disp.hasFilename {
		if p.files++; p.files > p.opts.MaxFiles {
			return p.fail(formwire.MPLimitFiles, p.blockStart)
		}
	} else if p.fields++; p.fields > p.opts.MaxFields {
		return p.fail(formwire.MPLimitFields, p.blockStart)
	}
	p.ct = ct
	p.inPart = true
	p.hasHead = true
	p.bodyStart = bodyStart
	p.bodyLen = 0
	p.state = stPartStart
	if p.disp.hasFilename {
		p.isField = false
		p.bodyLimit, p.bodyCode = p.opts.MaxFileBytes, formwire.MPLimitFileBytes
	} else {
		// MP-L-02 and MP-L-04: the nearer limit; at the same byte the
		// part's own limit wins.
		p.isField = true
		p.bodyLimit, p.bodyCode = p.opts.MaxFieldBytes, formwire.MPLimitFieldBytes
		if left := p.opts.MaxTotalFieldBytes - p.fieldTotal; left < p.bodyLimit {
			p.bodyLimit, p.bodyCode = left, formwire.MPLimitTotalFieldBytes
		}
	}
	return nil
}
