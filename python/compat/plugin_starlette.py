"""pytest plugin: Starlette's own form parser tests, with formwire installed the documented way
(``formwire.compat.starlette.install()`` before the first request).

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
