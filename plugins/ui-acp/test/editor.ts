/** The editor side of the ACP tests: the ACP SDK's client driving the real `keel acp` over stdio. */
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientContext,
  type RequestPermissionRequest,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { KEEL_BIN, SCRIPTED, type KeelEnv } from "../../../test/support/keel-cli.ts";

export interface Editor {
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  stderr: () => string;
}

/**
 * Runs `keel acp` and `session` against it as an editor would; resolves the editor's record and the exit
 * code. `answer` picks the option of each permission request (default: the first; undefined cancels). With
 * `buffers`, the editor serves file reads from them (its unsaved buffers) and takes writes into them. `args`
 * go to `keel acp` before the scripted provider's flags.
 */
export async function asEditor(
  env: KeelEnv,
  session: (agent: ClientContext, editor: Editor) => Promise<void>,
  options: {
    answer?: (request: RequestPermissionRequest) => string | undefined;
    buffers?: Map<string, string>;
    extraEnv?: Record<string, string>;
    args?: string[];
  } = {},
): Promise<Editor & { code: number | null }> {
  const { answer = (r) => r.options[0]!.optionId, buffers, extraEnv = {}, args = [] } = options;
  const child = spawn(process.execPath, [KEEL_BIN, "acp", ...args, ...SCRIPTED], {
    cwd: env.cwd,
    env: { ...process.env, KEEL_HOME: env.home, ...extraEnv },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const editor: Editor = { updates: [], permissions: [], stderr: () => stderr };
  const app = client({ name: "test-editor" })
    .onNotification(methods.client.session.update, ({ params }) => void editor.updates.push(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      editor.permissions.push(params);
      const optionId = answer(params);
      return { outcome: optionId ? { outcome: "selected", optionId } : { outcome: "cancelled" } };
    });
  if (buffers)
    app
      .onRequest(methods.client.fs.readTextFile, ({ params }) => {
        const content = buffers.get(params.path);
        if (content === undefined) throw new Error(`no buffer for ${params.path}`);
        return { content };
      })
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => void buffers.set(params.path, params.content));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  try {
    await app.connectWith(stream, (agent) => session(agent, editor));
  } finally {
    child.stdin.end();
  }
  return { ...editor, code: await exited };
}

export async function initialize(agent: ClientContext, files = false) {
  return agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: files ? { fs: { readTextFile: true, writeTextFile: true } } : {},
  });
}
