#!/bin/sh
# The release workflow's first check: the tag it runs for must be "v" and
# package.json's version, so the binaries, archives and packages carry the
# version the tag names.   sh scripts/release/check-tag.sh TAG
set -eu
cd "$(dirname "$0")/../.."
tag=${1-}
version=$(node -p 'require("./package.json").version')
if [ "$tag" != "v$version" ]; then
  echo "release: the tag \"$tag\" does not name package.json's version $version" >&2
  echo "hint: tag the commit v$version, or set the version in package.json first" >&2
  exit 1
fi
echo "release: tag $tag is package.json's version"
