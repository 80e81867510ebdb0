/**
 * @keel/testing/ops-conformance — the contract every operations backend must meet, as a suite a backend's
 * author runs against their own backend: confinement (also under a symlink-swap race), byte-exact files,
 * exit codes, output of any size, stdin, and process trees that stop whole. A backend that lacks an ability
 * by design (no processes, no symlinks) says so and those cases are skipped, visibly.
 */
export { OPS_CONFORMANCE_CASES, runOpsConformance } from "./suite.js";
export { filesUnder, isAlive, makeWorldRoot, processesWithEnv, thisMachineWorld } from "./this-machine.js";
export { startFolderSwapper, type FolderSwapper } from "./folder-swapper.js";
export type { OpsAbility, OpsCase, OpsConformanceTarget, OpsWorld, SuiteRunner, Swapper, WorldFiles } from "./types.js";
