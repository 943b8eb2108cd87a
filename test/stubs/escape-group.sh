#!/bin/sh
# Starts a process in a NEW session (outside vouch's process group) that holds
# stdout open, records its pid in $1, prints "hi" and exits. Group kills cannot
# reach it; the read must still end. Usage: escape-group.sh PID_FILE [SECONDS]
setsid sh -c 'echo $$ > "$0.tmp" && mv "$0.tmp" "$0"; exec sleep "$1"' "$1" "${2:-30}" &
while [ ! -s "$1" ]; do sleep 0.01; done
echo hi
