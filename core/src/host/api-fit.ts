/**
 * Whether this keel can run a plugin written for an `apiVersion` range: the host checks it at load, the
 * installer before installing, with the same rule (semver, prereleases included).
 */
import satisfies from "semver/functions/satisfies.js";
import validRange from "semver/ranges/valid.js";
import { API_VERSION } from "@keel/extensions-api";

/** Plugins mostly share a handful of ranges; semver parses each range once. */
const apiFit = new Map<string, "yes" | "no" | "invalid">();

export function apiFits(range: string): "yes" | "no" | "invalid" {
  let fit = apiFit.get(range);
  if (!fit) {
    fit = !validRange(range) ? "invalid" : satisfies(API_VERSION, range, { includePrerelease: true }) ? "yes" : "no";
    apiFit.set(range, fit);
  }
  return fit;
}
