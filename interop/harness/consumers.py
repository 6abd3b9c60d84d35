"""Third-party consumers of formwire's output. Each decodes a batch of (key, Content-Type, body) in one process."""
from __future__ import annotations

import base64
import json
import os
import subprocess
from dataclasses import dataclass, field
from typing import Callable

from .chromium import CONSUME_JS
from .producers import GO_BIN, HERE, NODE_MODULES, VENV_PY


@dataclass
class Consumer:
    id: str
    label: str
    needs: str
    run: Callable  # (ctx, consumer, batch) -> {key: result}
    quirks: list = field(default_factory=list)  # keys of compare.CONSUMER_TRANSFORMS, in order
    version: str = ""


def _batch_job(batch: list[dict]) -> list[dict]:
    return [{"key": b["key"], "content_type": b["content_type"], "body_b64": base64.b64encode(b["body"]).decode()}
            for b in batch]


def _lines(cmd: list[str], job: dict, env=None, timeout: float = 180) -> dict:
    p = subprocess.run(cmd, input=json.dumps(job).encode(), capture_output=True, timeout=timeout, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{os.path.basename(cmd[1] if len(cmd) > 1 else cmd[0])} exited {p.returncode}: "
                           f"{p.stderr.decode(errors='replace')[-600:]}")
    out = {}
    for ln in p.stdout.decode().splitlines():
        if ln.strip():
            r = json.loads(ln)
            out[r.pop("key")] = r
    return out


def run_node(ctx, c: Consumer, batch: list[dict]) -> dict:
    env = {**os.environ, "NODE_PATH": NODE_MODULES}
    if not c.version:
        v = subprocess.run(["node", "-p", "process.version + ' undici ' + process.versions.undici + ' busboy ' + "
                            "require('busboy/package.json').version"], capture_output=True, text=True, env=env,
                           cwd=HERE).stdout.strip()
        c.version = v if c.id == "busboy" else v.split(" busboy")[0]
    return _lines(["node", os.path.join(HERE, "node", "consume.mjs")],
                  {"consumer": "undici" if c.id == "node-undici" else "busboy", "cases": _batch_job(batch)}, env=env)


def run_python(ctx, c: Consumer, batch: list[dict]) -> dict:
    if not c.version:
        v = json.loads(subprocess.run([VENV_PY, os.path.join(HERE, "py", "consume.py"), "version"],
                                      capture_output=True, text=True).stdout)
        c.version = f"{c.id} {v[c.id]}"
    return _lines([VENV_PY, os.path.join(HERE, "py", "consume.py")], {"consumer": c.id, "cases": _batch_job(batch)})


def run_go(ctx, c: Consumer, batch: list[dict]) -> dict:
    if not c.version:
        c.version = subprocess.run([GO_BIN, "version"], capture_output=True, text=True).stdout.strip()
    return _lines([GO_BIN, "consume"], {"cases": _batch_job(batch)})


def run_chromium(ctx, c: Consumer, batch: list[dict]) -> dict:
    br = ctx.chromium()
    c.version = br.version
    for b in batch:
        ctx.server.serve(b["key"], b["content_type"], b["body"])
    br.navigate(ctx.server.base + "/blank")
    res = br.evaluate(CONSUME_JS % json.dumps([b["key"] for b in batch]), timeout=120)
    return {r.pop("key"): r for r in res}


CONSUMERS = [
    Consumer("chromium", "Chromium Response.formData()", "chromium", run_chromium, ["consumer-quoted-pairs"]),
    Consumer("node-undici", "Node built-in Response.formData() (undici)", "node", run_node,
             ["consumer-percent-decodes-params"]),
    Consumer("busboy", "busboy (npm), default options", "node", run_node,
             ["consumer-quoted-pairs-quote-backslash", "consumer-params-latin1", "consumer-filename-basename",
              "consumer-empty-filename-is-field"]),
    Consumer("python-multipart", "python-multipart create_form_parser", "venv", run_python,
             ["consumer-quoted-pairs-quote-backslash"]),
    Consumer("werkzeug", "werkzeug parse_form_data (request.form / request.files)", "venv", run_python,
             ["consumer-quoted-pairs", "consumer-decodes-percent-22", "consumer-groups-by-name"]),
    Consumer("go-reader", "Go mime/multipart.Reader (as ReadForm reads parts), Request.ParseForm", "go", run_go,
             ["consumer-quoted-pairs-tspecials", "consumer-empty-filename-is-field", "consumer-names-unordered"]),
]
