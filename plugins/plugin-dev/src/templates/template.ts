/**
 * What `keel plugin new` writes for one kind: the manifest's `contributes`, the entry, the settings schema and a
 * test that loads the package through keel's test kit. `id` is the plugin's short name (its settings key);
 * `tool` the same as a tool name.
 */
export interface Names {
  /** The package name, as given. */
  name: string;
  /** The settings key and the contribution's name: the package name without scope and `keel-`/`plugin-`. */
  id: string;
  /** `id` as a tool name (`-` → `_`). */
  tool: string;
}

export interface KindTemplate {
  /** One line for `--help` and the README. */
  summary: string;
  contributes(names: Names): Record<string, unknown>;
  /** Other settings sections the entry reads through `api.allSettings` (`keel.reads`). */
  reads?: string[];
  /** `src/index.ts`. */
  entry(names: Names): string;
  /** `src/settings.ts`. */
  settings(names: Names): string;
  /** `test/plugin.test.js`, run by `node --test`. */
  test(names: Names): string;
}

/** The head every generated test shares: the kit, assertions, and the package folder. */
export function testHead(extra = ""): string {
  return `// @ts-check
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createTestKit } from "@keel/testing";${extra}

const plugin = fileURLToPath(new URL("..", import.meta.url));
`;
}
