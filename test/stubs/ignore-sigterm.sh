#!/bin/sh
# Ignores SIGTERM (and so does the sleep it starts: ignored signals are inherited),
# records "LEADER_PID SLEEP_PID" in $1, prints "ready", then sleeps.
# Only SIGKILL ends it. Usage: ignore-sigterm.sh PID_FILE [SECONDS]
trap '' TERM
pid_file=$1
sleep "${2:-30}" &
echo "$$ $!" > "$pid_file.tmp" && mv "$pid_file.tmp" "$pid_file"
echo ready
wait
# `wait` returns early when a (non-ignored) signal arrives; keep waiting.
while kill -0 $! 2>/dev/null; do wait; done
