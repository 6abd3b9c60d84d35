package v8

import (
	"unicode/utf8"
)

// JS strings are sequences of UTF-16 code units; here they are Go strings in WTF-8 (package doc): a surrogate pair
// is one 4-byte UTF-8 sequence, a lone surrogate the 3-byte sequence ED A0..BF 80..BF.

// latin1String reads SC-W-08 one-byte strings: each byte is the code unit U+00xx.
func latin1String(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	out := make([]byte, 0, len(b)*2)
	for _, c := range b {
		if c < 0x80 {
			out = append(out, c)
		} else {
			out = append(out, 0xC0|c>>6, 0x80|c&0x3F)
		}
	}
	return string(out)
}

// utf16String reads SC-W-08 two-byte strings (little-endian code units, len(b) even), keeping lone surrogates.
func utf16String(b []byte) string {
	out := make([]byte, 0, len(b)+len(b)/2)
	n := len(b) / 2
	for i := 0; i < n; i++ {
		u := rune(b[2*i]) | rune(b[2*i+1])<<8
		if u >= 0xD800 && u <= 0xDBFF && i+1 < n {
			w := rune(b[2*i+2]) | rune(b[2*i+3])<<8
			if w >= 0xDC00 && w <= 0xDFFF {
				out = utf8.AppendRune(out, 0x10000+(u-0xD800)<<10+(w-0xDC00))
				i++
				continue
			}
		}
		out = appendUnit(out, u)
	}
	return string(out)
}

// appendUnit appends one code unit that is not part of a pair (a lone surrogate gets its 3-byte form).
func appendUnit(out []byte, u rune) []byte {
	if u >= 0xD800 && u <= 0xDFFF {
		return append(out, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
	}
	return utf8.AppendRune(out, u)
}

// nextUnit decodes the code point at s[i:] in WTF-8: the rune (a lone surrogate is returned as itself) and its size;
// size 0 when the bytes are not WTF-8.
func nextUnit(s string, i int) (rune, int) {
	c := s[i]
	if c < 0x80 {
		return rune(c), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r != utf8.RuneError || n > 1 {
		return r, n
	}
	if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
	}
	return 0, 0
}

// Units returns the UTF-16 code units of a JS string held in WTF-8; ok is false when s is not WTF-8.
func Units(s string) (units []uint16, ok bool) {
	units = make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		r, n := nextUnit(s, i)
		if n == 0 {
			return nil, false
		}
		i += n
		if r >= 0x10000 {
			r -= 0x10000
			units = append(units, uint16(0xD800+r>>10), uint16(0xDC00+r&0x3FF))
		} else {
			units = append(units, uint16(r))
		}
	}
	return units, true
}

// FromUnits makes the WTF-8 Go string of a JS string given as UTF-16 code units (lone surrogates kept).
func FromUnits(units []uint16) string {
	b := make([]byte, 2*len(units))
	for i, u := range units {
		b[2*i] = byte(u)
		b[2*i+1] = byte(u >> 8)
	}
	return utf16String(b)
}

// WellFormed reports whether a WTF-8 string holds no lone surrogate (it is then valid UTF-8).
func WellFormed(s string) bool {
	return utf8.ValidString(s)
}
