import { resolve } from "node:path";
import { providerConformance } from "@keel/provider-kit/conformance";

providerConformance({
  plugin: resolve(import.meta.dirname, "../../../plugins/provider-openai"),
  provider: "openai",
  model: "gpt-4.1-mini",
  format: "openai",
  keyEnv: "OPENAI_API_KEY",
});
