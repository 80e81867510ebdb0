/**
 * Type-level tests of the contribution catalog, checked by `tsc -p tsconfig.check.json` (part of `npm test`):
 * each `@ts-expect-error` below must be an error, so a catalog that stopped refusing these would fail the check.
 */
import { CONTRIBUTIONS, z, type ContributionTable, type ContributionTypes } from "@keel/extensions-api";
import { ADMISSIONS, type AdmissionTable } from "../../core/src/host/registries.ts";

interface Sandbox {
  name: string;
  wrap(command: string): string;
}
const sandboxRow = {
  noun: "sandbox",
  event: "onSandbox",
  lazy: true,
  when: "-",
  entry: z.string(),
  show: "sandbox:",
  doc: "-",
} as const;

// A row for a kind that has no item type (no registry) is refused.
// @ts-expect-error 'sandboxes' does not exist in ContributionTable
export const extraRow: ContributionTable = { ...CONTRIBUTIONS, sandboxes: { ...sandboxRow, register: "registerTool" } };

// With its item type but no `register*` method on PluginAPI that takes one, the row is refused.
export const noMethod: ContributionTable<ContributionTypes & { sandboxes: Sandbox }> = {
  ...CONTRIBUTIONS,
  // @ts-expect-error no PluginAPI method registers a Sandbox
  sandboxes: { ...sandboxRow, register: "registerSandbox" },
};

// A row naming another kind's register method is refused.
export const wrongMethod: ContributionTable = {
  ...CONTRIBUTIONS,
  // @ts-expect-error registerTool takes a Tool, not a Mode
  modes: { ...CONTRIBUTIONS.modes, register: "registerTool" },
};

// The table must have a row for every kind.
const { ops: _ops, ...withoutOps } = CONTRIBUTIONS;
// @ts-expect-error property 'ops' is missing
export const missingRow: ContributionTable = withoutOps;

// The host needs an admission rule (its registry's naming and checks) for every kind.
// @ts-expect-error property 'sandboxes' is missing in ADMISSIONS
export const noAdmission: AdmissionTable<ContributionTypes & { sandboxes: Sandbox }> = ADMISSIONS;

// And the real catalog passes all of these.
export const complete: ContributionTable = CONTRIBUTIONS;
export const admitted: AdmissionTable = ADMISSIONS;
