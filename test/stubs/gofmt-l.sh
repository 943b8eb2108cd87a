#!/bin/sh
# Behaves like `gofmt -l .`: prints the name of every *.go file in the current
# directory that contains the word "unformatted", and exits 0 either way.
for f in *.go; do
  [ -f "$f" ] && grep -q unformatted "$f" && echo "$f"
done
exit 0
