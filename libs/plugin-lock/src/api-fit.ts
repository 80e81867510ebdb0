/**
 * Whether this keel can run a plugin written for an `apiVersion` range: the host checks it at load, the
 * installer before installing, with the same rule (semver, prereleases included).
 */
import satisfies from "semver/functions/satisfies.js";
import validRange from "semver/ranges/valid.js";
import { API_VERSION } from "@keel/extensions-api";

export type Fit = "yes" | "no" | "invalid";

/** Plugins mostly share a handful of ranges; each is decided once. */
const apiFit = new Map<string, Fit>();

export function apiFits(range: string): Fit {
  let fit = apiFit.get(range);
  if (!fit) {
    fit = rangeFits(API_VERSION, range);
    apiFit.set(range, fit);
  }
  return fit;
}

const PLAIN_VERSION = /^(0|[1-9]\d{0,14})\.(0|[1-9]\d{0,14})\.(0|[1-9]\d{0,14})$/;
const PLAIN_CARET = /^\^([1-9]\d{0,14})\.(0|[1-9]\d{0,14})\.(0|[1-9]\d{0,14})$/;

/**
 * Whether `version` satisfies `range`, as semver decides it with prereleases included. The form nearly every
 * plugin declares, `^X.Y.Z` with X ≥ 1, against a version without a prerelease, is read here without semver: its
 * first range of a process compiles semver's regular expressions, ~1.5 ms of every start. For that form semver's
 * rule is: the same major, and at least X.Y.Z. Every other range and version goes to semver.
 */
export function rangeFits(version: string, range: string): Fit {
  const have = PLAIN_VERSION.exec(version);
  const want = PLAIN_CARET.exec(range);
  if (have && want) {
    const [major, minor, patch] = have.slice(1).map(Number) as [number, number, number];
    const [wantMajor, wantMinor, wantPatch] = want.slice(1).map(Number) as [number, number, number];
    const atLeast = minor > wantMinor || (minor === wantMinor && patch >= wantPatch);
    return major === wantMajor && atLeast ? "yes" : "no";
  }
  if (!validRange(range)) return "invalid";
  return satisfies(version, range, { includePrerelease: true }) ? "yes" : "no";
}
