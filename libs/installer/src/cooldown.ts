/**
 * The cooldown (`marketplace.minReleaseAge`): a version younger than the setting is not picked by `install` or
 * `update` unless the user named it exactly, so a compromised release has time to be noticed and pulled
 * before it reaches anyone. npm versions are dated by the registry's `time` (pacote's `before`, as `npm
 * install --before` does); catalog versions by their `published` date.
 */
import valid from "semver/functions/valid.js";
import { RefusedError } from "./check.ts";

export interface Cooldown {
  /** Versions published after this are not picked. */
  notBefore: Date;
  /** The setting as written (`"3d"`), for messages. */
  setting: string;
}

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };
export const AGE_PATTERN = /^(\d+(?:\.\d+)?)([smhdw])$/;

/** `"3d"`, `"12h"`, `"2w"`, `"90m"`, `"30s"` in milliseconds. */
export function parseAge(text: string): number {
  const m = AGE_PATTERN.exec(text.trim());
  if (!m) throw new RefusedError(`"${text}" is not an age such as 3d, 12h or 2w`);
  return Number(m[1]) * UNITS[m[2]!]!;
}

/** Whether `range` names one version exactly (`1.2.3`, not `^1.2.3` or a tag). */
export const namesExactly = (range: string) => valid(range) !== null;

/** The cooldown to apply, or none: no setting, or the version named exactly. */
export function cooldownFor(setting: string | undefined, range: string, now = new Date()): Cooldown | undefined {
  if (!setting || namesExactly(range)) return undefined;
  return { notBefore: new Date(now.getTime() - parseAge(setting)), setting };
}

/** The refusal when every version that fits is younger than the cooldown. */
export function tooYoung(what: string, cooldown: Cooldown, exactly: string): RefusedError {
  return new RefusedError(
    `no version of ${what} was published before ${cooldown.notBefore.toISOString()} ` +
      `(marketplace.minReleaseAge is "${cooldown.setting}"); name a version exactly (${exactly}) to take a ` +
      "newer one anyway",
  );
}
