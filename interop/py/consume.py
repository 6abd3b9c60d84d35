"""Consumers in Python: python-multipart and werkzeug (run with interop/.venv/bin/python).

Reads {"consumer", "cases": [{"key", "content_type", "body_b64"}]} from stdin; prints one JSON line per case:
{"key", "ok": {"entries": [{"name", "filename", "type", "body_b64"}]}} for multipart, {"key", "ok": {"pairs"}} for
urlencoded, or {"key", "error": "..."}.
"""
import base64
import io
import json
import sys
from urllib.parse import unquote_plus


def utf8(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def python_multipart(ctype: str, body: bytes) -> dict:
    from python_multipart import create_form_parser

    urlencoded = ctype.split(";")[0].strip().lower() == "application/x-www-form-urlencoded"
    out = []

    def on_field(f):
        value = f.value if f.value is not None else b""
        if urlencoded:
            # python-multipart hands out the raw, still percent-encoded bytes of an urlencoded body; its users
            # decode them (Starlette: unquote_plus over the latin-1 decoded bytes). Done the same way here.
            out.append([unquote_plus(f.field_name.decode("latin-1")), unquote_plus(value.decode("latin-1"))])
        else:
            out.append({"name": utf8(f.field_name), "filename": None, "type": None,
                        "body_b64": base64.b64encode(value).decode()})

    def on_file(f):
        f.file_object.seek(0)
        data = f.file_object.read()
        out.append({"name": utf8(f.field_name or b""), "filename": utf8(f.file_name),
                    "type": f.content_type, "body_b64": base64.b64encode(data).decode()})

    parser = create_form_parser({"Content-Type": ctype, "Content-Length": str(len(body))}, on_field, on_file)
    parser.write(body)
    parser.finalize()
    return {"pairs": out} if urlencoded else {"entries": out}


def werkzeug(ctype: str, body: bytes) -> dict:
    from werkzeug.formparser import parse_form_data

    environ = {"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": ctype,
               "REQUEST_METHOD": "POST", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80",
               "wsgi.url_scheme": "http"}
    _, form, files = parse_form_data(environ, silent=False)
    if ctype.split(";")[0].strip().lower() == "application/x-www-form-urlencoded":
        return {"pairs": [[k, v] for k, v in form.items(multi=True)]}
    out = [{"name": k, "filename": None, "type": None, "body_b64": base64.b64encode(v.encode("utf-8")).decode()}
           for k, v in form.items(multi=True)]
    for k, fs in files.items(multi=True):
        out.append({"name": k, "filename": fs.filename, "type": fs.content_type,
                    "body_b64": base64.b64encode(fs.read()).decode()})
    return {"entries": out}


def main():
    job = json.load(sys.stdin)
    fn = {"python-multipart": python_multipart, "werkzeug": werkzeug}[job["consumer"]]
    for c in job["cases"]:
        try:
            res = {"key": c["key"], "ok": fn(c["content_type"], base64.b64decode(c["body_b64"]))}
        except Exception as e:  # a consumer's rejection is a result, reported as such
            res = {"key": c["key"], "error": f"{type(e).__name__}: {e}"[:300]}
        print(json.dumps(res), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["version"]:
        from importlib.metadata import version
        print(json.dumps({"python-multipart": version("python-multipart"), "werkzeug": version("werkzeug")}))
    else:
        main()
