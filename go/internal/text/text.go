// Package text holds the WHATWG "UTF-8 decode without BOM" shared by the
// multipart and urlencoded packages.
package text

import "unicode/utf8"

// Lossy decodes b as UTF-8 with one U+FFFD per maximal subpart of an
// ill-formed sequence (WHATWG Encoding's UTF-8 decoder; Go's own conversion
// gives one per byte). A BOM is kept (MP-F-01, UE-P-08).
func Lossy(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(AppendLossy(make([]byte, 0, len(b)+8), b))
}

// AppendLossy appends the decoding of b to dst.
func AppendLossy(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			dst = append(dst, c)
			i++
			continue
		}
		need := 0
		lo, hi := byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c >= 0xE0 && c <= 0xEF:
			need = 2
			if c == 0xE0 {
				lo = 0xA0
			} else if c == 0xED {
				hi = 0x9F
			}
		case c >= 0xF0 && c <= 0xF4:
			need = 3
			if c == 0xF0 {
				lo = 0x90
			} else if c == 0xF4 {
				hi = 0x8F
			}
		default:
			dst = append(dst, "\uFFFD"...)
			i++
			continue
		}
		j := i + 1
		ok := true
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				ok = false
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if ok {
			dst = append(dst, b[i:j]...)
		} else {
			// The byte that failed is not consumed: it starts the next sequence.
			dst = append(dst, "\uFFFD"...)
		}
		i = j
	}
	return dst
}
