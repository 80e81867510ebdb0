// What session-jsonl's lock (proper-lockfile, built into the plugin's entry by build-plugins.mjs) gets for
// `graceful-fs`: node:fs's functions that the lock calls, and nothing else. Not node:fs itself: the lock's sync
// adapter copies the object it is given (`{ ...fs }`), and reading every enumerable property of node:fs reads its
// `promises` getter, which loads fs/promises, readline's interface and fs's watchers (~1 ms) on a run's way to its
// first request. The lock makes, stats, touches and removes a folder and resolves its path.
"use strict";
const fs = require("node:fs");

const USED = ["mkdir", "realpath", "stat", "rmdir", "utimes"];
module.exports = Object.fromEntries(USED.flatMap((name) => [name, `${name}Sync`]).map((name) => [name, fs[name]]));
