"""Inputs for the spec/multipart.md §8 differential probe (written to the directory given as argv[1])."""
import json, os, sys
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
CT = "multipart/form-data; boundary=boundary"
def p(*lines): return "\r\n".join(lines).encode()
cd = lambda v: "Content-Disposition: " + v
cases = {
 "filename-star": (CT, p("--boundary", cd('form-data; name="f"; filename="safe.txt"; filename*=utf-8\'\'evil.php'), "", "x", "--boundary--", "")),
 "name-star": (CT, p("--boundary", cd('form-data; name="comment"; name*=utf-8\'\'role'), "", "x", "--boundary--", "")),
 "pct-name": (CT, p("--boundary", cd('form-data; name="a%0Ab%22c"'), "", "x", "--boundary--", "")),
 "bx-in-body": (CT, p("--boundary", cd('form-data; name="a"'), "", "1", "--boundaryX 2", "--boundary--", "")),
 "dup-cd": (CT, p("--boundary", cd('form-data; name="a"'), cd('form-data; name="b"'), "", "x", "--boundary--", "")),
 "dup-name": (CT, p("--boundary", cd('form-data; name="a"; name="b"'), "", "x", "--boundary--", "")),
 "quoted-pair": (CT, p("--boundary", cd('form-data; name="a\\"b"'), "", "x", "--boundary--", "")),
 "backslash-pair": (CT, p("--boundary", cd('form-data; name="f"; filename="a\\\\b"'), "", "x", "--boundary--", "")),
 "trailing-backslash": (CT, p("--boundary", cd('form-data; name="f"; filename="a\\"'), "", "x", "--boundary--", "")),
 "no-close": (CT, p("--boundary", cd('form-data; name="a"'), "", "x")),
 "junk-after-close": (CT, p("--boundary", cd('form-data; name="a"'), "", "x", "--boundary--junk", "")),
 "epilogue": (CT, p("--boundary", cd('form-data; name="a"'), "", "x", "--boundary--", "epilogue")),
 "padding": (CT, p("--boundary \t", cd('form-data; name="a"'), "", "x", "--boundary--", "")),
 "lf-only": (CT, "\n".join(["--boundary", cd('form-data; name="a"'), "", "x", "--boundary--", ""]).encode()),
 "obs-fold": (CT, p("--boundary", 'Content-Disposition: form-data;', ' name="a"', "", "x", "--boundary--", "")),
 "preamble": (CT, p("preamble", "--boundary", cd('form-data; name="a"'), "", "x", "--boundary--", "")),
 "two-boundary-first": ("multipart/form-data; boundary=boundary; boundary=other", p("--boundary", cd('form-data; name="a"'), "", "x", "--boundary--", "")),
 "two-boundary-second": ("multipart/form-data; boundary=other; boundary=boundary", p("--boundary", cd('form-data; name="a"'), "", "x", "--boundary--", "")),
 "jpg-html": (CT, p("--boundary", cd('form-data; name="f"; filename="a.jpg".html'), "", "x", "--boundary--", "")),
 "boundary-text": (CT, p("--boundary", cd('form-data; name="a"'), "", "my boundary here", "--boundary--", "")),
 "leading-ws": (CT, p("--boundary", ' ' + cd('form-data; name="a"'), "", "x", "--boundary--", "")),
 "bare-lf-value": (CT, p("--boundary", cd('form-data; name="a"'), "X-A: b\nc", "", "x", "--boundary--", "")),
 "empty-name": (CT, p("--boundary", cd('form-data; name=""'), "", "x", "--boundary--", "")),
 "filename-star-only": (CT, p("--boundary", cd('form-data; name="f"; filename*=utf-8\'\'evil.php'), "", "x", "--boundary--", "")),
}
idx = {}
for k,(ct,b) in cases.items():
    open(f"{OUT}/{k}.bin","wb").write(b); idx[k]=ct
json.dump(idx, open(f"{OUT}/index.json","w"), indent=1)
more = {
 "body-starts-with-boundary": (CT, p("--boundary", cd('form-data; name="a"'), "", "--boundary", cd('form-data; name="b"'), "", "v", "--boundary--", "")),
 "empty-line-crlf-crlf-no-body": (CT, p("--boundary", cd('form-data; name="a"'), "--boundary", cd('form-data; name="b"'), "", "v", "--boundary--", "")),
 "no-disposition": (CT, p("--boundary", "Content-Type: text/plain", "", "x", "--boundary", cd('form-data; name="b"'), "", "y", "--boundary--", "")),
 "empty-disposition": (CT, p("--boundary", "Content-Disposition: ", "", "x", "--boundary", cd('form-data; name="b"'), "", "y", "--boundary--", "")),
 "form-field": (CT, p("--boundary", cd('form-field; name="a"'), "", "x", "--boundary--", "")),
 "utf8-header-name": (CT, p("--boundary", cd('form-data; name="a"'), "F\u00f8\u00f8: bar", "", "x", "--boundary--", "")),
 "cr-only": (CT, "\r".join(["--boundary", cd('form-data; name="a"'), "", "x", "--boundary", cd('form-data; name="b"'), "", "y", "--boundary--"]).encode()),
 "near-dash": (CT, p("--boundary", cd('form-data; name="a"'), "", "x", "--boundary-y", "--boundary--", "")),
 "near-cr": (CT, p("--boundary", cd('form-data; name="a"'), "", "x", "--boundary\ry", "--boundary--", "")),
 "param-name-a0": (CT, p("--boundary", 'Content-Disposition: form-data; name="a";\xa0filename="a.txt"', "", "x", "--boundary--", "").replace(b"\xc2\xa0", b"\xa0")),
 "rfc2231-continuations": (CT, p("--boundary", cd("form-data; name=\"f\"; filename*0*=ascii''a%20b%20; filename*1*=c%20d%20; filename*2=\"e f.txt\""), "", "x", "--boundary--", "")),
}
for k,(ct,b) in more.items():
    open(f"{OUT}/{k}.bin","wb").write(b); idx[k]=ct
json.dump(idx, open(f"{OUT}/index.json","w"), indent=1)
