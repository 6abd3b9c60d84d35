"""Producers in Python: requests, httpx, urllib3's encode_multipart_formdata (run with interop/.venv/bin/python).

Reads a job from stdin: {"producer", "url", "cases": [{"case", "kind", "entries" | "pairs"}]}; sends every case to
`<url>/<case>` (the loopback capture server); prints {"version": "..."} on stdout.
"""
import base64
import json
import sys
import urllib.parse


def main():
    job = json.load(sys.stdin)
    producer = job["producer"]
    if producer == "py-requests":
        import requests as lib
    elif producer == "py-httpx":
        import httpx as lib
    elif producer == "py-urllib3":
        import urllib3 as lib
    else:
        raise SystemExit(f"unknown producer {producer}")
    pool = lib.PoolManager() if producer == "py-urllib3" else None
    for c in job["cases"]:
        url = job["url"] + "/" + urllib.parse.quote(c["case"])
        if c["kind"] == "urlencoded":
            pairs = [tuple(p) for p in c["pairs"]]
            if producer == "py-requests":
                lib.post(url, data=pairs).raise_for_status()
            elif producer == "py-httpx":
                d = {}
                for n, v in pairs:
                    d.setdefault(n, []).append(v)
                lib.post(url, data=d).raise_for_status()
            else:
                r = pool.request("POST", url, fields=pairs, encode_multipart=False)
                assert r.status == 200, r.status
            continue
        strings, files, fields = [], [], []
        for e in c["entries"]:
            if "value" in e:
                strings.append((e["name"], e["value"]))
                fields.append((e["name"], e["value"]))
            else:
                f = e["file"]
                data = base64.b64decode(f["body"]["base64"])
                files.append((e["name"], (f["filename"], data, f["type"] or None)))
                fields.append((e["name"], (f["filename"], data, f["type"]) if f["type"] else (f["filename"], data)))
        if producer == "py-requests":
            lib.post(url, data=strings, files=files).raise_for_status()
        elif producer == "py-httpx":
            d = {}
            for n, v in strings:
                d.setdefault(n, []).append(v)
            lib.post(url, data=d, files=files).raise_for_status()
        else:
            body, ctype = lib.encode_multipart_formdata(fields)
            r = pool.request("POST", url, body=body, headers={"Content-Type": ctype})
            assert r.status == 200, r.status
    import urllib3
    print(json.dumps({"version": f"{producer[3:]} {lib.__version__} (urllib3 {urllib3.__version__})"}))


if __name__ == "__main__":
    main()
