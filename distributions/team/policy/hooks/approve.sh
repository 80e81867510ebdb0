#!/bin/sh
# PreToolUse: every change goes to a person, whatever permission mode the user started with.
cat >/dev/null
printf '%s%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask",' \
  '"permissionDecisionReason":"the team approves every change"}}'
