#!/usr/bin/env bash
# The Action's "Install vouch" step (action.yml, ADR 0060): finds or installs the vouch
# binary and records it as VOUCH_BIN in $GITHUB_ENV. In this order:
#   1. VOUCH_PATH (input vouch-path): that binary;
#   2. VOUCH_VERSION (input version): the release archive of that version for this
#      runner, checked against the release's SHA256SUMS before it is unpacked;
#   3. a `vouch` on PATH;
#   4. the release of the action's own version (its package.json).
# Releases are fetched from RELEASE_URL (input release-url; {version} is replaced), by
# default the action repository's GitHub release v{version} (docs/release.md).
# Inputs arrive as environment variables only, never spliced into this script.
set -euo pipefail

say() { printf 'vouch action: %s\n' "$*" >&2; }
die() {
  say "$1"
  exit "${2:-2}"
}
# A newline in a path would add a line of its own to GITHUB_ENV.
no_newline() { case "$2" in *$'\n'* | *$'\r'*) die "$1 must not contain a newline" ;; esac }

record() {
  local bin
  bin=$(realpath "$1")
  no_newline vouch-path "$bin"
  [ -x "$bin" ] || die "vouch-path: $bin is not an executable file"
  "$bin" --version >&2 || die "vouch-path: $bin --version failed" 3
  printf 'VOUCH_BIN=%s\n' "$bin" >>"$GITHUB_ENV"
}

# The release target of this runner, as npm/platforms.json names it.
target() {
  local os arch
  case "${RUNNER_OS:-$(uname -s)}" in
    Linux) os=linux ;;
    macOS | Darwin) os=darwin ;;
    *) die "no vouch release for ${RUNNER_OS:-$(uname -s)}: set vouch-path to a binary you built" ;;
  esac
  case "${RUNNER_ARCH:-$(uname -m)}" in
    X64 | x86_64 | amd64) arch=x64 ;;
    ARM64 | arm64 | aarch64) arch=arm64 ;;
    *) die "no vouch release for ${RUNNER_ARCH:-$(uname -m)}: set vouch-path to a binary you built" ;;
  esac
  printf '%s-%s' "$os" "$arch"
}

sha256_of() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

download() {
  curl --fail --silent --show-error --location --retry 3 --proto '=https,http' --output "$2" "$1" || die "could not download $1" 3
}

install_release() {
  local version=$1 base name dir want got
  [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || die "version \"$version\" is not a release version (x.y.z)"
  base=${RELEASE_URL:-}
  [ -n "$base" ] || base="https://github.com/${ACTION_REPOSITORY:?the action repository is unknown: set release-url}/releases/download/v{version}"
  base=${base//\{version\}/$version}
  name="vouch-$version-$(target)"
  dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/vouch-install-XXXXXX")
  download "$base/SHA256SUMS" "$dir/SHA256SUMS"
  download "$base/$name.tar.gz" "$dir/$name.tar.gz"
  want=$(awk -v f="$name.tar.gz" '$2 == f { print $1 }' "$dir/SHA256SUMS")
  [ -n "$want" ] || die "SHA256SUMS of $version lists no $name.tar.gz" 3
  got=$(sha256_of "$dir/$name.tar.gz")
  [ "$got" = "$want" ] || die "$name.tar.gz does not match SHA256SUMS (got $got, want $want): not installed" 3
  # The archive is one folder holding the binary; nothing else of it is trusted.
  tar -xzf "$dir/$name.tar.gz" -C "$dir" "$name/vouch" || die "$name.tar.gz holds no $name/vouch" 3
  say "installed vouch $version ($name.tar.gz, SHA-256 $got)"
  record "$dir/$name/vouch"
}

if [ -n "${VOUCH_PATH:-}" ]; then
  record "$VOUCH_PATH"
elif [ -n "${VOUCH_VERSION:-}" ]; then
  install_release "$VOUCH_VERSION"
elif command -v vouch >/dev/null; then
  say "using the vouch on PATH: $(command -v vouch)"
  record "$(command -v vouch)"
else
  own=$(sed -n 's/^  "version": "\([^"]*\)",$/\1/p' "${ACTION_DIR:?}/package.json" | head -n 1)
  [ -n "$own" ] || die "no vouch on PATH and no version to install: set version (or vouch-path)"
  install_release "$own"
fi
