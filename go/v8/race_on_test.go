//go:build race

package v8

// raceEnabled: built with -race, whose instrumentation of every memory
// access makes the million-level nesting tests take minutes.
const raceEnabled = true
