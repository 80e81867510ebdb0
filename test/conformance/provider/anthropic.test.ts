import { resolve } from "node:path";
import { providerConformance } from "@keel/provider-kit/conformance";

providerConformance({
  plugin: resolve(import.meta.dirname, "../../../plugins/provider-anthropic"),
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  format: "anthropic",
  keyEnv: "ANTHROPIC_API_KEY",
});
