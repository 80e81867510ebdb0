#!/bin/sh
# Notification and Stop: tells the team the agent is waiting for a person or has finished. Appends the event
# to $TEAM_NOTIFY_FILE when it is set (a team's chat bridge reads it), else rings the terminal bell.
input=$(cat)
if [ -n "$TEAM_NOTIFY_FILE" ]; then
  printf '%s\n' "$input" >>"$TEAM_NOTIFY_FILE"
elif (: >/dev/tty) 2>/dev/null; then
  printf '\a' >/dev/tty
fi
exit 0
