// Command formwire-testee is the Go conformance testee (conformance/PROTOCOL.md):
// JSON lines on stdin, one response line per request on stdout. It holds no
// test logic: each op decodes the request, calls formwire's public API and
// encodes the result. Standard library only.
//
// Ops live in a table that files of this package fill from init() with
// register(name, handler): a new format adds a file (e.g. clone_ops.go for
// the V8 codec) without touching this one.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	formwire "github.com/formwire/formwire/go"
)

// Request is one request line. Fields an op does not use stay zero; Raw has
// the whole line for fields this struct does not name.
type Request struct {
	ID          json.RawMessage            `json:"id"`
	Op          string                     `json:"op"`
	ContentType string                     `json:"content_type"`
	Options     map[string]json.RawMessage `json:"options"`
	InputB64    string                     `json:"input_b64"`
	Chunkings   []json.RawMessage          `json:"chunkings"`
	Boundary    *string                    `json:"boundary"`
	Entries     []json.RawMessage          `json:"entries"`
	Pairs       [][]string                 `json:"pairs"`
	Value       json.RawMessage            `json:"value"`
	Raw         json.RawMessage            `json:"-"`
}

// Handler answers one request with the response object without its "id":
// {"ok": ...}, {"error": ...} or {"results": [...]}.
type Handler func(req *Request) map[string]any

var ops = map[string]Handler{}

// register adds an op; call it from init().
func register(name string, h Handler) {
	if _, dup := ops[name]; dup {
		panic("formwire-testee: op registered twice: " + name)
	}
	ops[name] = h
}

// testeeError is an error of the testee itself (not a formwire code).
func testeeError(format string, a ...any) map[string]any {
	return map[string]any{"code": "TESTEE", "offset": 0, "message": fmt.Sprintf(format, a...)}
}

// errorJSON is a formwire error as the protocol writes it.
func errorJSON(err error) map[string]any {
	var fe *formwire.Error
	if errors.As(err, &fe) {
		return map[string]any{"code": string(fe.Code), "offset": fe.Offset, "message": fe.Error()}
	}
	return testeeError("%v", err)
}

// input decodes input_b64.
func (r *Request) input() ([]byte, error) {
	return base64.StdEncoding.DecodeString(r.InputB64)
}

// cuts turns chunking i into cut offsets: [] whole, "bytes" every byte, or a
// strictly increasing list in 1..n-1.
func cuts(c json.RawMessage, n int) ([]int, error) {
	var s string
	if json.Unmarshal(c, &s) == nil {
		if s != "bytes" {
			return nil, fmt.Errorf("bad chunking %q", s)
		}
		out := make([]int, 0, max(n-1, 0))
		for i := 1; i < n; i++ {
			out = append(out, i)
		}
		return out, nil
	}
	var list []int
	if err := json.Unmarshal(c, &list); err != nil {
		return nil, fmt.Errorf("bad chunking %s", c)
	}
	for i, v := range list {
		if v <= 0 || v >= n || (i > 0 && v <= list[i-1]) {
			return nil, fmt.Errorf("cut %d out of order or outside 1..%d", v, n-1)
		}
	}
	return list, nil
}

// chunks splits input at cuts.
func chunks(input []byte, cuts []int) [][]byte {
	out := make([][]byte, 0, len(cuts)+1)
	prev := 0
	for _, c := range cuts {
		out = append(out, input[prev:c])
		prev = c
	}
	return append(out, input[prev:])
}

// results runs parse once per chunking: {"results": [...]}. parse returns
// one result object ({"ok": ...} or {"error": ...}).
func results(req *Request, parse func(req *Request, input []byte, cuts []int) any) map[string]any {
	input, err := req.input()
	if err != nil {
		return map[string]any{"error": testeeError("bad input_b64: %v", err)}
	}
	chs := req.Chunkings
	if len(chs) == 0 {
		chs = []json.RawMessage{json.RawMessage("[]")}
	}
	out := make([]any, 0, len(chs))
	for _, c := range chs {
		cs, err := cuts(c, len(input))
		if err != nil {
			out = append(out, map[string]any{"error": testeeError("%v", err)})
			continue
		}
		out = append(out, parse(req, input, cs))
	}
	return map[string]any{"results": out}
}

func hello(*Request) map[string]any {
	names := make([]string, 0, len(ops)+1)
	for n := range ops {
		if n != "hello" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return map[string]any{"ok": map[string]any{"lang": "go", "version": "0.1.0", "ops": names}}
}

func init() { register("hello", hello) }

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			serve(line, out)
			out.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "formwire-testee: stdin:", err)
			os.Exit(1)
		}
	}
}

func serve(line []byte, out *bufio.Writer) {
	trimmed := false
	for _, c := range line {
		if c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			trimmed = true
			break
		}
	}
	if !trimmed {
		return
	}
	var req Request
	var resp map[string]any
	if err := json.Unmarshal(line, &req); err != nil {
		resp = map[string]any{"error": testeeError("bad request line: %v", err)}
	} else {
		req.Raw = line
		h, ok := ops[req.Op]
		if !ok {
			resp = map[string]any{"error": testeeError("unknown op %q", req.Op)}
		} else {
			resp = h(&req)
		}
	}
	id := req.ID
	if id == nil {
		id = json.RawMessage("null")
	}
	resp["id"] = id
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		fmt.Fprintf(out, "{\"id\":%s,\"error\":{\"code\":\"TESTEE\",\"offset\":0,\"message\":%q}}\n", id, err.Error())
	}
}
