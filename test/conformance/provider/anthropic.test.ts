import { createAnthropicProviders } from "../../../plugins/provider-anthropic/src/providers.ts";
import { providerConformance } from "./suite.ts";

providerConformance({
  format: "anthropic",
  keyEnv: "ANTHROPIC_API_KEY",
  env: (url) => ({ ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: `${url}/v1` }),
  create: (env, deps) => createAnthropicProviders({}, (m) => { throw new Error(m); }, { ...deps, env })[0]!,
  modelId: "claude-sonnet-4-5",
});
