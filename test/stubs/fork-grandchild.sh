#!/bin/sh
# Forks a grandchild that inherits stdout and sleeps, records "LEADER_PID GRANDCHILD_PID"
# in $1, prints "hi", then waits for the grandchild (mode "wait", the default) or
# exits at once leaving the grandchild holding the pipe (mode "exit").
# Usage: fork-grandchild.sh PID_FILE [wait|exit] [SECONDS]
pid_file=$1
mode=${2:-wait}
secs=${3:-30}
sleep "$secs" &
echo "$$ $!" > "$pid_file.tmp" && mv "$pid_file.tmp" "$pid_file"
echo hi
if [ "$mode" = exit ]; then exit 0; fi
wait
