"""Headless Chromium (Debian's package) driven over the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in,
fd 4 out, NUL-terminated JSON), so no driver, WebSocket library or downloaded browser is needed.

As a producer it submits real HTML forms (files chosen with DOM.setFileInputFiles) and `fetch`es FormData /
URLSearchParams bodies; as a consumer it runs `Response.formData()` on formwire's output, all against the loopback
server only.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--no-default-browser-check",
         "--no-proxy-server", "--disable-dev-shm-usage"]


def find_chromium() -> str | None:
    for exe in ("chromium", "chromium-browser"):
        p = shutil.which(exe)
        if p:
            return p
    return None


class CDPError(Exception):
    pass


class Chromium:
    def __init__(self, exe: str):
        self.exe = exe
        self.profile = tempfile.mkdtemp(prefix="formwire-interop-chromium-")
        self.proc = None
        self.next_id = 0
        self.waiting: dict[int, queue.Queue] = {}
        self.events: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.session = None
        self.version = ""

    # --- process and transport --------------------------------------------------------------------------------------

    def start(self, start_url: str):
        r_in, w_in = os.pipe()  # we write, chromium reads fd 3
        r_out, w_out = os.pipe()  # chromium writes fd 4, we read

        def child_fds():  # runs in the child before exec; close_fds=False keeps the 3 and 4 made here
            a, b = os.dup(r_in), os.dup(w_out)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen([self.exe, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
                                      "about:blank"], preexec_fn=child_fds, close_fds=False,
                                     stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_in)
        os.close(w_out)
        self.out = os.fdopen(w_in, "wb", buffering=0)
        self.inp = os.fdopen(r_out, "rb", buffering=0)
        threading.Thread(target=self._reader, daemon=True).start()
        self.version = self.call("Browser.getVersion")["product"]
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next((t for t in targets if t["type"] == "page"), None)
        if page is None:
            page = {"targetId": self.call("Target.createTarget", url="about:blank")["targetId"]}
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)
        self.navigate(start_url)

    def _reader(self):
        buf = b""
        while True:
            try:
                data = self.inp.read(1 << 16)
            except OSError:
                data = b""
            if not data:
                for q in list(self.waiting.values()):
                    q.put({"error": {"message": "chromium closed the pipe"}})
                return
            buf += data
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                q = self.waiting.pop(msg["id"], None) if "id" in msg else None
                if q is not None:
                    q.put(msg)
                elif "method" in msg:
                    self.events.put(msg)

    def call(self, method: str, session: bool = False, timeout: float = 30, **params):
        with self.lock:
            mid = self.next_id
            self.next_id += 1
            q: queue.Queue = queue.Queue()
            self.waiting[mid] = q
            msg = {"id": mid, "method": method, "params": params}
            if session:
                msg["sessionId"] = self.session
            self.out.write(json.dumps(msg).encode("utf-8") + b"\0")
        try:
            resp = q.get(timeout=timeout)
        except queue.Empty:
            raise CDPError(f"{method}: no answer in {timeout}s") from None
        if "error" in resp:
            raise CDPError(f"{method}: {resp['error'].get('message')}")
        return resp.get("result", {})

    def close(self):
        if self.proc is not None:
            try:
                self.call("Browser.close", timeout=5)
            except (CDPError, OSError):
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        shutil.rmtree(self.profile, ignore_errors=True)

    # --- page helpers -------------------------------------------------------------------------------------------------

    def _drain_events(self):
        while True:
            try:
                self.events.get_nowait()
            except queue.Empty:
                return

    def navigate(self, url: str, timeout: float = 20):
        """Load `url` and return once that document (not a previous one) has finished loading."""
        self.call("Page.navigate", session=True, url=url)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                state = self.evaluate("location.href + ' ' + document.readyState", timeout=5)
            except CDPError:
                state = ""
            if state == f"{url} complete":
                self._drain_events()
                return
            time.sleep(0.02)
        raise CDPError(f"loading {url} timed out")

    def evaluate(self, expression: str, timeout: float = 60):
        res = self.call("Runtime.evaluate", session=True, timeout=timeout, expression=expression,
                        awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in res:
            d = res["exceptionDetails"]
            raise CDPError("page script: " + (d.get("exception", {}).get("description") or d.get("text", "?")))
        return res["result"].get("value")

    def set_files(self, selector: str, paths: list[str]):
        root = self.call("DOM.getDocument", session=True, depth=0)["root"]["nodeId"]
        node = self.call("DOM.querySelector", session=True, nodeId=root, selector=selector)["nodeId"]
        if not node:
            raise CDPError(f"no element {selector}")
        self.call("DOM.setFileInputFiles", session=True, files=paths, nodeId=node)


# --- page scripts (plain JS, the JSON spec spliced in) ----------------------------------------------------------------

BUILD_FORM_JS = r"""
((spec) => {
  document.body.textContent = '';
  const f = document.createElement('form');
  f.method = 'post';
  f.enctype = spec.enctype;
  f.action = spec.action;
  f.acceptCharset = 'utf-8';
  spec.controls.forEach((c, i) => {
    let el;
    if (c.kind === 'file') { el = document.createElement('input'); el.type = 'file'; }
    else if (c.kind === 'textarea') { el = document.createElement('textarea'); el.value = c.value; }
    else { el = document.createElement('input'); el.type = 'text'; el.value = c.value; }
    el.id = 'c' + i;
    el.setAttribute('name', c.name);
    f.appendChild(el);
  });
  document.body.appendChild(f);
  return f.elements.length;
})(%s)
"""

SUBMIT_JS = "document.forms[0].submit(); true"

FETCH_JS = r"""
(async (spec) => {
  const bytes = (b64) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
  for (const c of spec.cases) {
    let body;
    if (c.kind === 'urlencoded') body = new URLSearchParams(c.pairs);
    else {
      body = new FormData();
      for (const e of c.entries) {
        if ('value' in e) body.append(e.name, e.value);
        else if (e.file) body.append(e.name, new File([bytes(e.file.body.base64)], e.file.filename, {type: e.file.type}));
        else body.append(e.name, new Blob([bytes(e.blob.body.base64)], {type: e.blob.type}));
      }
    }
    const res = await fetch(spec.url + '/' + encodeURIComponent(c.case), {method: 'POST', body});
    await res.arrayBuffer();
  }
  return spec.cases.length;
})(%s)
"""

CONSUME_JS = r"""
(async (keys) => {
  const b64 = (buf) => { let s = ''; const u = new Uint8Array(buf); for (let i = 0; i < u.length; i++) s += String.fromCharCode(u[i]); return btoa(s); };
  const enc = new TextEncoder();
  const out = [];
  for (const k of keys) {
    try {
      const res = await fetch('/out/' + encodeURIComponent(k));
      const ue = (res.headers.get('content-type') || '').toLowerCase().startsWith('application/x-www-form-urlencoded');
      const fd = await res.formData();
      if (ue) { out.push({key: k, ok: {pairs: [...fd].map(([n, v]) => [n, v])}}); continue; }
      const entries = [];
      for (const [name, v] of fd) {
        if (typeof v === 'string') entries.push({name, filename: null, type: null, body_b64: b64(enc.encode(v))});
        else entries.push({name, filename: v.name, type: v.type, body_b64: b64(await v.arrayBuffer())});
      }
      out.push({key: k, ok: {entries}});
    } catch (e) {
      out.push({key: k, error: String(e)});
    }
  }
  return out;
})(%s)
"""
