/**
 * The two ways the local backend starts commands (`ops-local.longLivedShell`), for tests that must hold on
 * both: through its long-lived shell helper (the default) and by a spawn from keel each.
 */
export const SHELL_PATHS: [string, boolean][] = [
  ["through the long-lived shell", true],
  ["spawned from keel", false],
];
