//go:build !amd64 || purego

package multipart

// indexNeedle is bytes.Index(s, n) (see index_amd64.go for amd64).
func indexNeedle(s, n []byte) int { return bytesIndex(s, n) }
