/**
 * Names for log files in the session's data folder: readable, unique, and safe whatever a tool-call id holds.
 */
import { randomHex } from "@keel/extensions-api/random-id";
import { join } from "node:path";

export function logPath(dataDir: string, prefix: string, id: string): string {
  const safe = id.replace(/[^\w-]/g, "_").slice(0, 64);
  return join(dataDir, "bash", `${prefix}-${safe}-${randomHex(3)}.log`);
}
