"""One testee process speaking the JSON-lines protocol of conformance/PROTOCOL.md.

A writer thread feeds stdin and a reader thread drains stdout, so multi-megabyte requests and responses never
deadlock; a third thread keeps the tail of stderr for diagnostics. Any protocol failure (crash, a line that is not
JSON, a wrong id, a timeout) raises TesteeFailure and leaves the process killed; the next request starts a new one.
"""

import json
import os
import queue
import signal
import subprocess
import threading
import time

from .cases import strict_json_loads

STDERR_KEEP = 64 * 1024
LIVE = set()             # running testees, so an interrupted run can end them
LIVE_LOCK = threading.Lock()
ABORT = threading.Event()  # set when the run is interrupted: no new processes, no new requests


def kill_all():
    ABORT.set()
    with LIVE_LOCK:
        live = list(LIVE)
    for t in live:
        t.kill()


class TesteeFailure(Exception):
    def __init__(self, message, stderr=""):
        super().__init__(message)
        self.message = message
        self.stderr = stderr


class Testee:
    def __init__(self, lang, cmd, cwd, timeout=60.0, env=None):
        self.lang = lang
        self.cmd = cmd
        self.cwd = cwd
        self.timeout = timeout
        self.env = env
        self.proc = None
        self._next_id = 0

    # -- process lifecycle -------------------------------------------------------------------------------------
    def _spawn(self):
        if ABORT.is_set():
            raise TesteeFailure("run interrupted")
        try:
            self.proc = subprocess.Popen(
                self.cmd, cwd=self.cwd, env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True)  # buffered: readline must not read byte by byte
        except OSError as e:
            self.proc = None
            raise TesteeFailure("cannot start %s: %s" % (" ".join(self.cmd), e)) from e
        with LIVE_LOCK:
            LIVE.add(self)
        self._lines = queue.Queue()
        self._writes = queue.Queue()
        self._stderr = bytearray()
        self._stderr_total = 0
        self._stderr_lock = threading.Lock()
        proc = self.proc
        threading.Thread(target=self._read_stdout, args=(proc, self._lines), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(proc,), daemon=True).start()
        threading.Thread(target=self._write_stdin, args=(proc, self._writes), daemon=True).start()

    @staticmethod
    def _read_stdout(proc, lines):
        try:
            for line in iter(proc.stdout.readline, b""):
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _read_stderr(self, proc):
        try:
            while True:
                chunk = proc.stderr.read1(65536) if hasattr(proc.stderr, "read1") else proc.stderr.read(65536)
                if not chunk:
                    break
                with self._stderr_lock:
                    self._stderr_total += len(chunk)
                    self._stderr += chunk
                    if len(self._stderr) > STDERR_KEEP:
                        del self._stderr[: len(self._stderr) - STDERR_KEEP]
        except (OSError, ValueError):
            pass

    @staticmethod
    def _write_stdin(proc, writes):
        while True:
            data = writes.get()
            if data is None:
                break
            try:
                proc.stdin.write(data)
                proc.stdin.flush()
            except (OSError, ValueError):
                break
        try:
            proc.stdin.close()
        except (OSError, ValueError):
            pass

    def stderr_since(self, mark):
        """stderr text written since `mark` (a value of self.stderr_mark()), as far as it is still kept."""
        with self._stderr_lock:
            new = self._stderr_total - mark
            data = bytes(self._stderr[-new:]) if new > 0 else b""
        return data.decode("utf-8", "replace")

    def stderr_mark(self):
        if self.proc is None:
            return 0
        with self._stderr_lock:
            return self._stderr_total

    def start(self):
        """Start the process and say hello; returns the hello answer (`{"lang", "version", "ops"}`)."""
        self._spawn()
        self._next_id = 0
        resp = self.request({"op": "hello"})
        ok = resp.get("ok")
        if not isinstance(ok, dict) or not isinstance(ok.get("ops"), list):
            err = self.stderr_since(0)
            self.kill()
            raise TesteeFailure("hello answer has no ok.ops list: %s" % _short(resp), err)
        return ok

    def kill(self):
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with LIVE_LOCK:
            LIVE.discard(self)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (OSError, ProcessLookupError):
            try:
                proc.kill()
            except OSError:
                pass
        self._writes.put(None)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for f in (proc.stdout, proc.stderr):
            try:
                f.close()
            except OSError:
                pass

    def close(self):
        """End of stdin means exit 0 (PROTOCOL.md); kill whatever does not exit within a few seconds."""
        proc = self.proc
        if proc is None:
            return
        self._writes.put(None)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    # -- requests ----------------------------------------------------------------------------------------------
    def request(self, req, timeout=None):
        """Send one request (an `id` is added) and return the parsed response object."""
        if self.proc is None:
            self.start()
        rid = self._next_id
        self._next_id += 1
        line = json.dumps(dict(req, id=rid), separators=(",", ":")).encode("ascii") + b"\n"  # \uXXXX escapes: safe for lone surrogates
        mark = self.stderr_mark()
        self._writes.put(line)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        try:
            raw = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            err = self.stderr_since(mark)
            self.kill()
            raise TesteeFailure("timeout: no answer to %s within %g s" % (req.get("op"), self.timeout), err) from None
        if raw is None:
            proc = self.proc
            try:
                code = proc.wait(5)
            except subprocess.TimeoutExpired:
                code = None
            time.sleep(0.05)  # let the stderr reader catch up with a dying process
            err = self.stderr_since(mark)
            self.kill()
            raise TesteeFailure("testee crashed (exit status %s) on %s" % (code, req.get("op")), err)
        try:
            resp = strict_json_loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            err = self.stderr_since(mark)
            self.kill()
            raise TesteeFailure("testee wrote a line that is not JSON: %s" % _short_bytes(raw), err) from None
        if not isinstance(resp, dict) or resp.get("id") != rid or isinstance(resp.get("id"), bool):
            err = self.stderr_since(mark)
            self.kill()
            got = resp.get("id") if isinstance(resp, dict) else None
            raise TesteeFailure("testee answered with id %s, expected %d" % (json.dumps(got), rid), err)
        resp["_stderr"] = self.stderr_since(mark)
        return resp


def _short(x, n=200):
    s = json.dumps(x, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 3] + "..."


def _short_bytes(b, n=120):
    s = b.rstrip(b"\n").decode("utf-8", "replace")
    return repr(s if len(s) <= n else s[: n - 3] + "...")
