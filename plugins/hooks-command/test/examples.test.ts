/**
 * The shipped hook examples, run as hooks: the Stop notification (notify-send when present, quiet success
 * without it) and the chat approval against a webhook on 127.0.0.1 that answers after a pending poll.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { textOf } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { bashCall, oneHook, withKit } from "./support.ts";

const examples = resolve("plugins/hooks-command/examples");

describe("hooks-command examples", () => {
  it("notify-on-stop.sh calls notify-send when it is installed, and succeeds quietly without it", async () => {
    const bin = tempDir();
    const log = join(bin, "notified");
    writeFileSync(join(bin, "notify-send"), `#!/bin/sh\necho "$@" > ${log}\n`);
    chmodSync(join(bin, "notify-send"), 0o755);
    const hook = { type: "command", command: `PATH=${bin}:$PATH ${examples}/notify-on-stop.sh` };
    await withKit({ settings: oneHook("Stop", hook), script: [{ text: "done" }] }, async (kit) => {
      await kit.run("hi");
      expect(readFileSync(log, "utf8")).toContain(`keel has finished in ${kit.cwd}`);
      expect(kit.problems()).toEqual([]);
    });
    await withKit(
      {
        settings: oneHook("Stop", { type: "command", command: `PATH=/usr/bin:/bin ${examples}/notify-on-stop.sh` }),
        script: [{ text: "done" }],
      },
      async (kit) => {
        const result = await kit.run("hi");
        expect(result.finalText).toBe("done");
        expect(kit.problems()).toEqual([]);
      },
    );
  });

  it("chat-approval.mjs posts the call to the webhook, waits while it is pending, and applies the answer", async () => {
    const posted: any[] = [];
    const polls: Record<string, number> = {};
    const server = createServer(async (req, res) => {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      if (req.method === "POST") {
        posted.push(JSON.parse(raw));
        return res.end(JSON.stringify({ id: String(posted.length) }));
      }
      const id = req.url!.split("/").at(-1)!;
      polls[id] = (polls[id] ?? 0) + 1;
      const command = posted[Number(id) - 1].tool_input.command as string;
      if (polls[id] < 2) return res.end(JSON.stringify({ status: "pending" }));
      res.end(
        JSON.stringify(
          command.includes("deploy") ? { status: "denied", reason: "no deploys on Fridays" } : { status: "approved" },
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/approvals`;
    try {
      const hook = {
        type: "command",
        command: `KEEL_APPROVAL_URL=${url} KEEL_APPROVAL_POLL_MS=20 node ${examples}/chat-approval.mjs`,
        timeout: 30,
      };
      await withKit(
        {
          settings: oneHook("PreToolUse", hook, "Bash"),
          script: [bashCall("touch deploy.txt"), bashCall("touch ok.txt"), { text: "ok" }],
        },
        async (kit) => {
          await kit.run("go");
          expect(posted.map((p) => p.text)).toEqual([
            expect.stringContaining("touch deploy.txt"),
            expect.stringContaining("touch ok.txt"),
          ]);
          expect(polls).toEqual({ "1": 2, "2": 2 });
          expect(existsSync(join(kit.cwd, "deploy.txt"))).toBe(false);
          expect(textOf(kit.toolResults()[0] as never)).toContain("no deploys on Fridays");
          expect(existsSync(join(kit.cwd, "ok.txt"))).toBe(true);
        },
      );
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    // Nobody to ask: the call is denied, saying how to fix it.
    await withKit(
      {
        settings: oneHook("PreToolUse", { type: "command", command: `node ${examples}/chat-approval.mjs` }),
        script: [bashCall("touch a.txt"), { text: "ok" }],
      },
      async (kit) => {
        await kit.run("go");
        expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
        expect(textOf(kit.toolResults()[0] as never)).toContain("KEEL_APPROVAL_URL is not set");
      },
    );
  });
});
