package v8

import (
	"bytes"
	"sync"
	"testing"
)

// Decoders and encoders are pooled: goroutines decoding and encoding at once get the same results as one alone
// (run with -race to also check the pool hands out no shared state).
func TestConcurrentUse(t *testing.T) {
	type pair struct {
		in, out []byte
		opts    *Options
	}
	var cases []pair
	for _, v := range LoadVectors(t) {
		b, ok := v.Input["bytes"].([]byte)
		if !ok || len(b) > 1<<16 {
			continue
		}
		opts := VectorOptions(v.Opts)
		val, err := Decode(b, opts)
		if err != nil {
			continue
		}
		out, err := Encode(val, nil)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, pair{b, out, opts})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < 5; r++ {
				for i := range cases {
					c := cases[(i+g*37)%len(cases)]
					v, err := Decode(c.in, c.opts)
					if err != nil {
						select {
						case errs <- "concurrent decode failed: " + err.Error():
						default:
						}
						return
					}
					out, err := Encode(v, nil)
					if err != nil || !bytes.Equal(out, c.out) {
						select {
						case errs <- "concurrent result differs":
						default:
						}
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
