import { createResponsesProviders } from "../../../plugins/provider-openai-responses/src/providers.ts";
import { providerConformance } from "./suite.ts";

providerConformance({
  format: "openai-responses",
  keyEnv: "OPENAI_API_KEY",
  env: (url) => ({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${url}/v1` }),
  create: (env, deps) => createResponsesProviders({}, (m) => { throw new Error(m); }, { ...deps, env })[0]!,
  modelId: "gpt-5-mini",
});
