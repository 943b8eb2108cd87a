#!/bin/sh
# Echoes what a script node is handed: stdin, then the file named by VOUCH_STATE_FILE,
# then (if set) the file named by VOUCH_ITEM_FILE, each on its own line, prefixed.
printf 'stdin:%s\n' "$(cat)"
printf 'file:%s\n' "$(cat "$VOUCH_STATE_FILE")"
if [ -n "$VOUCH_ITEM_FILE" ]; then printf 'item:%s\n' "$(cat "$VOUCH_ITEM_FILE")"; fi
printf 'dir:%s\n' "$(dirname "$VOUCH_STATE_FILE")"
