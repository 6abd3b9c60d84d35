package v8

// The clone limits max_values and max_bigint_bytes are being added to spec/registry.json this session; until
// package formwire generates them, the spec values are kept here. Delete this file once registry_gen.go has them.

import formwire "github.com/formwire/formwire/go"

const (
	defaultCloneMaxValues      int64         = 10000000
	defaultCloneMaxBigintBytes int64         = 1048576
	codeLimitValues            formwire.Code = "SC_LIMIT_VALUES"
	codeLimitBigint            formwire.Code = "SC_LIMIT_BIGINT"
)
