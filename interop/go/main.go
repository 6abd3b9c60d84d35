// Command gointerop is the Go side of formwire's interop matrix (standard library only).
//
//	gointerop produce < job.json   sends each case with mime/multipart.Writer (+ http.Post) or http.PostForm
//	gointerop consume < job.json   decodes each body with mime/multipart.Reader or Request.ParseForm
//
// produce job: {"url": "...", "cases": [{"case", "kind", "entries" | "pairs"}]}; prints {"version": "..."}.
// consume job: {"cases": [{"key", "content_type", "body_b64"}]}; prints one JSON line per case:
// {"key", "ok": {"entries": [...]}} (multipart) / {"key", "ok": {"pairs": [...]}} (urlencoded) / {"key", "error"}.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"runtime"
	"sort"
)

type body struct {
	Base64 string `json:"base64"`
}

type fileSpec struct {
	Filename string `json:"filename"`
	Type     string `json:"type"`
	Body     body   `json:"body"`
}

type entry struct {
	Name  string    `json:"name"`
	Value *string   `json:"value"`
	File  *fileSpec `json:"file"`
}

type produceCase struct {
	Case    string     `json:"case"`
	Kind    string     `json:"kind"`
	Entries []entry    `json:"entries"`
	Pairs   [][]string `json:"pairs"`
}

type produceJob struct {
	URL   string        `json:"url"`
	Cases []produceCase `json:"cases"`
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gointerop:", err)
		os.Exit(1)
	}
}

func produce() {
	var job produceJob
	must(json.NewDecoder(os.Stdin).Decode(&job))
	for _, c := range job.Cases {
		target := job.URL + "/" + url.PathEscape(c.Case)
		var resp *http.Response
		var err error
		if c.Kind == "urlencoded" {
			v := url.Values{}
			for _, p := range c.Pairs {
				v.Add(p[0], p[1])
			}
			resp, err = http.PostForm(target, v)
		} else {
			var buf bytes.Buffer
			w := multipart.NewWriter(&buf)
			for _, e := range c.Entries {
				if e.Value != nil {
					must(w.WriteField(e.Name, *e.Value))
					continue
				}
				data, err := base64.StdEncoding.DecodeString(e.File.Body.Base64)
				must(err)
				var pw io.Writer
				if e.File.Type == "" || e.File.Type == "application/octet-stream" {
					pw, err = w.CreateFormFile(e.Name, e.File.Filename)
				} else {
					h := make(textproto.MIMEHeader)
					h.Set("Content-Disposition", multipart.FileContentDisposition(e.Name, e.File.Filename))
					h.Set("Content-Type", e.File.Type)
					pw, err = w.CreatePart(h)
				}
				must(err)
				_, err = pw.Write(data)
				must(err)
			}
			must(w.Close())
			resp, err = http.Post(target, w.FormDataContentType(), &buf)
		}
		must(err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			must(fmt.Errorf("%s: status %d", c.Case, resp.StatusCode))
		}
	}
	out, _ := json.Marshal(map[string]string{"version": runtime.Version()})
	fmt.Println(string(out))
}

type consumeCase struct {
	Key         string `json:"key"`
	ContentType string `json:"content_type"`
	BodyB64     string `json:"body_b64"`
}

type outEntry struct {
	Name     string  `json:"name"`
	Filename *string `json:"filename"`
	Type     *string `json:"type"`
	BodyB64  string  `json:"body_b64"`
}

func consumeOne(c consumeCase) map[string]any {
	data, err := base64.StdEncoding.DecodeString(c.BodyB64)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	mt, params, err := mime.ParseMediaType(c.ContentType)
	if err != nil {
		return map[string]any{"error": "Content-Type: " + err.Error()}
	}
	if mt == "application/x-www-form-urlencoded" {
		req, _ := http.NewRequest("POST", "/", bytes.NewReader(data))
		req.Header.Set("Content-Type", c.ContentType)
		if err := req.ParseForm(); err != nil {
			return map[string]any{"error": "ParseForm: " + err.Error()}
		}
		// url.Values is a map: the order of different names is lost. Names sorted, values in order.
		names := make([]string, 0, len(req.PostForm))
		for n := range req.PostForm {
			names = append(names, n)
		}
		sort.Strings(names)
		pairs := [][]string{}
		for _, n := range names {
			for _, v := range req.PostForm[n] {
				pairs = append(pairs, []string{n, v})
			}
		}
		return map[string]any{"ok": map[string]any{"pairs": pairs}}
	}
	r := multipart.NewReader(bytes.NewReader(data), params["boundary"])
	entries := []outEntry{}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return map[string]any{"error": "NextPart: " + err.Error()}
		}
		b, err := io.ReadAll(p)
		if err != nil {
			return map[string]any{"error": "reading a part: " + err.Error()}
		}
		// As (*Reader).ReadForm reads parts: no name, skipped; no (or empty) file name, a value; else a file.
		name := p.FormName()
		if name == "" {
			continue
		}
		e := outEntry{Name: name, BodyB64: base64.StdEncoding.EncodeToString(b)}
		if fn := p.FileName(); fn != "" {
			t := p.Header.Get("Content-Type")
			e.Filename, e.Type = &fn, &t
		}
		entries = append(entries, e)
	}
	return map[string]any{"ok": map[string]any{"entries": entries}}
}

func consume() {
	var job struct {
		Cases []consumeCase `json:"cases"`
	}
	must(json.NewDecoder(os.Stdin).Decode(&job))
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for _, c := range job.Cases {
		res := consumeOne(c)
		res["key"] = c.Key
		must(enc.Encode(res))
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gointerop produce|consume|version < job.json")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "produce":
		produce()
	case "consume":
		consume()
	case "version":
		fmt.Println(runtime.Version())
	default:
		fmt.Fprintln(os.Stderr, "unknown command", os.Args[1])
		os.Exit(2)
	}
}
