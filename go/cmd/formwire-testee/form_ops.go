package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/multipart"
	"github.com/formwire/formwire/go/urlencoded"
)

func init() {
	register("multipart.parse", func(r *Request) map[string]any { return results(r, multipartParse) })
	register("multipart.serialize", multipartSerialize)
	register("urlencoded.parse", func(r *Request) map[string]any { return results(r, urlencodedParse) })
	register("urlencoded.serialize", urlencodedSerialize)
}

// echoLimit: bodies up to this size are echoed as body_b64 (for diffs).
const echoLimit = 64 << 10

// limitValue reads a limit option: null is unlimited, else a whole number.
func limitValue(raw json.RawMessage) (int64, bool) {
	if string(raw) == "null" {
		return formwire.Unlimited, true
	}
	var n int64
	if json.Unmarshal(raw, &n) != nil || n < 0 {
		return 0, false
	}
	return n, true
}

func multipartOptions(req *Request) (*multipart.Options, error) {
	o := multipart.DefaultOptions()
	for k, raw := range req.Options {
		var flag bool
		known := false
		if string(raw) != "null" && json.Unmarshal(raw, &flag) == nil {
			known = o.SetFlag(k, flag)
		} else if n, ok := limitValue(raw); ok {
			known = o.SetLimit(k, n)
		}
		if !known {
			return nil, fmt.Errorf("unknown multipart option %s=%s", k, raw)
		}
	}
	return &o, nil
}

type partJSON struct {
	Name         *string     `json:"name"` // null for a nameless part (MP-H-06)
	Filename     *string     `json:"filename"`
	NameStar     *string     `json:"name_star"`
	FilenameStar *string     `json:"filename_star"`
	ContentType  *string     `json:"content_type"`
	Type         *string     `json:"type"`
	Headers      [][2]string `json:"headers"`
	Size         int64       `json:"size"`
	SHA256       string      `json:"sha256"`
	BodyB64      *string     `json:"body_b64,omitempty"`
}

func lossyPtr(b []byte, ok bool) *string {
	if !ok {
		return nil
	}
	s := lossy(b)
	return &s
}

func lossy(b []byte) string {
	// The spec's display decoding (U+FFFD per maximal subpart) is what
	// Head.Name uses; header values go through the same function.
	return multipart.DecodeLossy(b)
}

func multipartParse(req *Request, input []byte, cuts []int) any {
	opts, err := multipartOptions(req)
	if err != nil {
		return map[string]any{"error": testeeError("%v", err)}
	}
	p, err := multipart.NewParser(req.ContentType, opts)
	if err != nil {
		return map[string]any{"error": errorJSON(err)}
	}
	parts := []partJSON{}
	var cur *partJSON
	h := sha256.New()
	var echo []byte
	echoOK := true
	handle := func(ev multipart.Event) {
		switch ev.Kind {
		case multipart.PartStart:
			hd := p.Head()
			cur = &partJSON{Headers: [][2]string{}}
			if !hd.Nameless() {
				n := hd.Name()
				cur.Name = &n
			}
			if hd.IsFile() {
				f := hd.Filename()
				cur.Filename = &f
				t := hd.Type()
				cur.Type = &t
			}
			cur.NameStar = lossyPtr(hd.NameStar())
			cur.FilenameStar = lossyPtr(hd.FilenameStar())
			cur.ContentType = lossyPtr(hd.ContentType())
			for i := 0; i < hd.NumHeaders(); i++ {
				n, v := hd.Header(i)
				// Names too: with allow_utf8_header_names they may hold bytes 80-FF (MP-H-11).
				cur.Headers = append(cur.Headers, [2]string{lossy(n), lossy(v)})
			}
			h.Reset()
			echo, echoOK = echo[:0], true
		case multipart.Data:
			cur.Size += int64(len(ev.Data))
			h.Write(ev.Data)
			if echoOK && len(echo)+len(ev.Data) <= echoLimit {
				echo = append(echo, ev.Data...)
			} else {
				echoOK = false
			}
		case multipart.PartEnd:
			cur.SHA256 = hex.EncodeToString(h.Sum(nil))
			if echoOK {
				s := base64.StdEncoding.EncodeToString(echo)
				cur.BodyB64 = &s
			}
			parts = append(parts, *cur)
			cur = nil
		}
	}
	drain := func() error {
		for {
			ev, err := p.Next()
			if err != nil {
				return err
			}
			if ev.Kind == multipart.None {
				return nil
			}
			handle(ev)
		}
	}
	for _, c := range chunks(input, cuts) {
		p.Feed(c)
		if err := drain(); err != nil {
			return map[string]any{"error": errorJSON(err)}
		}
	}
	p.Finish()
	if err := drain(); err != nil {
		return map[string]any{"error": errorJSON(err)}
	}
	return map[string]any{"ok": map[string]any{"parts": parts}}
}

