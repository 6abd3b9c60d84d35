"""Every third-party producer: what it is told to send (cases) and how it is run against the loopback server."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Callable

from . import forms
from .chromium import BUILD_FORM_JS, FETCH_JS, SUBMIT_JS

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # interop/
VENV_PY = os.path.join(HERE, ".venv", "bin", "python")
GO_BIN = os.path.join(HERE, ".build", "gointerop")
NODE_MODULES = os.path.join(HERE, "node_modules")

ALL_MP = list(forms.MULTIPART)
ALL_UE = list(forms.URLENCODED)


@dataclass
class Producer:
    id: str
    label: str
    multipart: list[str]
    urlencoded: list[str]
    run: Callable  # (ctx, producer, jobs) -> version string
    needs: str = ""  # "chromium" | "node" | "venv" | "go" | "curl"
    not_sent: dict = field(default_factory=dict)  # case -> why this producer cannot send it

    def told(self, case: str) -> dict:
        """The job for one case: {"case", "kind", "entries" | "pairs"} (urlencoded cases are named ue-<case>)."""
        if case.startswith("ue-"):
            return {"case": case, "kind": "urlencoded", "pairs": forms.URLENCODED[case[3:]]}
        table = forms.FORM_MULTIPART if self.id == "chromium-form" else forms.MULTIPART
        return {"case": case, "kind": "multipart", "entries": table[case]}

    def cases(self) -> list[str]:
        return list(self.multipart) + ["ue-" + c for c in self.urlencoded]


def _run_json(cmd: list[str], job: dict, timeout: float = 120, env: dict | None = None) -> dict:
    p = subprocess.run(cmd, input=json.dumps(job, ensure_ascii=False).encode("utf-8"), capture_output=True,
                       timeout=timeout, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:2])} exited {p.returncode}: {p.stderr.decode(errors='replace')[-600:]}")
    lines = [ln for ln in p.stdout.decode().splitlines() if ln.strip()]
    return json.loads(lines[-1]) if lines else {}


def run_node(ctx, prod: Producer, jobs: list[dict]) -> str:
    env = {**os.environ, "NODE_PATH": NODE_MODULES}
    out = _run_json(["node", os.path.join(HERE, "node", "produce.mjs")],
                    {"producer": prod.id, "url": ctx.server.capture_url(prod.id), "cases": jobs}, env=env)
    return out.get("version", "?")


def run_python(ctx, prod: Producer, jobs: list[dict]) -> str:
    out = _run_json([VENV_PY, os.path.join(HERE, "py", "produce.py")],
                    {"producer": prod.id, "url": ctx.server.capture_url(prod.id), "cases": jobs})
    return out.get("version", "?")


def run_go(ctx, prod: Producer, jobs: list[dict]) -> str:
    out = _run_json([GO_BIN, "produce"], {"url": ctx.server.capture_url(prod.id), "cases": jobs})
    return out.get("version", "?")


def _curl_quote(s: str) -> str:
    """A double-quoted word of curl's -F syntax (backslash escapes `"` and `\\`)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run_curl(ctx, prod: Producer, jobs: list[dict]) -> str:
    for job in jobs:
        url = ctx.server.capture_url(prod.id, job["case"])
        args = ["curl", "-sS", "-o", os.devnull, "--max-time", "20", "--noproxy", "*"]
        if job["kind"] == "urlencoded":
            for n, v in job["pairs"]:
                args += ["--data-urlencode", f"{n}={v}"]
        else:
            d = os.path.join(ctx.tmp, "curl", job["case"])
            os.makedirs(d, exist_ok=True)
            for i, e in enumerate(job["entries"]):
                if "value" in e:
                    args += ["--form-string", f"{e['name']}={e['value']}"]
                    continue
                path = os.path.join(d, f"{i}.data")
                with open(path, "wb") as f:
                    f.write(forms.body_of(e))
                spec = f"{e['name']}=@{path}"
                if e["file"]["type"]:
                    spec += f";type={e['file']['type']}"
                spec += f";filename={_curl_quote(e['file']['filename'])}"
                args += ["-F", spec]
        subprocess.run(args + [url], check=True, capture_output=True, timeout=30)
    return subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split("\n")[0][:60]


def run_chromium_form(ctx, prod: Producer, jobs: list[dict]) -> str:
    br = ctx.chromium()
    errors = []
    for job in jobs:
        try:
            _submit_form(ctx, br, prod, job)
        except Exception as e:  # one case's failure is that case's; the others still run
            errors.append(f"{job['case']}: {str(e).splitlines()[0]}")
    if errors:
        raise RuntimeError("; ".join(errors))
    return br.version


