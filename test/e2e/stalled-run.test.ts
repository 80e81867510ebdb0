/**
 * A run whose plugin awaits a promise nothing will settle: Node would end the process with code 0 once its event
 * loop is empty, as if the run had succeeded. The scripted model's `hang` turn waits on its abort signal alone,
 * which no timer, socket or process holds open in print mode.
 */
import { expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

it("fails, saying the run was stuck, instead of exiting 0 when the event loop empties mid-run", async () => {
  const env = keelEnv({ script: [{ text: "thinking about it", hang: true }] });
  const run = await runKeel(["-p", "go", ...SCRIPTED], env, { stdin: "ignore" });
  expect(run.stderr).toContain("keel stopped: the run was waiting for something that can no longer happen");
  expect(run.code).toBe(70);
});

it("exits as before when the run ends", async () => {
  const env = keelEnv({ script: [{ text: "done" }] });
  const run = await runKeel(["-p", "go", ...SCRIPTED], env, { stdin: "ignore" });
  expect(run.stderr).not.toContain("keel stopped");
  expect(run.code).toBe(0);
});
