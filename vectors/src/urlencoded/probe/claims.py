"""Checks the Python claims of spec/urlencoded.md section 5 (UE-D-05) by running urllib.parse."""
import json
import sys
import urllib.parse as up

confirmed = contradicted = 0


def claim(what, actual, expected):
    global confirmed, contradicted
    if actual == expected:
        confirmed += 1
        print(f"  confirmed UE-D-05: {what}")
    else:
        contradicted += 1
        print(f"  CONTRADICTED UE-D-05: {what}\n    observed {actual!r}\n    claimed  {expected!r}")


def outcome(f):
    try:
        return f()
    except Exception as e:  # the claim is about which exception
        return type(e).__name__


print(f"python {sys.version.split()[0]}")
claim("parse_qsl drops blanks by default, keeps an empty name with a value",
      up.parse_qsl("a&b=&=c&="), [("", "c")])
claim("keep_blank_values=True keeps all four", up.parse_qsl("a&b=&=c&=", keep_blank_values=True),
      [("a", ""), ("b", ""), ("", "c"), ("", "")])
claim("';' is data with the default separator", up.parse_qsl("a=1;b=2"), [("a", "1;b=2")])
claim("separator=';' splits on ';' only", up.parse_qsl("a=1;b=2&c=3", separator=";"), [("a", "1"), ("b", "2&c=3")])
claim("invalid % kept literally", up.parse_qsl("a=%zz%41&b=%"), [("a", "%zzA"), ("b", "%")])
claim("U+FFFD placement equals WHATWG", [v for _, v in up.parse_qsl("a=%C0%AF&b=%E0%80%AF&c=%ED%A0%80&d=%F4%90%80%80&e=%E2%82&f=%E2%82A")],
      ["\ufffd" * 2, "\ufffd" * 3, "\ufffd" * 3, "\ufffd" * 4, "\ufffd", "\ufffdA"])
claim("BOM kept", up.parse_qsl("%EF%BB%BFa=1&\ufeffb=2"), [("\ufeffa", "1"), ("\ufeffb", "2")])
claim("bytes with non-ASCII raise UnicodeDecodeError", outcome(lambda: up.parse_qsl(b"a=\xc3\xa9")), "UnicodeDecodeError")
claim("latin-1 decoded body: %C3 and raw 0xA9 do not combine",
      up.parse_qsl(b"a=%C3\xa9".decode("latin-1")), [("a", "\ufffd\u00a9")])
claim("max_num_fields counts empty sequences and raises ValueError",
      outcome(lambda: up.parse_qsl("&&&a=1", max_num_fields=2)), "ValueError")
claim("strict_parsing raises on a pair without '='", outcome(lambda: up.parse_qsl("a&b=1", strict_parsing=True)), "ValueError")
claim("urlencode escapes * and keeps ~", up.urlencode([("k", " *~")]), "k=+%2A~")
print(f"python claims: {confirmed} confirmed, {contradicted} contradicted")
sys.exit(1 if contradicted else 0)
