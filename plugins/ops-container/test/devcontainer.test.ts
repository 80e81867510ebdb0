/**
 * The project's devcontainer.json: found where the spec's tools look, read with comments and trailing commas,
 * its variables filled in, what is not followed named, and a broken one refused naming the file. Its places are
 * the ones core holds for trust.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { PROJECT_PLUGIN_FILES } from "../../../core/src/trust/project-config.ts";
import { tempFolder } from "../../../test/support/workspace.ts";
import { DEVCONTAINER_FILES, readDevcontainer } from "../src/devcontainer.ts";

let ws: ReturnType<typeof tempFolder>;
beforeEach(() => (ws = tempFolder("keel-devcontainer-")));
afterEach(() => ws.remove());

function write(file: string, text: string): void {
  mkdirSync(join(ws.path, file, ".."), { recursive: true });
  writeFileSync(join(ws.path, file), text);
}

it("looks in the places core makes wait for trust", () => {
  expect([...DEVCONTAINER_FILES]).toEqual([...PROJECT_PLUGIN_FILES]);
});

it("reads the honoured keys, with comments, trailing commas and the spec's variables", () => {
  write(
    ".devcontainer/devcontainer.json",
    `{
      // the toolchain
      "image": "debian:12",
      "workspaceFolder": "/src/\${localWorkspaceFolderBasename}",
      "containerEnv": { "WS": "\${containerWorkspaceFolder}", "FROM_HOST": "\${localEnv:KEEL_T:fallback}", },
      "remoteUser": "vscode", /* the user commands run as */
    }`,
  );
  const name = ws.path.split("/").pop()!;
  expect(readDevcontainer(ws.path, {})).toEqual({
    file: ".devcontainer/devcontainer.json",
    image: "debian:12",
    workspaceFolder: `/src/${name}`,
    containerEnv: { WS: `/src/${name}`, FROM_HOST: "fallback" },
    remoteUser: "vscode",
    ignored: [],
  });
  expect(readDevcontainer(ws.path, { KEEL_T: "set" })!.containerEnv.FROM_HOST).toBe("set");
});

it("defaults the workspace folder to /workspaces/<folder name>, and finds .devcontainer.json too", () => {
  write(".devcontainer.json", '{ "image": "alpine" }');
  const found = readDevcontainer(ws.path, {})!;
  expect(found.file).toBe(".devcontainer.json");
  expect(found.workspaceFolder).toBe(`/workspaces/${ws.path.split("/").pop()}`);
});

it("names what it does not follow: a build, unknown variables", () => {
  write(".devcontainer.json", '{ "build": { "dockerfile": "Dockerfile" }, "containerEnv": { "A": "${nope}" } }');
  const found = readDevcontainer(ws.path, {})!;
  expect(found.image).toBeUndefined();
  expect(found.containerEnv).toEqual({ A: "${nope}" });
  expect(found.ignored).toEqual([
    "the variable ${nope} is not known here and was left as it is",
    '"build" is not followed (set "ops-container.image" for an image built apart)',
  ]);
});

it("refuses a file that does not parse, or a key of the wrong type, naming the file", () => {
  write(".devcontainer.json", '{ "image": ');
  expect(() => readDevcontainer(ws.path, {})).toThrow(/^\.devcontainer\.json is not valid JSON with comments/);
  write(".devcontainer.json", '{ "containerEnv": { "A": 1 } }');
  expect(() => readDevcontainer(ws.path, {})).toThrow(/^\.devcontainer\.json: containerEnv\.A: /);
  write(".devcontainer.json", '{ "workspaceFolder": "relative" }');
  expect(() => readDevcontainer(ws.path, {})).toThrow("workspaceFolder must be an absolute path");
});

it("is undefined when the project has none", () => {
  expect(readDevcontainer(ws.path, {})).toBeUndefined();
});
