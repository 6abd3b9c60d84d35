module github.com/formwire/formwire/go

go 1.23
