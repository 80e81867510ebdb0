// The edit-and-test loop is honest only if tests import the sources: an edited message in kernel/src must fail
// the test that asserts the old text without a build step. These check where the modules really came from.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import * as core from "@keel/core";
import * as kernel from "@keel/kernel";
import * as api from "@keel/extensions-api";
import * as stream from "@keel/extensions-api/stream";

const root = fileURLToPath(new URL("../..", import.meta.url));

function definedIn(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).stack ?? "";
  }
  throw new Error("expected the call to throw");
}

it("resolves @keel/kernel to kernel/src, not kernel/dist", () => {
  const stack = definedIn(() => kernel.toModelContext(undefined as never));
  expect(stack).toContain(`${root}kernel/src/`);
  expect(stack.split("\n")[1]).not.toContain("/dist/");
});

it("resolves @keel/core to core/src, not core/dist", () => {
  const stack = definedIn(() => core.readDistribution(`${root}no-such-distribution.json`));
  expect(stack).toContain(`${root}core/src/`);
  expect(stack.split("\n")[1]).not.toContain("/dist/");
});

it("resolves @keel/extensions-api and its subpaths to extensions-api/src", () => {
  const source = readFileSync(`${root}extensions-api/src/stream.ts`, "utf8");
  expect(source).toContain("class AssistantMessageBuilder");
  expect(stream.AssistantMessageBuilder.toString()).toContain("class AssistantMessageBuilder");
  expect(Object.keys(api)).not.toContain("AssistantMessageBuilder");
});

it("keeps the contract free of the host: extensions-api neither depends on nor imports @keel/core", () => {
  const pkg = JSON.parse(readFileSync(`${root}extensions-api/package.json`, "utf8")) as Record<string, unknown>;
  const deps = ["dependencies", "peerDependencies", "optionalDependencies"].flatMap((k) =>
    Object.keys((pkg[k] as object) ?? {}),
  );
  expect(deps).not.toContain("@keel/core");
  const sources = readdirSync(`${root}extensions-api/src`).map((f) =>
    readFileSync(`${root}extensions-api/src/${f}`, "utf8"),
  );
  expect(sources.filter((s) => s.includes("@keel/core"))).toEqual([]);
});
