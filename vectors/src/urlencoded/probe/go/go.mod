module formwire.invalid/urlencoded-probe

go 1.26
