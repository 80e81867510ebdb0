/**
 * The operations conformance suite on the local backend, both ways it starts commands: through its
 * long-lived shell helper (the default) and spawned from keel.
 */
import { runOpsConformance, thisMachineWorld } from "@keel/testing/ops-conformance";
import { describe, it } from "vitest";
import { createLocalOps, type LocalOps } from "../src/local-ops.ts";

for (const longLivedShell of [true, false]) {
  runOpsConformance(
    {
      name: longLivedShell ? "local" : "local, longLivedShell: false",
      setup: () =>
        thisMachineWorld((cwd) => createLocalOps({ cwd, longLivedShell }), {
          close: (ops) => (ops as LocalOps).close(),
        }),
    },
    { describe, it },
  );
}
