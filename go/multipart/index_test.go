package multipart

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// indexNeedle (the AVX2 pair search on amd64) agrees with bytes.Index: the
// needle at every position of haystacks of every length around the 32-byte
// blocks and the tail, near-misses at both ends, and inputs dense with both
// end bytes (the fallback).
func TestIndexNeedle(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	needles := [][]byte{[]byte("\r\n--b"), []byte("\r\n--" + "----PeerBenchFormBoundary7MA4YWxkTrZu0g"), append([]byte("\r\n--"), bytes.Repeat([]byte("z"), 70)...)}
	for _, n := range needles {
		for size := 0; size < 700; size += 1 + size/16 {
			hay := make([]byte, size)
			for i := range hay {
				hay[i] = "ab\r\nz-!"[rng.Intn(7)]
			}
			check := func(h []byte) {
				t.Helper()
				if got, want := indexNeedle(h, n), bytes.Index(h, n); got != want {
					t.Fatalf("needle %d B, haystack %d B: %d, want %d", len(n), len(h), got, want)
				}
			}
			check(hay)
			for at := 0; at+len(n) <= size; at++ {
				h := append([]byte(nil), hay...)
				copy(h[at:], n)
				check(h)
				h[at+len(n)-1] ^= 1 // last byte off
				check(h)
				h[at+len(n)-1] ^= 1
				h[at+len(n)/2] ^= 1 // middle byte off: both ends match
				check(h)
			}
		}
		// Dense candidates: every other position has both end bytes.
		dense := bytes.Repeat([]byte{n[0], n[len(n)-1]}, 5000)
		check := func(h []byte) {
			if got, want := indexNeedle(h, n), bytes.Index(h, n); got != want {
				t.Fatalf("dense, needle %d B: %d, want %d", len(n), got, want)
			}
		}
		check(dense)
		check(append(append([]byte(nil), dense...), n...))
		dense2 := bytes.Repeat(append([]byte{n[0]}, bytes.Repeat([]byte{n[len(n)-1]}, len(n)-2)...), 400)
		check(dense2)
		check(append(append([]byte(nil), dense2...), n...))
	}
}

func BenchmarkIndexNeedle(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	hay := make([]byte, 64<<10)
	rng.Read(hay)
	n := []byte("\r\n--" + "----PeerBenchFormBoundary7MA4YWxkTrZu0gX")
	b.SetBytes(int64(len(hay)))
	b.Run("indexNeedle", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if indexNeedle(hay, n) >= 0 {
				b.Fatal("found")
			}
		}
	})
	b.Run("bytes.Index", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			//lint:ignore S1003 the comparison
			if bytes.Index(hay, n) >= 0 {
				b.Fatal("found")
			}
		}
	})
}

// Large parts go through indexNeedle: a 300 KB file body sprinkled with
// delimiter near-misses (MP-P-04: `CRLF--B` followed by a non-follower byte;
// `CRLF--` + a prefix of B; B with its last byte changed) parses to the same parts, byte for byte, fed
// whole, byte by byte and in reads of several sizes.
func TestLargePartSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const bnd = "----PeerBenchFormBoundary7MA4YWxkTrZu0g"
	file := make([]byte, 300_000)
	rng.Read(file)
	for i := 0; i < 400; i++ {
		at := rng.Intn(len(file) - 64)
		switch i % 3 {
		case 0:
			copy(file[at:], "\r\n--"+bnd+"X")
		case 1:
			copy(file[at:], "\r\n--"+bnd[:rng.Intn(len(bnd))])
		default:
			copy(file[at:], "\r\n--"+bnd[:len(bnd)-1]+"!") // both ends but the last byte
		}
	}
	b := []byte("--" + bnd + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\"\r\n\r\n")
	b = append(b, file...)
	b = append(b, "\r\n--"+bnd+"--\r\n"...)
	ctype := "multipart/form-data; boundary=" + bnd
	want := summary(t, ctype, nil, whole(b))
	if !strings.Contains(want, " 300000 ") {
		t.Fatalf("file body not whole: %s", want)
	}
	for _, size := range []int{1, 7, 4093, 64 << 10, 100_003} {
		var chunks [][]byte
		for c := b; len(c) > 0; c = c[min(size, len(c)):] {
			chunks = append(chunks, c[:min(size, len(c))])
		}
		if got := summary(t, ctype, nil, chunks); got != want {
			t.Fatalf("reads of %d: %s, want %s", size, got, want)
		}
	}
}

// FuzzIndexNeedle: indexNeedle and bytes.Index agree on any haystack (made
// long enough for the vector path by repetition) and any delimiter.
func FuzzIndexNeedle(f *testing.F) {
	f.Add([]byte("a\r\n--b"), []byte("b"), uint16(300))
	f.Add([]byte("\r\n--xy\r\n--x"), []byte("xyz"), uint16(1000))
	f.Fuzz(func(t *testing.T, unit, boundary []byte, reps uint16) {
		if len(unit) == 0 || len(boundary) == 0 {
			return
		}
		n := append([]byte("\r\n--"), boundary...)
		hay := bytes.Repeat(unit, 1+int(reps)%2048/len(unit)+256/len(unit))
		if got, want := indexNeedle(hay, n), bytes.Index(hay, n); got != want {
			t.Fatalf("%d, want %d", got, want)
		}
	})
}
