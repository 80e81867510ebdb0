/**
 * A distribution: a named set of plugins, default settings and prompt, shipped as its own command. It is the
 * `keelDistribution` field of a package.json whose name, version and description it shares. keel's default
 * coding agent is one; the kernel names no plugin itself.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "@keel/extensions-api";
import type { Distribution } from "./runtime.js";

const DistributionSchema = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string().optional(),
  keelDistribution: z.object({
    command: z.string().regex(/^[a-z0-9][\w-]*$/),
    /** Plugin folders, relative to the package.json. */
    plugins: z.array(z.string()),
    settings: z.record(z.string(), z.unknown()).default({}),
  }),
});

export function readDistribution(packageJsonPath: string): Distribution {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(packageJsonPath, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read the distribution ${packageJsonPath}: ${(error as Error).message}`);
  }
  const parsed = DistributionSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `Invalid distribution in ${packageJsonPath}: ${parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`).join("; ")}`,
    );
  const { name, version, description, keelDistribution: d } = parsed.data;
  const base = dirname(packageJsonPath);
  return {
    name,
    version,
    description,
    command: d.command,
    plugins: d.plugins.map((p) => resolve(base, p)),
    settings: d.settings,
  };
}
