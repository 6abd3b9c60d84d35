package multipart_test

import (
	"fmt"

	"github.com/formwire/formwire/go/multipart"
)

// The sans-IO parser: feed any chunks, pull events. Data events are views of
// the chunk fed (or of a few held-back bytes), never copies.
func ExampleParser() {
	body := []byte("--b\r\nContent-Disposition: form-data; name=\"greeting\"\r\n\r\nhello\r\n" +
		"--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n--b--")
	p, err := multipart.NewParser("multipart/form-data; boundary=b", nil)
	if err != nil {
		panic(err)
	}
	drain := func() {
		for {
			ev, err := p.Next()
			if err != nil {
				fmt.Println("error:", err)
				return
			}
			switch ev.Kind {
			case multipart.None:
				return
			case multipart.PartStart:
				h := p.Head()
				fmt.Printf("part %q file=%v %q\n", h.Name(), h.IsFile(), h.Filename())
			case multipart.Data:
				fmt.Printf("  data %q\n", ev.Data)
			case multipart.End:
				fmt.Println("end")
			}
		}
	}
	for _, cut := range [][]byte{body[:58], body[58:]} { // any split gives the same parts
		p.Feed(cut)
		drain()
	}
	p.Finish()
	drain()
	// Output:
	// part "greeting" file=false ""
	//   data "he"
	//   data "llo"
	// part "f" file=true "a.txt"
	//   data "file body"
	// end
}
