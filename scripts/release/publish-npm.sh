#!/bin/sh
# Publishes the npm packages `npm run release` packed into DIR: first checks
# SHA256SUMS, then each platform package, then the wrapper, so the wrapper never
# names a platform package that is not there yet. A package whose version is
# already published is skipped, so a failed run can be run again.
#   NODE_AUTH_TOKEN=... sh scripts/release/publish-npm.sh DIR
set -eu
dir=${1:?usage: publish-npm.sh DIR}
(cd "$dir" && sha256sum -c --quiet SHA256SUMS)
# npm's own default registry, so no host is written here.
if [ -n "${NODE_AUTH_TOKEN-}" ]; then
  registry=$(npm config get registry)
  npm config set "${registry#*:}:_authToken" "$NODE_AUTH_TOKEN"
fi
# The wrapper is vouch-cli-<version>.tgz; a platform package is vouch-cli-<os>-<cpu>-<version>.tgz.
wrapper=$(ls "$dir" | grep -E '^vouch-cli-[0-9].*\.tgz$' || true)
[ "$(printf '%s\n' "$wrapper" | grep -c .)" = 1 ] || { echo "publish: $dir must hold exactly one wrapper package (vouch-cli-VERSION.tgz)" >&2; exit 1; }
publish() {
  manifest=$(tar -xzOf "$1" package/package.json)
  id=$(printf '%s' "$manifest" | node -e 'const m = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(m.name + "@" + m.version)')
  if npm view "$id" version >/dev/null 2>&1; then echo "publish: $id is already published, skipped"; return; fi
  npm publish "$1" --access public --provenance
  echo "publish: $id"
}
for f in "$dir"/vouch-cli-*.tgz; do
  if [ "$f" != "$dir/$wrapper" ]; then publish "$f"; fi
done
publish "$dir/$wrapper"
