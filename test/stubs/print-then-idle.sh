#!/bin/sh
# Prints one line, then goes silent for $1 seconds (default 30) without exiting.
echo "working"
exec sleep "${1:-30}"
