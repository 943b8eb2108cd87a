#!/usr/bin/env bash
# The Action's "Run the graph" step (action.yml, ADR 0060): runs GRAPH with vouch, then
# writes what the job shows: the Markdown summary to $GITHUB_STEP_SUMMARY, annotations on
# stdout (`vouch report --format github`), and the step's outputs to $GITHUB_OUTPUT:
# status, exit-code, run-id, report, report-dir, junit, sarif. The step itself ends 0 so
# that the summary, the outputs and the upload happen; a later step ends with the code.
#
# Environment (inputs arrive only this way): VOUCH_BIN, GRAPH, GRAPH_INPUTS (one
# NAME=VALUE a line), GRAPH_ARGS (one argument a line, never split at spaces), REPORT_DIR,
# ANNOTATIONS and JOB_SUMMARY ("true"/"false"), and the runner's GITHUB_OUTPUT and
# GITHUB_STEP_SUMMARY.
#
# While vouch runs, workflow commands are off (::stop-commands:: with a token nobody can
# know): a check's output, a node name or an item that starts a line with `::` is printed,
# never obeyed. Commands come back on for vouch's own, escaped, annotations.
set +e -uo pipefail

say() { printf 'vouch action: %s\n' "$*" >&2; }
out() { printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; }

mkdir -p -- "$REPORT_DIR" || { say "report-dir: cannot make $REPORT_DIR"; out exit-code 2; exit 2; }
dir=$(realpath -- "$REPORT_DIR")
# A newline in the folder (given, or where a checked-in symlink points) would add lines
# to GITHUB_OUTPUT: a later exit-code=0 would win over vouch's code.
case "$dir" in *$'\n'* | *$'\r'*)
  say "report-dir must not contain a newline"
  out exit-code 2
  exit 2
  ;;
esac

argv=()
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%$'\r'}
  [ -n "$line" ] && argv+=("--input=$line")
done <<<"${GRAPH_INPUTS:-}"
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%$'\r'}
  [ -n "$line" ] && argv+=("$line")
done <<<"${GRAPH_ARGS:-}"

newest() { "$VOUCH_BIN" runs --json 2>/dev/null | sed -n 's/^    "id": "\([0-9]\{8\}-[0-9]\{6\}-[0-9a-f]\{6\}\)",$/\1/p' | head -n 1; }
before=$(newest)

token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
echo "::stop-commands::$token"
"$VOUCH_BIN" run "$GRAPH" "${argv[@]}" --plain \
  --report "html:$dir/report.html" --report "junit:$dir/junit.xml" --report "markdown:$dir/summary.md" --report "sarif:$dir/vouch.sarif"
code=$?
echo "::$token::"

run=$(newest)
[ "$run" = "$before" ] && run=""
status=""
if [ -n "$run" ]; then
  status=$("$VOUCH_BIN" runs --json | sed -n 's/^    "status": "\([a-z]*\)",$/\1/p' | head -n 1)
  if [ "${JOB_SUMMARY:-true}" = "true" ] && [ -f "$dir/summary.md" ]; then cat -- "$dir/summary.md" >>"$GITHUB_STEP_SUMMARY"; fi
  if [ "${ANNOTATIONS:-true}" = "true" ]; then "$VOUCH_BIN" report "$run" --format github || say "the annotations could not be written"; fi
else
  say "vouch ran no graph (exit $code): see its message above"
fi

out exit-code "$code"
out status "$status"
out run-id "$run"
out report-dir "$dir"
for f in report.html:report junit.xml:junit vouch.sarif:sarif; do
  if [ -f "$dir/${f%%:*}" ]; then out "${f#*:}" "$dir/${f%%:*}"; else out "${f#*:}" ""; fi
done
exit 0
