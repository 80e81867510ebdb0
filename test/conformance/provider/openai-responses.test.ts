import { resolve } from "node:path";
import { providerConformance } from "@keel/provider-kit/conformance";

providerConformance({
  plugin: resolve(import.meta.dirname, "../../../plugins/provider-openai-responses"),
  provider: "openai-responses",
  model: "gpt-5-mini",
  format: "openai-responses",
  keyEnv: "OPENAI_API_KEY",
});
