"""pytest plugin: python-multipart's own tests import ``python_multipart`` and get formwire's shim."""

import sys

from formwire.compat import python_multipart as shim

for name in (
    "python_multipart",
    "python_multipart.multipart",
    "python_multipart.decoders",
    "python_multipart.exceptions",
):
    sys.modules[name] = shim
