#!/usr/bin/env bash
# Re-checks the documented differentials of spec/urlencoded.md section 5 against the real parsers.
# Needs node, python3, go, and the npm registry (qs and fast-querystring go into ./node_modules, ignored).
# Informational: not part of `make test` (third-party behaviour may change with their versions).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d node_modules/qs ] || [ ! -d node_modules/fast-querystring ]; then
  npm install --no-audit --no-fund --no-package-lock --silent
fi
status=0
node claims.mjs || status=1
python3 claims.py || status=1
(cd go && go run .) || status=1
(cd go && GODEBUG=urlmaxqueryparams=5 go run . custom) || status=1
(cd go && GODEBUG=urlmaxqueryparams=0 go run . off) || status=1
exit $status
