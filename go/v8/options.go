package v8

import formwire "github.com/formwire/formwire/go"

// Options are the clone limits of spec/limits.md (defaults from spec/registry.json through package formwire) and
// the node_ipc reading mode. Start from DefaultOptions (a nil *Options means the defaults): the zero value of a
// limit is a limit of zero, not the default. A limit of formwire.Unlimited (-1) is off.
type Options struct {
	// MaxDepth (max_depth, SC-D-29, SC-E-14): nesting of containers, decoding and encoding; SC_LIMIT_DEPTH.
	MaxDepth int64
	// MaxBytes (max_bytes, SC-D-02): input length accepted by Decode; SC_LIMIT_BYTES at 0.
	MaxBytes int64
	// MaxValues (max_values): number of values one Decode reads; SC_LIMIT_VALUES at the tag of the first value
	// over the limit.
	MaxValues int64
	// MaxBigIntBytes (max_bigint_bytes): digit bytes of one BigInt; SC_LIMIT_BIGINT at its tag.
	MaxBigIntBytes int64
	// NodeIPC (node_ipc, SC-D-27): host objects carry child_process 'advanced' sub-tags. It cannot be told from
	// v8.serialize output, so it is off unless asked for.
	NodeIPC bool
}

// DefaultOptions has every limit at its spec default and NodeIPC off.
func DefaultOptions() Options {
	return Options{
		MaxDepth:       formwire.DefaultCloneMaxDepth,
		MaxBytes:       formwire.DefaultCloneMaxBytes,
		MaxValues:      formwire.DefaultCloneMaxValues,
		MaxBigIntBytes: formwire.DefaultCloneMaxBigintBytes,
	}
}

// SetLimit sets a limit by its spec name ("max_depth", ...); formwire.Unlimited turns it off. It reports whether
// the name is a clone limit.
func (o *Options) SetLimit(name string, limit int64) bool {
	switch name {
	case "max_depth":
		o.MaxDepth = limit
	case "max_bytes":
		o.MaxBytes = limit
	case "max_values":
		o.MaxValues = limit
	case "max_bigint_bytes":
		o.MaxBigIntBytes = limit
	default:
		return false
	}
	return true
}

func resolve(o *Options) Options {
	if o == nil {
		return DefaultOptions()
	}
	return *o
}
