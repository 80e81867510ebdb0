/**
 * The plugin API check (src/api-fit.ts) reads `^X.Y.Z` against a plain version itself, without semver: its
 * verdicts must be semver's, prereleases included, for that form and every other, valid or not.
 */
import satisfies from "semver/functions/satisfies.js";
import validRange from "semver/ranges/valid.js";
import { expect, it } from "vitest";
import { rangeFits } from "../src/api-fit.ts";

const VERSIONS = ["1.0.0", "1.0.1", "1.2.3", "1.10.0", "2.0.0", "0.9.0", "1.0.0-rc.1", "10.0.0"];
const RANGES = [
  "^1.0.0",
  "^1.0.1",
  "^1.2.3",
  "^1.2.4",
  "^1.3.0",
  "^1.9.0",
  "^2.0.0",
  "^10.0.0",
  "^0.9.0",
  "^0.0.1",
  "^01.0.0",
  "^1.0",
  "^1",
  " ^1.0.0",
  "^1.0.0-beta",
  ">=1.0.0",
  "1.x",
  "~1.0.0",
  "*",
  "^1.0.0 || ^2.0.0",
  "not a range",
  "",
];

it("decides every range as semver does, prereleases included", () => {
  for (const version of VERSIONS)
    for (const range of RANGES) {
      const semver = !validRange(range)
        ? "invalid"
        : satisfies(version, range, { includePrerelease: true })
          ? "yes"
          : "no";
      expect({ version, range, fit: rangeFits(version, range) }).toEqual({ version, range, fit: semver });
    }
});
