// Package ecma holds the ECMAScript rules that both the v8 codec and its test support apply.
package ecma

import "math"

// TimeClip is ECMA-262 TimeClip (SC-D-17): a Date's time value as V8 keeps it.
func TimeClip(t float64) float64 {
	if math.IsNaN(t) || math.IsInf(t, 0) || math.Abs(t) > 8.64e15 {
		return math.NaN()
	}
	t = math.Trunc(t)
	if t == 0 {
		return 0
	}
	return t
}
