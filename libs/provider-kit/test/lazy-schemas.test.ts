/**
 * A run speaks one wire format, so the kit builds a format's zod schemas with its first decoder: registering a
 * Chat Completions provider and decoding its reply builds none of the Responses or Anthropic schemas. Schemas
 * are counted as zod builds them: each installs its `_zod` internals with `Object.defineProperty`, once.
 */
import type { ModelInfo } from "@keel/extensions-api";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";
import {
  createAnthropicDecoder,
  createChatDecoder,
  createResponsesDecoder,
  openaiModels,
  registerCompatibleProvider,
  type ProviderHost,
} from "@keel/provider-kit";
import { request } from "@keel/provider-kit/conformance";
import { afterAll, expect, it } from "vitest";

const define = Object.defineProperty;
let built = 0;
Object.defineProperty = function (target: object, key: PropertyKey, attributes: PropertyDescriptor) {
  if (key === "_zod") built++;
  return define(target, key, attributes);
} as typeof Object.defineProperty;
afterAll(() => {
  Object.defineProperty = define;
});

/** How many zod schemas `fn` builds. */
function schemasBuiltBy(fn: () => void): number {
  const before = built;
  fn();
  return built - before;
}

const host: ProviderHost = {
  plugin: { name: "test" } as ProviderHost["plugin"],
  allSettings: {},
  log: { warn: () => {} } as unknown as ProviderHost["log"],
  registerProvider: () => {},
};
const model: ModelInfo = { ...openaiModels("chat")[0]!, provider: "openai" } as ModelInfo;
const req = request(model);
const builder = () => new AssistantMessageBuilder("openai", model.id);

it("builds each format's event schemas with its first decoder, and only once", () => {
  registerCompatibleProvider(host, {
    id: "openai",
    api: "openai",
    baseUrl: "http://127.0.0.1:9/v1",
    models: openaiModels("chat"),
  });
  expect(
    schemasBuiltBy(() => {
      const decoder = createChatDecoder(builder(), req, "test");
      decoder.push({ data: JSON.stringify({ choices: [{ delta: { content: "hi" } }] }) });
    }),
  ).toBeGreaterThan(0);
  // Built now, so nothing a Chat Completions run did built them.
  expect(schemasBuiltBy(() => createResponsesDecoder(builder(), req, "test"))).toBeGreaterThan(0);
  expect(schemasBuiltBy(() => createAnthropicDecoder(builder(), req, "test"))).toBeGreaterThan(0);
  // Kept: the fast check compiled from a schema (fast-check.ts) is looked up by its identity.
  expect(schemasBuiltBy(() => createChatDecoder(builder(), req, "test"))).toBe(0);
  expect(schemasBuiltBy(() => createResponsesDecoder(builder(), req, "test"))).toBe(0);
  expect(schemasBuiltBy(() => createAnthropicDecoder(builder(), req, "test"))).toBe(0);
});
