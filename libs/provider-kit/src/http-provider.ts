/**
 * A `Provider` over HTTP + SSE, assembled from a provider config (settings, environment, built-in table) and
 * one wire format. The three provider plugins differ only in their `WireFormat`.
 */
import {
  type ModelInfo,
  type Provider,
  type ProviderRequest,
  type StreamEvent,
  type StreamOptions,
} from "@keel/extensions-api";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { streamHttp, type DriverDeps, type StreamDecoder } from "./driver.ts";
import type { ProviderError } from "./errors.ts";
import { probeEndpoint } from "./probe.ts";
import { resolveKey, type ResolvedKey } from "./keys.ts";
import type { ProviderConfig } from "./settings.ts";

/** What one wire format contributes. */
export interface WireFormat {
  /** The endpoint for a base URL, e.g. `${baseUrl}/chat/completions`. */
  url(baseUrl: string): string;
  /** Headers that carry the key (none when `key` is undefined) and any fixed headers of the format. */
  headers(key: string | undefined): Record<string, string>;
  buildPayload(request: ProviderRequest): unknown;
  /** `label` names the provider instance in error messages. */
  createDecoder(builder: AssistantMessageBuilder, request: ProviderRequest, label: string): StreamDecoder;
  /** Recognises a context-window overflow in an HTTP error. */
  overflow(status: number, detail: string, label: string): ProviderError | undefined;
}

export interface HttpProviderDeps extends DriverDeps {
  env?: NodeJS.ProcessEnv;
}

const TEST_DEPS = Symbol.for("@keel/provider-kit/test-deps");

/**
 * Installs deps (a fake clock, an environment) for every provider the kit builds without its own — how the
 * conformance suite reaches a provider a plugin registered. Kept on `globalThis` because the suite and a
 * plugin loaded by the host hold different copies of this module. Tests only; `undefined` removes them.
 */
export function installTestDeps(deps: HttpProviderDeps | undefined): void {
  (globalThis as Record<symbol, unknown>)[TEST_DEPS] = deps;
}

/** `deps` over the installed test deps. */
export function effectiveDeps(deps: HttpProviderDeps): HttpProviderDeps {
  return { ...((globalThis as Record<symbol, unknown>)[TEST_DEPS] as HttpProviderDeps | undefined), ...deps };
}

/** Builds the provider for one config. */
export function createHttpProvider(config: ProviderConfig, format: WireFormat, deps: HttpProviderDeps = {}): Provider {
  const label = config.name;
  const setting = `providers.${config.id}.apiKey`;
  const key = (): Promise<ResolvedKey> =>
    resolveKey(config.apiKey, setting, config.keyEnv, effectiveDeps(deps).env ?? process.env);
  const missing = (model: ModelInfo, resolved: ResolvedKey) =>
    `No API key for provider ${config.id} (model ${model.id}): ${resolved.problem}.`;

  return {
    id: config.id,
    name: label,
    models: () => config.models,
    async checkReady(model) {
      const resolved = await key();
      return resolved.problem ? missing(model, resolved) : undefined;
    },
    probe: () => probeEndpoint({ id: config.id, label, baseUrl: config.baseUrl, baseUrlEnv: config.baseUrlEnv }),
    async *stream(request: ProviderRequest, options: StreamOptions): AsyncGenerator<StreamEvent> {
      const builder = new AssistantMessageBuilder(config.id, request.model.id);
      let payload: unknown;
      let resolved: ResolvedKey;
      try {
        resolved = await key();
        payload = format.buildPayload(request);
      } catch (error) {
        yield builder.start();
        return yield builder.fail(
          "error",
          `Could not prepare the request for ${label}: ${(error as Error)?.message ?? String(error)}`,
        );
      }
      if (resolved.problem) {
        yield builder.start();
        return yield builder.fail("error", missing(request.model, resolved));
      }
      yield* streamHttp(
        {
          label,
          url: format.url(config.baseUrl),
          headers: {
            "content-type": "application/json",
            accept: "text/event-stream",
            ...format.headers(resolved.key),
            ...config.headers,
          },
          payload,
          model: request.model,
          keySource: resolved.source,
          retry: config.retry,
          createDecoder: (b) => format.createDecoder(b, request, label),
          overflow: (status, detail) => format.overflow(status, detail, label),
        },
        options,
        builder,
        effectiveDeps(deps),
      );
    },
  };
}
