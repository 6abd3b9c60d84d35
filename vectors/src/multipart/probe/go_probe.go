// spec/multipart.md §8 probe: Go mime/multipart. go run go_probe.go <cases-dir>
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"os"
	"sort"
)

func main() {
	var idx map[string]string
	b, _ := os.ReadFile(os.Args[1] + "/index.json")
	json.Unmarshal(b, &idx)
	keys := []string{}
	for k := range idx {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		body, _ := os.ReadFile(os.Args[1] + "/" + k + ".bin")
		_, params, err := mime.ParseMediaType(idx[k])
		if err != nil {
			fmt.Printf("%q: ct error %v\n", k, err)
			continue
		}
		r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		out := []any{}
		var perr error
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				perr = err
				break
			}
			data, err := io.ReadAll(p)
			if err != nil {
				perr = err
				break
			}
			out = append(out, []string{p.FormName(), p.FileName(), string(data), p.Header.Get("Content-Disposition")})
		}
		j, _ := json.Marshal(out)
		fmt.Printf("%q: %s err=%v\n", k, j, perr)
	}
}
