package bench

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	formwire "github.com/formwire/formwire/go"
	"github.com/formwire/formwire/go/multipart"
)

// vmHWM is the process's peak resident set size in bytes (Linux).
func vmHWM(t *testing.T) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: peak RSS cannot be read on this system")
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	t.Skip("no VmHWM line")
	return 0
}

// TestBigUpload streams a FORMWIRE_BIG_GIB (default 20) GiB file part
// through multipart.NewReader from an io.Pipe and checks that the peak RSS
// stays under 64 MiB: memory does not grow with the body. Run by
// bench/go/run --big (skipped otherwise: it takes a while).
func TestBigUpload(t *testing.T) {
	gib, _ := strconv.ParseInt(os.Getenv("FORMWIRE_BIG_GIB"), 10, 64)
	if os.Getenv("FORMWIRE_BIG") == "" {
		t.Skip("set FORMWIRE_BIG=1 (bench/go/run --big) to stream a 20 GiB upload")
	}
	if gib <= 0 {
		gib = 20
	}
	size := gib << 30
	const boundary = "----formwireBigUpload"
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte("--" + boundary + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n\r\n"))
		block := make([]byte, 1<<20)
		for i := range block {
			block[i] = byte(i*7 + i>>8)
		}
		for left := size; left > 0; {
			n := min(left, int64(len(block)))
			if _, err := pw.Write(block[:n]); err != nil {
				return
			}
			left -= n
		}
		pw.Write([]byte("\r\n--" + boundary + "--\r\n"))
		pw.Close()
	}()
	o := multipart.DefaultOptions()
	o.MaxFileBytes, o.MaxTotalBytes = formwire.Unlimited, formwire.Unlimited
	before := vmHWM(t)
	start := time.Now()
	r, err := multipart.NewReader(pr, "multipart/form-data; boundary="+boundary, &o)
	if err != nil {
		t.Fatal(err)
	}
	part, err := r.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, part)
	if err != nil || n != size {
		t.Fatalf("%d bytes, %v", n, err)
	}
	if _, err := r.NextPart(); err != io.EOF {
		t.Fatal(err)
	}
	el := time.Since(start)
	peak := vmHWM(t)
	t.Logf("BIGUPLOAD %d GiB in %.1f s (%.2f GB/s through the pipe), peak RSS %.1f MiB (%.1f MiB before)",
		gib, el.Seconds(), float64(size)/el.Seconds()/1e9, float64(peak)/(1<<20), float64(before)/(1<<20))
	if peak > 64<<20 {
		t.Fatalf("peak RSS %d MiB", peak>>20)
	}
}
