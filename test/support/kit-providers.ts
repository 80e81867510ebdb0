/**
 * The providers a kit-built provider plugin registers for `spec` and the settings entries of its API, with
 * injected deps (a replayed fetch, a fake clock, an environment) — what the plugins' `activate` does.
 */
import type { Provider } from "@keel/extensions-api";
import {
  registerCompatibleProvider,
  serveSettingsProviders,
  type CompatibleProviderSpec,
  type HttpProviderDeps,
  type ProviderHost,
} from "@keel/provider-kit";

export function kitProviders(
  spec: CompatibleProviderSpec,
  allSettings: Record<string, unknown> = {},
  deps: HttpProviderDeps = {},
  warnings: string[] = [],
): Provider[] {
  const out: Provider[] = [];
  const host: ProviderHost = {
    plugin: { name: "kit-providers", version: "0.0.0", dir: process.cwd(), source: "cli" },
    allSettings,
    log: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) },
    registerProvider: (p) => void out.push(p),
  };
  registerCompatibleProvider(host, spec, deps);
  serveSettingsProviders(host, spec.api, deps);
  return out;
}
