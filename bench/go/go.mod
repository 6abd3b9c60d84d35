module github.com/formwire/formwire/bench/go

go 1.23

// The incumbents as the harness runs them elsewhere (research: go-java-anchors.md): net/http's multipart part
// cap raised so W2's 10,000 fields parse, and no urlencoded pair cap (W4 has 20,072 pairs; formwire's MaxPairs
// is raised to match).
godebug (
	multipartmaxparts=100000
	urlmaxqueryparams=0
)

require github.com/formwire/formwire/go v0.0.0

replace github.com/formwire/formwire/go => ../../go
