#!/bin/sh
# Prints a line on stdout and one on stderr, then exits with status $1 (default 1).
echo "out: something went wrong"
echo "err: details on stderr" >&2
exit "${1:-1}"
