/**
 * Building the ssh backend for a session: the target from settings and the SSH config file, the first
 * connection (host key checked, helper started, remote root resolved) before any tool runs, so a host that
 * cannot be reached says why at once. Imported only when the `ssh` backend is chosen.
 */
import { z } from "@keel/extensions-api";
import { SshPool } from "./pool.ts";
import type { SshSettings } from "./settings.ts";
import { SshOps } from "./ssh-ops.ts";
import { resolveTarget } from "./target.ts";

/** What a session records of where it worked (`SshOps.resumeWith`); keys and known hosts stay the settings'. */
export const Recorded = z.object({
  host: z.string().min(1),
  port: z.number().int(),
  user: z.string().min(1),
  root: z.string().min(1),
});

/**
 * `resume`: what the session being resumed recorded; it names the host, port, user and root over the settings',
 * so `keel -c` goes back to the same remote folder. Something unreadable there is ignored.
 */
export async function createSshOps(settings: SshSettings, resume?: unknown): Promise<SshOps> {
  const recorded = Recorded.safeParse(resume);
  const target = resolveTarget(recorded.success ? { ...settings, ...recorded.data } : settings);
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
    return new SshOps(pool, real, release, { host: target.alias, port: target.port, user: target.user, root: real });
  } catch (error) {
    release();
    throw error;
  }
}