def _submit_form(ctx, br, prod: Producer, job: dict):
    br.navigate(ctx.server.base + "/blank")
    url = ctx.server.capture_url(prod.id, job["case"])
    controls, files = [], {}
    if job["kind"] == "urlencoded":
        enctype = "application/x-www-form-urlencoded"
        for n, v in job["pairs"]:
            controls.append({"kind": "textarea" if ("\n" in v or "\r" in v) else "text", "name": n, "value": v})
    else:
        enctype = "multipart/form-data"
        for i, e in enumerate(job["entries"]):
            if "value" in e:
                multi = "\n" in e["value"] or "\r" in e["value"]
                controls.append({"kind": "textarea" if multi else "text", "name": e["name"], "value": e["value"]})
                continue
            controls.append({"kind": "file", "name": e["name"]})
            if e["file"]["filename"]:  # an empty filename is a file input with no file chosen
                d = os.path.join(ctx.tmp, "chromium", job["case"], str(i))
                os.makedirs(d, exist_ok=True)
                path = os.path.join(d, e["file"]["filename"])
                with open(path, "wb") as f:
                    f.write(forms.body_of(e))
                files[i] = path
    spec = {"enctype": enctype, "action": url, "controls": controls}
    br.evaluate(BUILD_FORM_JS % json.dumps(spec, ensure_ascii=False))
    for i, path in files.items():
        br.set_files(f"#c{i}", [path])
    br.evaluate(SUBMIT_JS)
    if ctx.server.store.wait(prod.id, job["case"], 20) is None:
        raise RuntimeError("no submission arrived")


def run_chromium_fetch(ctx, prod: Producer, jobs: list[dict]) -> str:
    br = ctx.chromium()
    br.navigate(ctx.server.base + "/blank")
    br.evaluate(FETCH_JS % json.dumps({"url": ctx.server.capture_url(prod.id), "cases": jobs}, ensure_ascii=False))
    return br.version


NO_BLOB = {"blob": "no Blob type: every body part needs a filename here"}

PRODUCERS = [
    Producer("chromium-form", "Chromium: HTML <form> submissions (files via DOM.setFileInputFiles)",
             list(forms.FORM_MULTIPART), ALL_UE, run_chromium_form, "chromium"),
    Producer("chromium-fetch", "Chromium: fetch() with FormData / URLSearchParams bodies", ALL_MP, ALL_UE,
             run_chromium_fetch, "chromium"),
    Producer("node-fetch", "Node: built-in fetch() (undici) with FormData / URLSearchParams", ALL_MP, ALL_UE,
             run_node, "node"),
    Producer("node-response", "Node: new Response(formData) (undici), bytes POSTed as they are", ALL_MP, ALL_UE,
             run_node, "node"),
    Producer("node-form-data", "Node: form-data (npm) form.submit()",
             [c for c in ALL_MP if c not in ("blob", "empty-filename")], [], run_node, "node",
             {**NO_BLOB, "empty-filename": "form-data treats filename '' as no filename (a field)"}),
    Producer("py-requests", "Python: requests.post(data=, files=)", [c for c in ALL_MP if c != "blob"], ALL_UE,
             run_python, "venv", NO_BLOB),
    Producer("py-httpx", "Python: httpx.post(data=, files=)", [c for c in ALL_MP if c != "blob"], ALL_UE,
             run_python, "venv", NO_BLOB),
    Producer("py-urllib3", "Python: urllib3 encode_multipart_formdata / request(fields=)",
             [c for c in ALL_MP if c != "blob"], ALL_UE, run_python, "venv", NO_BLOB),
    Producer("go", "Go: mime/multipart.Writer + http.Post, http.PostForm", [c for c in ALL_MP if c != "blob"],
             ALL_UE, run_go, "go", NO_BLOB),
    Producer("curl", "curl: -F / --form-string, --data-urlencode",
             [c for c in ALL_MP if c not in ("blob", "semicolon")], [c for c in ALL_UE if c != "name-symbols"],
             run_curl, "curl",
             {**NO_BLOB, "semicolon": "--form-string splits the name at its first '='",
              "ue-name-symbols": "--data-urlencode sends the name unencoded, so '&' and '=' in it are syntax"}),
]


def available(needs: str, smoke: bool) -> str | None:
    """None when the producer/consumer can run here, else why not."""
    if needs == "chromium":
        if smoke:
            return "skipped in --smoke"
        from .chromium import find_chromium
        return None if find_chromium() else "chromium not installed (run interop/setup)"
    if needs == "node":
        if not shutil.which("node"):
            return "node not found"
        return None if os.path.isdir(NODE_MODULES) else "interop/node_modules missing (run interop/setup)"
    if needs == "venv":
        return None if os.path.exists(VENV_PY) else "interop/.venv missing (run interop/setup)"
    if needs == "go":
        return None if os.path.exists(GO_BIN) else "interop/.build/gointerop missing (run interop/setup)"
    if needs == "curl":
        return None if shutil.which("curl") else "curl not found"
    return None
