/**
 * Names for log files in the session's data folder: readable, unique, and safe whatever a tool-call id holds.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";

export function logPath(dataDir: string, prefix: string, id: string): string {
  const safe = id.replace(/[^\w-]/g, "_").slice(0, 64);
  // randomUUID draws from a pool Node keeps; randomBytes asked the system for each call (~0.07 ms a tool turn).
  return join(dataDir, "bash", `${prefix}-${safe}-${randomUUID().slice(0, 6)}.log`);
}
