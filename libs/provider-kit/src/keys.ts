/**
 * API keys as settings write them: a literal key, `$ENV_NAME`, or `!command` whose standard output is the
 * key (a password manager, a cloud CLI). A command runs once per process; its answer is kept in memory.
 */

/** A resolved key and where it came from, for error messages (never the key itself). */
export interface ResolvedKey {
  key?: string;
  /** e.g. `OPENAI_API_KEY`, `$MY_KEY (providers.x.apiKey)`, `the command in providers.x.apiKey`. */
  source: string;
  /** Why there is no key, in words a user can act on. */
  problem?: string;
}

const commandCache = new Map<string, Promise<string>>();
const COMMAND_TIMEOUT_MS = 15_000;

function runKeyCommand(command: string): Promise<string> {
  let running = commandCache.get(command);
  if (!running) {
    // Imported here: only `!command` keys need child_process, and provider plugins load on every run.
    running = import("node:child_process").then(
      ({ execFile }) =>
        new Promise<string>((resolve, reject) => {
          execFile(
            "sh",
            ["-c", command],
            { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 64 * 1024 },
            (error, stdout, stderr) => {
              if (error)
                return reject(
                  new Error(
                    `${
                      error.killed ? `timed out after ${COMMAND_TIMEOUT_MS / 1000} s` : `exit ${error.code ?? "?"}`
                    }${stderr.trim() ? `: ${stderr.trim().slice(0, 200)}` : ""}`,
                  ),
                );
              resolve(stdout.trim());
            },
          );
        }),
    );
    // A failed command may succeed later (the user unlocks the password manager): do not keep failures.
    running.catch(() => commandCache.delete(command));
    commandCache.set(command, running);
  }
  return running;
}

/**
 * Resolves a key. `spec` is the settings value (`providers.<id>.apiKey`), `setting` its path for messages,
 * `envName` the variable used when settings give none (undefined for servers that need no key).
 */
export async function resolveKey(
  spec: string | undefined,
  setting: string,
  envName: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedKey> {
  if (spec === undefined || spec === "") {
    if (!envName) return { source: "none (this provider sends no key)" };
    const key = env[envName];
    return key
      ? { key, source: envName }
      : {
          source: envName,
          problem: `set ${envName}, or set ${setting} in settings.json (the key, $ENV_NAME, or !command)`,
        };
  }
  if (spec.startsWith("$")) {
    const name = spec.slice(1);
    const key = env[name];
    const source = `${spec} (${setting})`;
    return key ? { key, source } : { source, problem: `${setting} names ${spec}, which is not set in the environment` };
  }
  if (spec.startsWith("!")) {
    const command = spec.slice(1).trim();
    const source = `the command in ${setting}`;
    try {
      const key = await runKeyCommand(command);
      return key ? { key, source } : { source, problem: `the command in ${setting} (\`${command}\`) printed nothing` };
    } catch (error) {
      return { source, problem: `the command in ${setting} (\`${command}\`) failed: ${(error as Error).message}` };
    }
  }
  return { key: spec, source: setting };
}
