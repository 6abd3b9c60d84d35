// Checks the Go claims of spec/urlencoded.md section 5 (UE-D-01..04) by running net/url.
// run.sh runs it three times: without GODEBUG, with GODEBUG=urlmaxqueryparams=5 (argument "custom") and with
// GODEBUG=urlmaxqueryparams=0 (argument "off").
package main

import (
	"fmt"
	"net/url"
	"os"
	"reflect"
	"runtime"
	"strings"
)

var confirmed, contradicted int

func claim(id, what string, actual, expected any) {
	if reflect.DeepEqual(actual, expected) {
		confirmed++
		fmt.Printf("  confirmed %s: %s\n", id, what)
	} else {
		contradicted++
		fmt.Printf("  CONTRADICTED %s: %s\n    observed %#v\n    claimed  %#v\n", id, what, actual, expected)
	}
}

type result struct {
	Values url.Values
	Err    string
}

func parse(q string) result {
	v, err := url.ParseQuery(q)
	r := result{Values: v}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

func pairs(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("k%d=v", i)
	}
	return strings.Join(s, "&")
}

func main() {
	fmt.Println(runtime.Version(), "GODEBUG="+os.Getenv("GODEBUG"))
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	if mode == "off" {
		claim("UE-D-03", "urlmaxqueryparams=0 (the default for go.mod < 1.24) has no cap", len(parse(pairs(10001)).Values), 10001)
	} else if mode == "custom" {
		claim("UE-D-03", "urlmaxqueryparams=5 rejects 5 pairs", parse(pairs(5)).Err, "number of URL query parameters exceeded limit")
		claim("UE-D-03", "urlmaxqueryparams=5 accepts 4 pairs", parse(pairs(4)).Err, "")
	} else {
		claim("UE-D-01", "';' drops the pair and reports an error", parse("a=1;b=2&c=3"),
			result{url.Values{"c": {"3"}}, "invalid semicolon separator in query"})
		claim("UE-D-02", "bad % drops the pair and reports an error", parse("a=%zz&b=2"),
			result{url.Values{"b": {"2"}}, `invalid URL escape "%zz"`})
		claim("UE-D-02", "% at the end drops the pair", parse("a=%&b=2"),
			result{url.Values{"b": {"2"}}, `invalid URL escape "%"`})
		claim("UE-D-03", "10000 pairs accepted", len(parse(pairs(10000)).Values), 10000)
		r := parse(pairs(10001))
		claim("UE-D-03", "10001 pairs rejected whole", []any{len(r.Values), r.Err}, []any{0, "number of URL query parameters exceeded limit"})
		claim("UE-D-03", "10000 '&' then one pair rejected (counts '&')", parse(strings.Repeat("&", 10000)+"a=1").Err,
			"number of URL query parameters exceeded limit")
		claim("UE-D-04", "no UTF-8 decoding", parse("%C0%AF=x").Values, url.Values{"\xc0\xaf": {"x"}})
		v := url.Values{}
		v.Add("k", " *~")
		v.Add("b", "2")
		v.Add("a", "1")
		claim("UE-D-04", "Values.Encode sorts, escapes *, keeps ~", v.Encode(), "a=1&b=2&k=+%2A~")
	}
	fmt.Printf("go claims: %d confirmed, %d contradicted\n", confirmed, contradicted)
	if contradicted > 0 {
		os.Exit(1)
	}
}
