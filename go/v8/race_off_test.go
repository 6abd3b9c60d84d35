//go:build !race

package v8

// raceEnabled: built with -race (see race_on_test.go).
const raceEnabled = false
