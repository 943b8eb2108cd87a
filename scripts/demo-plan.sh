#!/bin/sh
# The vouch plan demo, offline (npm run demo:plan): the planner's recorded answers
# (graphs/plan.replay), the first refused and quoted back, the second written as a
# planned graph and run with --yes. A planned graph's agents work in git worktrees
# (ADR 0047), so it runs in a git copy of examples/sample-repo made in a temporary
# folder — never in this checkout. The plan is written to demo-plan.yaml here.
#   sh scripts/demo-plan.sh [vouch plan flags]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
repo=$(mktemp -d "${TMPDIR:-/tmp}/vouch-demo-plan-XXXXXX")
cp -R "$here/examples/sample-repo/." "$repo/"
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=vouch-demo -c user.email=demo@localhost -c commit.gpgsign=false commit -q -m "the sample project"
status=0
(cd "$repo" && VOUCH_HOME="$here/.vouch" "$here/dist/vouch" plan "Make the cache honour ttlMs and prove it" --checks vouch.checks.yaml \
  --harness replay --replay-dir "$here/graphs/plan.replay" -o "$here/demo-plan.yaml" --run --yes "$@") || status=$?
echo "the demo's repository: $repo"
exit "$status"
