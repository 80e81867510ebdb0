/**
 * The operations conformance suite on the ssh backend, against an OpenSSH server on 127.0.0.1 that this file
 * starts (one for all its cases): the remote root is a folder on this machine, so the world's own hands and
 * the race's attacker work on it directly.
 */
import { runOpsConformance, thisMachineWorld } from "@keel/testing/ops-conformance";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startSshd, type Sshd } from "../../../test/support/sshd.ts";
import { SshSettingsSchema } from "../src/settings.ts";
import { createSshOps } from "../src/create.ts";
import { SshPool } from "../src/pool.ts";
import type { SshOps } from "../src/ssh-ops.ts";
import { resolveTarget } from "../src/target.ts";

let sshd: Sshd;
/** Holds the shared pool between cases, so each world's backend reuses its connections, as a session's would. */
let keep: { release(): void };
beforeAll(async () => {
  sshd = await startSshd();
  keep = SshPool.shared(resolveTarget(SshSettingsSchema.parse(sshd.settings(sshd.dir))));
});
afterAll(async () => {
  keep.release();
  await sshd.stop();
});

runOpsConformance(
  {
    name: "ssh",
    // Each command's exec channel pays the remote login shell's start-up: on a machine whose ~/.bashrc runs
    // `pyenv init` (this one's: 3-5 s, serialised by pyenv's rehash lock), twelve commands at once take a minute.
    timeoutMs: 180_000,
    setup: () =>
      thisMachineWorld((cwd) => createSshOps(SshSettingsSchema.parse(sshd.settings(cwd))), {
        close: (ops) => (ops as SshOps).close(),
      }),
  },
  { describe, it },
);
