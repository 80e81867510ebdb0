/**
 * The operations conformance suite on the sandbox backend: commands in bubblewrap, files through the confined
 * local backend it wraps. bubblewrap passes on a death by signal as exit code 128+n, so those cases are skipped.
 */
import { runOpsConformance, thisMachineWorld } from "@keel/testing/ops-conformance";
import { describe, it } from "vitest";
import { createLocalOps, type LocalOps } from "../../ops-local/src/local-ops.ts";
import { planLayout } from "../src/layout.ts";
import { SandboxOps } from "../src/sandbox-ops.ts";
import { SandboxSettingsSchema } from "../src/settings.ts";

let inner: LocalOps | undefined;

runOpsConformance(
  {
    name: "sandbox",
    lacks: { signals: "bubblewrap reports a command killed by a signal as its exit code 128+n" },
    setup: () =>
      thisMachineWorld(
        async (cwd) => {
          inner = createLocalOps({ cwd });
          const ops = new SandboxOps({
            inner,
            bwrap: "bwrap",
            layout: planLayout(inner.cwd, SandboxSettingsSchema.parse({})).layout,
          });
          const refusal = await ops.probe();
          if (refusal) throw new Error(refusal);
          return ops;
        },
        { close: () => inner?.close() },
      ),
  },
  { describe, it },
);
