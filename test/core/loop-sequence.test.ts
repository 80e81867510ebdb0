import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { toModelContext } from "@keel/kernel";
import { expectValidPairs, filesTool, waitTool } from "../support/loop-helpers.ts";

/** Event names with runs of message_update collapsed and host bookkeeping left out. */
function sequence(kit: TestKit): string[] {
  const skip = new Set(["session_start", "session_end", "plugin_activated"]);
  const out: string[] = [];
  for (const e of kit.events) {
    if (skip.has(e.name)) continue;
    let name: string = e.name;
    if (e.name === "message_start" || e.name === "message_end")
      name += `(${(e.payload as { message: Message }).message.role})`;
    if (name === "message_update" && out[out.length - 1] === "message_update") continue;
    out.push(name);
  }
  return out;
}

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

describe("the agent loop's event sequence", () => {
  it("reads a file and explains it in two turns", async () => {
    kit = await createTestKit({
      inline: [filesTool({ "foo.py": "print('hello')" })],
      script: [{ toolCalls: [{ name: "read", arguments: { path: "foo.py" } }] }, { text: "It prints hello." }],
    });
    const result = await kit.run("Read file foo.py and explain it");
    expect(result.reason).toBe("stop");
    expect(result.finalText).toBe("It prints hello.");
    expect(sequence(kit)).toEqual([
      "agent_start",
      "message_start(user)",
      "message_end(user)",
      "turn_start",
      "message_start(assistant)",
      "message_update",
      "message_end(assistant)",
      "tool_execution_start",
      "tool_execution_end",
      "message_start(toolResult)",
      "message_end(toolResult)",
      "turn_end",
      "turn_start",
      "message_start(assistant)",
      "message_update",
      "message_end(assistant)",
      "turn_end",
      "agent_end",
    ]);
    expect(kit.toolResults()[0]!.content).toEqual([{ type: "text", text: "print('hello')" }]);
  });

  it("adds a steering message at the start of the next turn", async () => {
    let runtime: TestKit["runtime"] | undefined;
    kit = await createTestKit({
      inline: [filesTool({ "a.txt": "A" }, () => runtime!.steer("Also say thanks."))],
      script: [{ toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] }, { text: "A. Thanks!" }],
    });
    runtime = kit.runtime;
    await kit.run("read a.txt");
    const seq = sequence(kit);
    const secondTurn = seq.indexOf("turn_start", seq.indexOf("turn_end"));
    expect(seq.slice(secondTurn, secondTurn + 4)).toEqual([
      "turn_start",
      "message_start(user)",
      "message_end(user)",
      "message_start(assistant)",
    ]);
    const roles = kit.runtime.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
    expect(kit.runtime.messages[3]!.content).toBe("Also say thanks.");
  });

  it("runs one more turn when steering arrives while the model is finishing", async () => {
    kit = await createTestKit({ script: [{ text: "First answer." }, { text: "Second answer." }] });
    kit.runtime.events.on("message_start", (e) => {
      if (e.message.role === "assistant" && kit!.eventsOf("turn_start").length === 1)
        kit!.runtime.steer("One more thing.");
    });
    const result = await kit.run("hi");
    expect(result.finalText).toBe("Second answer.");
    expect(kit.eventsOf("turn_start")).toHaveLength(2);
  });

  it("runs queued follow-ups after the agent would have stopped", async () => {
    kit = await createTestKit({ script: [{ text: "One." }, { text: "Two." }] });
    kit.runtime.followUp("and then?");
    const result = await kit.run("go");
    expect(result.finalText).toBe("Two.");
    expect(kit.runtime.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("ends the run when aborted mid-stream, keeping the partial reply out of the model's context", async () => {
    kit = await createTestKit({ script: [{ text: "A long answer that never ends", hang: true }] });
    kit.runtime.events.on("message_update", () => kit!.runtime.abort());
    const result = await kit.run("talk");
    expect(result.reason).toBe("aborted");
    expect(sequence(kit)).toEqual([
      "agent_start",
      "message_start(user)",
      "message_end(user)",
      "turn_start",
      "message_start(assistant)",
      "message_update",
      "message_end(assistant)",
      "turn_end",
      "agent_end",
    ]);
    const last = kit.runtime.messages.at(-1)!;
    expect(last.role === "assistant" && last.stopReason).toBe("aborted");
    expect(toModelContext(kit.runtime.messages).map((m) => m.role)).toEqual(["user"]);
  });

  it("stops a running tool on abort and answers every call of the reply", async () => {
    kit = await createTestKit({
      inline: [waitTool(), filesTool({ "a.txt": "A" })],
      script: [
        { toolCalls: [{ name: "wait" }, { name: "read", arguments: { path: "a.txt" } }] },
        { text: "never reached" },
      ],
    });
    kit.runtime.events.on("tool_execution_start", (e) => {
      if (e.toolName === "wait") kit!.runtime.abort();
    });
    const result = await kit.run("wait");
    expect(result.reason).toBe("aborted");
    const results = kit.toolResults();
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ["wait", true],
      ["read", true],
    ]);
    expect(results[0]!.content[0]).toEqual({ type: "text", text: "stopped early" });
    expect(results[1]!.content[0]).toEqual({ type: "text", text: "Aborted by the user before this call ran." });
    expectValidPairs(kit.runtime.messages);
    expect(sequence(kit).slice(-3)).toEqual(["message_end(toolResult)", "turn_end", "agent_end"]);
  });
});
