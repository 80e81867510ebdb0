/**
 * Locked settings: keys a distribution decides alone (`readonly-reviewer` locks `tools.enabled`, so no user or
 * project file can hand the model `write` or `bash`). After the layers below the managed one are merged, each
 * locked key gets the distribution's value back (or is removed, when the distribution sets none); the managed
 * layer still applies over it, since an administrator's policy is above every agent.
 */
import type { FlagSpec } from "@keel/extensions-api";
import { isPlainObject, type NamedLayer, type SettingsObject } from "./layers.js";

function valueAt(settings: SettingsObject | undefined, path: string[]): { found: boolean; value?: unknown } {
  let current: unknown = settings;
  for (const key of path) {
    if (!isPlainObject(current) || !(key in current)) return { found: false };
    current = current[key];
  }
  return { found: true, value: current };
}

function withValueAt(settings: SettingsObject, path: string[], found: boolean, value: unknown): SettingsObject {
  const [key, ...rest] = path as [string, ...string[]];
  const out = { ...settings };
  if (rest.length === 0) {
    if (found) out[key] = value;
    else delete out[key];
    return out;
  }
  const child = isPlainObject(out[key]) ? out[key] : undefined;
  if (!child && !found) return out;
  out[key] = withValueAt(child ?? {}, rest, found, value);
  return out;
}

/** `merged` with every locked key as the distribution's `defaults` have it. */
export function applyLocks(
  merged: SettingsObject,
  defaults: SettingsObject | undefined,
  locked: string[],
): SettingsObject {
  let out = merged;
  for (const key of locked) {
    const path = key.split(".");
    const own = valueAt(defaults, path);
    out = withValueAt(out, path, own.found, own.value);
  }
  return out;
}

/** One warning per layer that sets a locked key (the value there is ignored). */
export function lockWarnings(layers: NamedLayer[], locked: string[], command: string): string[] {
  const warnings: string[] = [];
  for (const layer of layers)
    for (const key of locked)
      if (valueAt(layer.value, key.split(".")).found)
        warnings.push(
          `Setting "${key}" is locked by the ${command} distribution; the value in ${layer.name} was ignored.`,
        );
  return warnings;
}

/** A flag that sets one settings key for one run (`FlagSpec.setting`: `--permission-mode` → `permissions.mode`). */
type SettingFlag = Pick<FlagSpec, "name" | "setting">;

/**
 * The flags given (`given(name)`) that would set a key the distribution locks, each as an error naming the
 * flag, the key and the lock: a flag is not a settings layer, but it must not undo a lock either.
 */
export function lockedFlagProblems(
  flags: readonly SettingFlag[],
  given: (name: string) => boolean,
  locked: readonly string[],
  command: string,
): string[] {
  return flags
    .filter((f) => f.setting !== undefined && given(f.name))
    .filter((f) => locked.some((key) => f.setting === key || f.setting!.startsWith(`${key}.`)))
    .map(
      (f) =>
        `--${f.name} sets "${f.setting}", which the ${command} distribution locks; ` +
        "run without it (the distribution's value applies).",
    );
}
