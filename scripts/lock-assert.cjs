// What session-jsonl's lock gets for `assert` (signal-exit, under proper-lockfile, built into the plugin's entry by
// build-plugins.mjs): signal-exit's one call, `assert.equal` on its callback's type as it registers, which runs on
// every start. node:assert itself compiles its assertion error, call tracker and colour modules for a check that
// never fails here.
"use strict";

module.exports = {
  equal(actual, expected, message) {
    if (actual != expected) throw new Error(message ?? `${actual} == ${expected}`);
  },
};
