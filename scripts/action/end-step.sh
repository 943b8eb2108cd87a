#!/usr/bin/env bash
# The Action's last step (action.yml): ends with vouch's exit code, as the run step
# recorded it (CODE), so the job fails when the run did not pass; 3 when vouch never ran.
set -euo pipefail
case "${CODE:-}" in
  "") echo "vouch action: vouch did not run" >&2; exit 3 ;;
  *[!0-9]*) echo "vouch action: exit code \"$CODE\" is not a number" >&2; exit 3 ;;
esac
exit "$CODE"
