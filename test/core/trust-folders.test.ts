/**
 * Project folders whose files are configuration (`PROJECT_CONFIG_FOLDERS`: `.keel/agents`), and files plugins
 * read (`PROJECT_PLUGIN_FILES`: devcontainer.json): a project holding only agent definitions waits for trust like
 * one holding settings, its files are in the hash, and a remembered decision no longer holds once one changes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { HookBus } from "@keel/kernel";
import { decideProjectTrust } from "../../core/src/trust/decide.ts";
import { readProjectConfig } from "../../core/src/trust/project-config.ts";
import { TrustStore } from "../../core/src/trust/trust-store.ts";

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "keel-trust-folders-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const decide = (cwd: string, home: string, warnings: string[] = []) =>
  decideProjectTrust({
    cwd,
    project: undefined,
    store: new TrustStore(home),
    hooks: new HookBus(() => undefined),
    options: {},
    isCliCommand: () => false,
    command: "keel",
    warnings,
    activateDeciders: async () => undefined,
  });

it("holds a project whose only configuration is an agent definition, naming the folder", async () => {
  const cwd = project({ ".keel/agents/scout.md": "---\ndescription: x\n---\nbody\n" });
  const home = mkdtempSync(join(tmpdir(), "keel-trust-home-"));
  const trust = await decide(cwd, home);
  expect(trust.trusted).toBe(false);
  expect(trust.held).toEqual([".keel/agents"]);
  expect(trust.config.files).toEqual([".keel/agents/scout.md"]);
  // The folder is named once, not file by file.
  expect(trust.notice).toContain("its .keel/agents set");
});

it("trusts a project with no configuration at all", async () => {
  const trust = await decide(project({ "README.md": "hi" }), mkdtempSync(join(tmpdir(), "keel-trust-home-")));
  expect(trust).toMatchObject({ trusted: true, held: [] });
});

it("asks again once a definition changes: the remembered decision was for the old bytes", async () => {
  const cwd = project({ ".keel/agents/scout.md": "v1" });
  const home = mkdtempSync(join(tmpdir(), "keel-trust-home-"));
  const warnings: string[] = [];
  await new TrustStore(home).remember(readProjectConfig(cwd), true, warnings);
  expect((await decide(cwd, home)).trusted).toBe(true);
  writeFileSync(join(cwd, ".keel/agents/scout.md"), "v2");
  expect((await decide(cwd, home)).trusted).toBe(false);
  writeFileSync(join(cwd, ".keel/agents/scout.md"), "v1");
  writeFileSync(join(cwd, ".keel/agents/new.md"), "another");
  expect((await decide(cwd, home)).trusted).toBe(false);
  expect(warnings).toEqual([]);
});

it("holds a project whose only configuration is a devcontainer.json, and asks again once it changes", async () => {
  const cwd = project({ ".devcontainer/devcontainer.json": '{ "image": "debian" }' });
  const home = mkdtempSync(join(tmpdir(), "keel-trust-home-"));
  const first = await decide(cwd, home);
  expect(first).toMatchObject({ trusted: false, held: [".devcontainer/devcontainer.json"] });
  expect(first.notice).toContain(".devcontainer/devcontainer.json");
  await new TrustStore(home).remember(readProjectConfig(cwd), true, []);
  expect((await decide(cwd, home)).trusted).toBe(true);
  writeFileSync(join(cwd, ".devcontainer/devcontainer.json"), '{ "image": "evil" }');
  expect((await decide(cwd, home)).trusted).toBe(false);
});
