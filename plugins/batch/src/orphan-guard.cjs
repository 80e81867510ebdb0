// Preloaded (`node --require`) into every task's keel process: once the batch or worker that started it is gone
// (killed, its machine's session ended), the task ends too — SIGTERM, so keel aborts the run and shuts down
// cleanly — instead of running on unwatched while the queue gives its job to another worker.
"use strict";
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
}, 500).unref();
