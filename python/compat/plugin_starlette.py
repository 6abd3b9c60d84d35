"""pytest plugin: Starlette's own form parser tests, with formwire put in by ``formwire.compat.starlette.install()``
before the first request: the explicit, process-wide opt-in, which is the one way in for code that builds
Starlette's own ``Request`` and calls ``request.form()`` itself, as these tests do (applications use ``APIRoute``,
``Request`` or ``form(request)`` instead, nothing patched: python/tests/test_wiring.py). install() runs the same
native parse as those.

Starlette's test helpers import ``httpx2``; its test client also runs on ``httpx`` (a dev dependency here), which is
used under that name when ``httpx2`` is not installed."""

import sys

import formwire.compat.starlette

try:
    import httpx2  # noqa: F401
except ImportError:
    import httpx

    sys.modules["httpx2"] = httpx

formwire.compat.starlette.install()
