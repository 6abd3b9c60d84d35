"""Drop-in integrations: :mod:`formwire.compat.python_multipart` (the callback parsers Starlette uses),
:mod:`formwire.compat.starlette` (``install()`` for Starlette and FastAPI) and :mod:`formwire.compat.werkzeug`
(``install()`` for Werkzeug and Flask)."""
