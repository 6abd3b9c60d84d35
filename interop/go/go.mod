module formwire.dev/interop

go 1.22
