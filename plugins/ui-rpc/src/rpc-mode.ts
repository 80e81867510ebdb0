/**
 * The `rpc` mode: reads requests from stdin split on LF only, answers each with a response line, streams
 * every event as a line, and sends plugins' questions out (what each message does is `@keel/rpc-server`'s;
 * the framing is this mode's). stdout carries only protocol lines (everything else keel prints goes to
 * stderr). Ends when stdin closes, or when the parent process goes (its pipe may be held open by another
 * process, so the parent is also watched), after aborting any run.
 */
import type { Mode, Runtime } from "@keel/extensions-api";
import { LineSplitter, type RpcOutput } from "@keel/rpc-client";
import { onEventLines, serveMessage, type UiBridge } from "@keel/rpc-server";

const PARENT_CHECK_MS = 1_000;

function write(message: RpcOutput): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function serve(line: string, runtime: Runtime, bridge: UiBridge): Promise<void> {
  const response = await serveMessage(line, runtime, bridge);
  if (response) write(response);
}

export function rpcMode(bridge: UiBridge): Mode {
  return {
    name: "rpc",
    description: "a JSON protocol on stdin and stdout, for programs that drive keel (docs/rpc.md)",
    async run(runtime) {
      const offEvents = onEventLines(runtime, write);
      bridge.open(write);
      const lines = new LineSplitter();
      const parent = process.ppid;
      await new Promise<void>((resolve) => {
        const end = () => {
          clearInterval(watch);
          process.stdin.off("data", onData);
          resolve();
        };
        const onData = (chunk: Buffer) => {
          for (const line of lines.push(chunk)) void serve(line, runtime, bridge);
        };
        const watch = setInterval(() => process.ppid !== parent && end(), PARENT_CHECK_MS);
        watch.unref();
        process.stdin.on("data", onData);
        process.stdin.once("end", () => {
          const last = lines.end();
          if (last) void serve(last, runtime, bridge);
          end();
        });
        // A reader that went away: nothing can be told any more.
        process.stdout.once("error", end);
      });
      bridge.close();
      runtime.abort();
      await runtime.waitForIdle();
      offEvents();
      return 0;
    },
  };
}
