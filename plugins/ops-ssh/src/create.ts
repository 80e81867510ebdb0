/**
 * Building the ssh backend for a session: the target from settings and the SSH config file, the first
 * connection (host key checked, helper started, remote root resolved) before any tool runs, so a host that
 * cannot be reached says why at once. Imported only when the `ssh` backend is chosen.
 */
import { SshPool } from "./pool.ts";
import type { SshSettings } from "./settings.ts";
import { SshOps } from "./ssh-ops.ts";
import { resolveTarget } from "./target.ts";

export async function createSshOps(settings: SshSettings): Promise<SshOps> {
  const target = resolveTarget(settings);
  const { pool, release } = SshPool.shared(target);
  try {
    const { helper } = await pool.controlPair();
    const root = target.root.startsWith("~/") ? target.root.slice(2) : target.root === "~" ? "." : target.root;
    const real = await helper.request<string>("root", { root }).catch((error: Error) => {
      throw new Error(
        `The remote root ${target.root} on ${pool.where} cannot be used: ${error.message}. Create it, or fix ` +
          `"ops-ssh.root".`,
      );
    });
    return new SshOps(pool, real, release);
  } catch (error) {
    release();
    throw error;
  }
}
