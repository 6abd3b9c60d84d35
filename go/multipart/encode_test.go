package multipart

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"

	formwire "github.com/formwire/formwire/go"
)

func TestEncoderBytes(t *testing.T) {
	e, err := NewEncoderBoundary("BOUNDARY")
	if err != nil {
		t.Fatal(err)
	}
	e.AddField("a\nb", "line 1\nline 2\r")
	if err := e.AddFileBytes("f", "x\".txt\n", "", []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if err := e.AddBlob("b", "image/png", []byte{0, 1}); err != nil {
		t.Fatal(err)
	}
	n, ok := e.ContentLength()
	got, err := e.Bytes()
	want := "--BOUNDARY\r\nContent-Disposition: form-data; name=\"a%0D%0Ab\"\r\n\r\nline 1\r\nline 2\r\n\r\n" +
		"--BOUNDARY\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x%22.txt%0A\"\r\nContent-Type: application/octet-stream\r\n\r\nhi\r\n" +
		"--BOUNDARY\r\nContent-Disposition: form-data; name=\"b\"; filename=\"blob\"\r\nContent-Type: image/png\r\n\r\n\x00\x01\r\n" +
		"--BOUNDARY--\r\n"
	if err != nil || string(got) != want || !ok || n != int64(len(want)) {
		t.Fatalf("%v %v %d\n%q", err, ok, n, got)
	}
	if e.ContentType() != "multipart/form-data; boundary=BOUNDARY" {
		t.Fatal(e.ContentType())
	}
}

func TestEncoderErrors(t *testing.T) {
	for _, b := range []string{"", "a ", strings.Repeat("a", 71), "a\"b", "é"} {
		_, err := NewEncoderBoundary(b)
		if !errors.Is(err, formwire.MPEncodeBoundary) {
			t.Errorf("%q: %v", b, err)
		}
	}
	e, _ := NewEncoderBoundary("a/b=c")
	if e.ContentType() != `multipart/form-data; boundary="a/b=c"` {
		t.Fatal(e.ContentType())
	}
	e.AddField("x", "y")
	err := e.AddFileBytes("f", "n", "text/plain\r\nX-Evil: 1", nil)
	var fe *formwire.Error
	if !errors.As(err, &fe) || fe.Code != formwire.MPEncodeHeader || fe.Offset != 1 {
		t.Fatal(err)
	}
}

// A streamed file: Reader, WriteTo and Bytes agree; ContentLength is known
// with a size and unknown without; a reader giving other than its size fails.
func TestEncoderStreamed(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 100_000)
	mk := func(size int64, src []byte) *Encoder {
		e := NewEncoder()
		e.AddField("a", "1")
		if err := e.AddFile("f", "big.bin", "application/x", bytes.NewReader(src), size); err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := mk(int64(len(data)), data)
	n, ok := e.ContentLength()
	got, err := io.ReadAll(iotestHalf(e.Reader()))
	if err != nil || !ok || int64(len(got)) != n {
		t.Fatalf("%v %v %d %d", err, ok, n, len(got))
	}
	// The output parses back.
	r, _ := NewReader(bytes.NewReader(got), e.ContentType(), nil)
	var names []string
	for part, err := range r.Parts() {
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(part)
		if part.Name == "f" && !bytes.Equal(b, data) {
			t.Fatal("file body differs")
		}
		names = append(names, part.Name)
	}
	if strings.Join(names, ",") != "a,f" {
		t.Fatal(names)
	}
	if _, ok := mk(-1, data).ContentLength(); ok {
		t.Fatal("length known without a size")
	}
	if _, err := mk(int64(len(data))+1, data).WriteTo(io.Discard); err == nil {
		t.Fatal("short reader accepted")
	}
	if _, err := io.Copy(io.Discard, mk(int64(len(data))-1, data).Reader()); err == nil {
		t.Fatal("long reader accepted")
	}
}

// MP-S-09: the boundary's characters are uniform over base 62. A chi-square
// test over 200,000 characters (61 degrees of freedom): the 99.99th
// percentile is about 111, so a fair generator fails once in 10,000 runs.
// The same statistic over c % 62 of fair bytes without the rejection step
// (characters 0-7 then come 5 times in 256 instead of 4) must exceed it, so
// the test can see the bias rejection sampling removes.
func TestBoundaryUniform(t *testing.T) {
	chi := func(next func() byte) float64 {
		counts := map[byte]int{}
		const total = 200_000
		for i := 0; i < total; i++ {
			counts[next()]++
		}
		exp := float64(total) / 62
		x := 0.0
		for _, c := range []byte(base62) {
			d := float64(counts[c]) - exp
			x += d * d / exp
		}
		return x
	}
	var cur string
	fair := func() byte {
		if cur == "" {
			b := RandomBoundary()
			if !strings.HasPrefix(b, "----formwire-") || len(b) != 45 {
				t.Fatal(b)
			}
			cur = b[13:]
		}
		c := cur[0]
		cur = cur[1:]
		return c
	}
	if x := chi(fair); x > 111 || math.IsNaN(x) {
		t.Fatalf("chi-square %.1f over 61 degrees of freedom", x)
	}
	var one [1]byte
	biased := func() byte {
		rand.Read(one[:])
		return base62[one[0]%62]
	}
	if x := chi(biased); x < 111 {
		t.Fatalf("the test cannot see a modulo bias (chi-square %.1f)", x)
	}
	if a, b := RandomBoundary(), RandomBoundary(); a == b {
		t.Fatal("same boundary twice")
	}
}

// Bytes of a large form (its buffer not cleared first) equals WriteTo's
// bytes, and its capacity is its length (no uncleared byte is reachable),
// also when a file's reader fails part way.
func TestEncoderBytesLarge(t *testing.T) {
	blob := bytes.Repeat([]byte("0123456789abcdef"), 20_000)
	e, _ := NewEncoderBoundary("BOUNDARY")
	for i := 0; i < 100; i++ {
		e.AddField(fmt.Sprint("f", i), strings.Repeat("v", i))
	}
	e.AddFileBytes("file", "a.bin", "application/octet-stream", blob)
	got, err := e.Bytes()
	var want bytes.Buffer
	if _, werr := e.WriteTo(&want); err != nil || werr != nil || !bytes.Equal(got, want.Bytes()) || cap(got) != len(got) {
		t.Fatalf("%v %v: %d bytes (cap %d), want %d", err, werr, len(got), cap(got), want.Len())
	}
	e2, _ := NewEncoderBoundary("BOUNDARY")
	e2.AddFile("file", "a.bin", "", io.MultiReader(bytes.NewReader(blob), iotest.ErrReader(errors.New("disk"))), int64(len(blob))+10)
	got, err = e2.Bytes()
	if err == nil || cap(got) != len(got) {
		t.Fatalf("%v: %d bytes, cap %d", err, len(got), cap(got))
	}
}
