/**
 * The kinds `keel plugin new --kind` knows: one catalog, so the help text, the check of `--kind` and the
 * writer all derive from it.
 */
import { commandTemplate } from "./templates/command.ts";
import { compactionTemplate } from "./templates/compaction.ts";
import { hookTemplate } from "./templates/hook.ts";
import { providerTemplate } from "./templates/provider.ts";
import { sandboxTemplate } from "./templates/sandbox.ts";
import type { KindTemplate } from "./templates/template.ts";
import { toolTemplate } from "./templates/tool.ts";
import { uiTemplate } from "./templates/ui.ts";

export const KINDS = {
  tool: toolTemplate,
  provider: providerTemplate,
  hook: hookTemplate,
  command: commandTemplate,
  ui: uiTemplate,
  compaction: compactionTemplate,
  sandbox: sandboxTemplate,
} satisfies Record<string, KindTemplate>;

export type Kind = keyof typeof KINDS;

export const KIND_NAMES = Object.keys(KINDS) as Kind[];

export function isKind(value: unknown): value is Kind {
  return typeof value === "string" && value in KINDS;
}
