#!/bin/sh
# A Stop hook: tells the user the agent has finished. A desktop notification through notify-send when it is
# installed; otherwise the terminal's own notification escapes (OSC 777 and OSC 9, which many terminals turn
# into a notification) and a bell, written to the terminal itself since a hook's output is not shown.
input=$(cat)
folder=$(printf '%s' "$input" | jq -r '.cwd // empty' 2>/dev/null)
message="keel has finished${folder:+ in $folder}"
if command -v notify-send >/dev/null 2>&1; then
  notify-send --app-name=keel "keel" "$message"
elif (: >/dev/tty) 2>/dev/null; then
  printf '\033]777;notify;keel;%s\007\033]9;%s\007\a' "$message" "$message" >/dev/tty
fi
exit 0
