#!/bin/sh
# The parallel-implement demo, offline (npm run demo:parallel): four recorded
# tasks, each in its own git worktree, then the merge and the merged tree's
# tests. It runs in a git copy of examples/sample-repo that it makes in a
# temporary folder — never in this checkout: worktrees (.vouch/worktrees) and
# branches (vouch/<run>/...) go into a repository the demo owns.
#   sh scripts/demo-parallel.sh [vouch run flags, e.g. --plain]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
repo=$(mktemp -d "${TMPDIR:-/tmp}/vouch-demo-parallel-XXXXXX")
cp -R "$here/examples/sample-repo/." "$repo/"
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=vouch-demo -c user.email=demo@localhost -c commit.gpgsign=false commit -q -m "the sample project"
tasks=$(printf '%s\n' "Make TtlCache.get honour ttlMs" "Make slugify keep digits" "Make the tests pass" "Make TtlCache.get delete expired entries")
status=0
"$here/dist/vouch" run "$here/graphs/parallel-implement.yaml" --harness replay --replay-delay 80ms -i tasks="$tasks" -i project_dir="$repo" "$@" || status=$?
echo "the demo's repository: $repo"
echo "  its branches: git -C $repo branch --list 'vouch/*'"
exit "$status"
