#!/bin/sh
# Re-run the spec/multipart.md §8 differential probe. Installs the probed libraries into a scratch directory
# (never into the repository) and prints each library's reading of every input.
#   sh vectors/src/multipart/probe/run.sh [scratch-dir]
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-${TMPDIR:-/tmp}/formwire-mp-probe}
mkdir -p "$DIR/node"
python3 "$HERE/cases.py" "$DIR/cases"
(cd "$DIR/node" && [ -d node_modules/busboy ] || npm install --silent --no-save busboy@1.6.0 @fastify/busboy@3.2.6)
[ -x "$DIR/venv/bin/python" ] || { python3 -m venv "$DIR/venv" && "$DIR/venv/bin/pip" -q install python-multipart==0.0.34; }
for lib in busboy fastify undici; do
  echo "== $lib"; NODE_PATH="$DIR/node/node_modules" node "$HERE/probe.js" "$lib" "$DIR/cases"
done
echo "== python-multipart"; "$DIR/venv/bin/python" "$HERE/python_multipart_probe.py" "$DIR/cases" 2>/dev/null
echo "== go"; go run "$HERE/go_probe.go" "$DIR/cases"
