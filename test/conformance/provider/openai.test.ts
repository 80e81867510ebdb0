import { createOpenAIProviders } from "../../../plugins/provider-openai/src/providers.ts";
import { providerConformance } from "./suite.ts";

providerConformance({
  format: "openai",
  keyEnv: "OPENAI_API_KEY",
  env: (url) => ({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${url}/v1` }),
  create: (env, deps) => createOpenAIProviders({}, (m) => { throw new Error(m); }, { ...deps, env })[0]!,
  modelId: "gpt-4.1-mini",
});
