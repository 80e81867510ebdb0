/**
 * Registers the conformance cases with the test runner: one `describe` per target and group, a fresh world per
 * case, and the cases that need an ability the target lacks registered as skipped, their name saying why.
 */
import { commandCases } from "./cases-commands.js";
import { confinementCases } from "./cases-confinement.js";
import { fileCases } from "./cases-files.js";
import { raceCases } from "./cases-race.js";
import { treeCases } from "./cases-trees.js";
import type { OpsCase, OpsConformanceTarget, SuiteRunner } from "./types.js";

/** Every case, by group. */
export const OPS_CONFORMANCE_CASES: Readonly<Record<string, readonly OpsCase[]>> = {
  files: fileCases,
  confinement: confinementCases,
  "confinement under a race": raceCases,
  commands: commandCases,
  "process trees": treeCases,
};

/**
 * Runs the operations conformance suite against `target` with the runner's `describe` and `it`:
 *
 * ```ts
 * import { describe, it } from "vitest";
 * import { runOpsConformance, thisMachineWorld } from "@keel/testing/ops-conformance";
 * runOpsConformance({ name: "mine", setup: () => thisMachineWorld((cwd) => createMyOps(cwd)) }, { describe, it });
 * ```
 */
export function runOpsConformance(target: OpsConformanceTarget, runner: SuiteRunner): void {
  const lacks = target.lacks ?? {};
  runner.describe(`ops conformance: ${target.name}`, () => {
    for (const [group, cases] of Object.entries(OPS_CONFORMANCE_CASES)) {
      runner.describe(group, () => {
        for (const item of cases) {
          const missing = (item.needs ?? []).find((ability) => lacks[ability] !== undefined);
          const body = async () => {
            const world = await target.setup();
            try {
              await item.run(world);
            } finally {
              await world.dispose();
            }
          };
          if (missing) runner.it.skip(`${item.name} [skipped: no ${missing}: ${lacks[missing]}]`, body);
          else runner.it(item.name, body, target.timeoutMs ?? 30_000);
        }
      });
    }
  });
}
