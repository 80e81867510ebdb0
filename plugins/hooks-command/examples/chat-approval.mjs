#!/usr/bin/env node
// A PreToolUse hook that asks a chat webhook whether a call may run and waits for the answer.
//   POST $KEEL_APPROVAL_URL            { text, tool_name, tool_input, session_id, cwd }  →  { id }
//   GET  $KEEL_APPROVAL_URL/<id>       →  { status: "pending" | "approved" | "denied", reason? }
// It polls every $KEEL_APPROVAL_POLL_MS (default 2000) until the chat answers; give the hook a timeout as
// long as people may take. Fails closed: an unreachable or broken webhook denies the call, saying why.
// settings.json: { "hooks": { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command",
//   "command": "node /path/to/chat-approval.mjs", "timeout": 600 }] }] } }
import { setTimeout as sleep } from "node:timers/promises";

const url = process.env.KEEL_APPROVAL_URL;
const pollMs = Number(process.env.KEEL_APPROVAL_POLL_MS ?? 2000);

function answer(permissionDecision, permissionDecisionReason) {
  process.stdout.write(
    JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision, permissionDecisionReason },
    }),
  );
}

async function askChat(event) {
  const text = `keel wants to run ${event.tool_name}: ${JSON.stringify(event.tool_input)} (in ${event.cwd})`;
  const posted = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      text,
      tool_name: event.tool_name,
      tool_input: event.tool_input,
      session_id: event.session_id,
      cwd: event.cwd,
    }),
  });
  if (!posted.ok) throw new Error(`the webhook answered HTTP ${posted.status}`);
  const { id } = await posted.json();
  for (;;) {
    const polled = await fetch(`${url}/${encodeURIComponent(id)}`);
    if (!polled.ok) throw new Error(`the webhook answered HTTP ${polled.status} for approval ${id}`);
    const { status, reason } = await polled.json();
    if (status === "approved") return answer("allow", reason ?? "approved in chat");
    if (status === "denied") return answer("deny", reason ?? "denied in chat");
    await sleep(pollMs);
  }
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
if (!url)
  answer("deny", "chat-approval: KEEL_APPROVAL_URL is not set, so nobody can approve; set it to the webhook's URL");
else
  await askChat(JSON.parse(input)).catch((error) =>
    answer("deny", `chat-approval could not get an answer: ${error.message}`),
  );
