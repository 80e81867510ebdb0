/**
 * The agent a task runs: keel itself (the distribution running the batch) or a built distribution's folder
 * (`keel dist build`), found through its package.json: the script of its command, and its home folder, where
 * its sessions are kept.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

export interface AgentCommand {
  /** The command's script, run with node. */
  bin: string;
  home: string;
}

/** The agent whose package.json is `file`; throws saying what is missing. */
export function agentCommand(file: string, env: NodeJS.ProcessEnv = process.env): AgentCommand {
  let pkg: { bin?: unknown; keelDistribution?: { command?: unknown } };
  try {
    pkg = JSON.parse(readFileSync(file, "utf8")) as typeof pkg;
  } catch (error) {
    throw new Error(`${file} cannot be read (${(error as Error).message})`);
  }
  const command = pkg.keelDistribution?.command;
  const bin = typeof pkg.bin === "object" && pkg.bin !== null ? (pkg.bin as Record<string, unknown>) : {};
  if (typeof command !== "string" || typeof bin[command] !== "string")
    throw new Error(`${file} is not a built agent's (no keelDistribution.command with its bin entry)`);
  // As keel decides it (core's distributionHome): `$<COMMAND>_HOME`, else `~/.<command>`.
  const home = env[`${command.toUpperCase().replace(/-/g, "_")}_HOME`] || join(homedir(), `.${command}`);
  return { bin: resolve(dirname(file), bin[command]), home };
}

/** A task's `distribution`: a built agent's folder. */
export function distributionCommand(dir: string): AgentCommand {
  try {
    return agentCommand(join(dir, "package.json"));
  } catch (error) {
    throw new Error(
      `the distribution ${dir} is not a built agent: ${(error as Error).message}. Build one with ` +
        "`keel dist build <manifest> --out <folder>` and name that folder.",
    );
  }
}
