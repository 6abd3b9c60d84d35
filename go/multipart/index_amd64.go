//go:build amd64 && !purego

package multipart

// The delimiter search on amd64 with AVX2: 32 positions at a time, each
// tested for the needle's first byte and, at the needle's length minus one
// further on, its last byte (the two ends of `CRLF "--" B`); only a position
// where both match is compared in full. bytes.Index stops at every CR (one
// in 256 bytes of random data) and is what this beats on large bodies.

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// indexPairAVX2 returns the lowest i with s[i] == first and s[i+off] ==
// last among the whole 32-byte blocks it tests (block starts 0, 32, ...
// while start+32+off <= len(s)); when no block has one, -1 - (the first
// start not tested).
//
//go:noescape
func indexPairAVX2(s []byte, first, last byte, off int) int

var hasAVX2 = func() bool {
	_, _, c1, _ := cpuid(1, 0)
	if c1&(1<<27) == 0 { // OSXSAVE: XGETBV is available
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // the OS saves XMM and YMM state
		return false
	}
	if max, _, _, _ := cpuid(0, 0); max < 7 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0 // AVX2
}()

// indexNeedle is bytes.Index(s, n) for a needle of at least 2 bytes.
func indexNeedle(s, n []byte) int {
	if !hasAVX2 || len(s) < 256 {
		return bytesIndex(s, n)
	}
	first, last, off := n[0], n[len(n)-1], len(n)-1
	i, fails := 0, 0
	for {
		r := indexPairAVX2(s[i:], first, last, off)
		if r < 0 {
			// The untested tail (shorter than 32 + off bytes).
			i += -1 - r
			if j := bytesIndex(s[i:], n); j >= 0 {
				return i + j
			}
			return -1
		}
		c := i + r
		if string(s[c:c+len(n)]) == string(n) {
			return c
		}
		// Input dense with both end bytes (crafted: one candidate every
		// few bytes) goes back to bytes.Index, linear in any input.
		if fails++; fails > 16+c>>8 {
			if j := bytesIndex(s[c+1:], n); j >= 0 {
				return c + 1 + j
			}
			return -1
		}
		i = c + 1
	}
}
