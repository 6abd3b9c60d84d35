"""pytest plugin: werkzeug's own form parser tests, with formwire installed as werkzeug's multipart parser."""

import formwire.compat.werkzeug

formwire.compat.werkzeug.install()
