// The catalog of agents the peers bench runs, keel first (its row is the one the ratios are about). Each adapter
// is one module that says how to start its agent headless, which wire format it speaks and how its isolated home
// points it at the mock model with nothing else reachable.
import { claudeCode } from "./claude-code.mjs";
import { codex } from "./codex.mjs";
import { keel } from "./keel.mjs";
import { pi } from "./pi.mjs";

/**
 * @typedef {object} RunContext
 * @property {string} home     an empty folder of the agent's own, its HOME (config, caches, sessions go here)
 * @property {string} work     the project folder it runs in
 * @property {string} mockUrl  `http://127.0.0.1:<port>` of the mock model; formats are told apart by path
 * @property {string} agents   the folder the peers were installed into (bench/peers/.agents)
 */

/**
 * @typedef {object} Agent
 * @property {string} name     the row's label
 * @property {string} [npm]    `package@version` installed into the agents folder; keel has none (this tree)
 * @property {"openai" | "anthropic" | "openai-responses"} wire  the format it talks to the mock in
 * @property {(agents: string) => { file: string; args: string[] } | string} command  the executable and leading
 *   arguments, or why it cannot run here
 * @property {(ctx: RunContext) => Record<string, string>} prepare  writes its config into `ctx.home`; returns its
 *   environment variables (base URL, fake key, telemetry and update checks off)
 * @property {(prompt: string) => string[]} printArgs  the arguments of a one-shot headless run
 */

/** @type {Agent[]} */
export const AGENTS = [keel, pi, claudeCode, codex];
