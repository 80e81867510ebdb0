import { createOpenAIProviders } from "../src/providers.ts";
import { recordedStreamSuite } from "../../../test/conformance/provider/recorded.ts";

recordedStreamSuite("openai", (deps) => createOpenAIProviders({}, () => {}, { ...deps, env: { OPENAI_API_KEY: "sk-test" } })[0]!, "gpt-4.1-mini");
