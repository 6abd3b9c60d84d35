"""pytest plugin: a per-test timeout (SIGALRM), so no incumbent case can hang the suite."""

import signal

import pytest

TIMEOUT_SECONDS = 20


def _expired(signum, frame):  # noqa: ANN001, ARG001
    raise TimeoutError(f"test took longer than {TIMEOUT_SECONDS} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):  # noqa: ANN001, ARG001
    old = signal.signal(signal.SIGALRM, _expired)
    signal.alarm(TIMEOUT_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
