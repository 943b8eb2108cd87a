#!/bin/sh
# The README's two commands, exactly as written, from a fresh clone of this
# repository (HEAD) in a temporary folder: the demo, then the tests.
#   sh scripts/fresh-clone.sh            keeps the folder and prints its path
set -eu
src=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vouch-fresh-XXXXXX")
git clone -q "$src" "$tmp/vouch"
cd "$tmp/vouch"
echo "fresh clone of $(git rev-parse --short HEAD) in $tmp/vouch"
echo "== npm install && npm run demo"
npm install && npm run demo
echo "== npm install && npm test"
npm install && npm test
echo "fresh clone: both commands passed ($tmp/vouch)"
