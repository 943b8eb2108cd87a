#!/bin/sh
# Evidence check for finding-verifier: every {"at": "path:line", "quote": "..."}
# in the verdict must name an existing file, a line inside it, and that line must
# contain the quoted text. The verdict arrives as JSON in $VOUCH_OUTPUT_FILE (the
# node's own output, written by vouch); nothing from it is ever run as a command.
# Plain POSIX sh + grep + sed: the graph's schema keeps quotes free of `"` and `\`
# and requires both fields in every evidence entry, so they pair up in order.
set -u
out=${VOUCH_OUTPUT_FILE:?VOUCH_OUTPUT_FILE is not set: run this as a vouch check}
verdict=$(grep -o '"verdict":"[A-Z]*"' "$out" | head -n 1 | sed 's/.*:"\(.*\)"/\1/')
if [ "$verdict" = "UNVERIFIABLE" ]; then
  echo "verdict UNVERIFIABLE: no citation to check"
  exit 0
fi
ats=$(grep -o '"at":"[^"]*"' "$out" | sed 's/^"at":"//; s/"$//')
quotes=$(grep -o '"quote":"[^"]*"' "$out" | sed 's/^"quote":"//; s/"$//')
n=$(printf '%s' "$ats" | grep -c '')
if [ "$n" -eq 0 ]; then
  echo "verdict $verdict cites no evidence" >&2
  exit 1
fi
bad=0
i=0
while [ "$i" -lt "$n" ]; do
  i=$((i + 1))
  at=$(printf '%s\n' "$ats" | sed -n "${i}p")
  quote=$(printf '%s\n' "$quotes" | sed -n "${i}p")
  path=${at%:*}
  line=${at##*:}
  if [ ! -f "$path" ]; then
    echo "$at: no such file: $path" >&2; bad=1; continue
  fi
  total=$(wc -l < "$path" | tr -d ' ')
  if [ "$line" -lt 1 ] || [ "$line" -gt "$total" ]; then
    echo "$at: $path has $total lines; cited line $line" >&2; bad=1; continue
  fi
  text=$(sed -n "${line}p" "$path")
  case "$text" in
    *"$quote"*) echo "$at: ok" ;;
    *) echo "$at: line $line does not contain the quote" >&2
       echo "  quoted: $quote" >&2
       echo "  actual: $text" >&2
       bad=1 ;;
  esac
done
[ "$bad" -eq 0 ] && echo "$n citation(s) hold"
exit "$bad"
