#!/bin/sh
# Prints N bytes as 64-byte lines (63 characters + newline) as fast as the pipe
# takes them, then the line "END". N should be a multiple of 64.
# Usage: print-bytes.sh N
yes 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-' | head -c "$1"
echo END