type entryJSON struct {
	Name  string  `json:"name"`
	Value *string `json:"value"`
	File  *struct {
		Filename string   `json:"filename"`
		Type     string   `json:"type"`
		Body     bodyJSON `json:"body"`
	} `json:"file"`
	Blob *struct {
		Type string   `json:"type"`
		Body bodyJSON `json:"body"`
	} `json:"blob"`
}

type bodyJSON struct {
	Base64 *string `json:"base64"`
	Text   *string `json:"text"`
}

func (b bodyJSON) bytes() ([]byte, error) {
	switch {
	case b.Base64 != nil:
		return base64.StdEncoding.DecodeString(*b.Base64)
	case b.Text != nil:
		return []byte(*b.Text), nil
	}
	return nil, fmt.Errorf("unsupported body")
}

func multipartSerialize(req *Request) map[string]any {
	var enc *multipart.Encoder
	if req.Boundary != nil {
		var err error
		if enc, err = multipart.NewEncoderBoundary(*req.Boundary); err != nil {
			return map[string]any{"error": errorJSON(err)}
		}
	} else {
		enc = multipart.NewEncoder()
	}
	for _, raw := range req.Entries {
		var e entryJSON
		if err := json.Unmarshal(raw, &e); err != nil {
			return map[string]any{"error": testeeError("bad entry: %v", err)}
		}
		var err error
		switch {
		case e.File != nil:
			body, berr := e.File.Body.bytes()
			if berr != nil {
				return map[string]any{"error": testeeError("%v", berr)}
			}
			err = enc.AddFileBytes(e.Name, e.File.Filename, e.File.Type, body)
		case e.Blob != nil:
			body, berr := e.Blob.Body.bytes()
			if berr != nil {
				return map[string]any{"error": testeeError("%v", berr)}
			}
			err = enc.AddBlob(e.Name, e.Blob.Type, body)
		case e.Value != nil:
			enc.AddField(e.Name, *e.Value)
		default:
			return map[string]any{"error": testeeError("entry without value, file or blob")}
		}
		if err != nil {
			return map[string]any{"error": errorJSON(err)}
		}
	}
	// PROTOCOL.md: the length is known before the body is produced.
	n, ok := enc.ContentLength()
	if !ok {
		return map[string]any{"error": testeeError("content length unknown")}
	}
	body, err := enc.Bytes()
	if err != nil {
		return map[string]any{"error": testeeError("%v", err)}
	}
	return map[string]any{"ok": map[string]any{
		"content_type": enc.ContentType(), "content_length": n,
		"body_b64": base64.StdEncoding.EncodeToString(body),
	}}
}

func urlencodedOptions(req *Request) (*urlencoded.Options, error) {
	o := urlencoded.DefaultOptions()
	for k, raw := range req.Options {
		n, ok := limitValue(raw)
		if !ok || !o.SetLimit(k, n) {
			return nil, fmt.Errorf("unknown urlencoded option %s=%s", k, raw)
		}
	}
	return &o, nil
}

func urlencodedParse(req *Request, input []byte, cuts []int) any {
	opts, err := urlencodedOptions(req)
	if err != nil {
		return map[string]any{"error": testeeError("%v", err)}
	}
	pairs := [][2]string{}
	if len(cuts) == 0 {
		// Whole input: the buffer API.
		ps, err := urlencoded.Parse(input, opts)
		if err != nil {
			return map[string]any{"error": errorJSON(err)}
		}
		for _, p := range ps {
			pairs = append(pairs, [2]string{p.Name, p.Value})
		}
		return map[string]any{"ok": map[string]any{"pairs": pairs}}
	}
	p := urlencoded.NewParser(opts)
	drain := func() error {
		for {
			pr, ok, err := p.Next()
			if err != nil {
				return err
			}
			if !ok {
				return nil
			}
			pairs = append(pairs, [2]string{pr.Name, pr.Value})
		}
	}
	for _, c := range chunks(input, cuts) {
		p.Feed(c)
		if err := drain(); err != nil {
			return map[string]any{"error": errorJSON(err)}
		}
	}
	p.Finish()
	if err := drain(); err != nil {
		return map[string]any{"error": errorJSON(err)}
	}
	return map[string]any{"ok": map[string]any{"pairs": pairs}}
}

func urlencodedSerialize(req *Request) map[string]any {
	pairs := make([]urlencoded.Pair, 0, len(req.Pairs))
	for _, p := range req.Pairs {
		if len(p) != 2 {
			return map[string]any{"error": testeeError("bad pair")}
		}
		pairs = append(pairs, urlencoded.Pair{Name: p[0], Value: p[1]})
	}
	return map[string]any{"ok": map[string]any{"text": urlencoded.Serialize(pairs)}}
}
