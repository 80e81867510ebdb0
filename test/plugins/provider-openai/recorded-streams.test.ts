import { createOpenAIProviders } from "../../../plugins/provider-openai/src/providers.ts";
import { recordedStreamSuite } from "../../conformance/provider/recorded.ts";

recordedStreamSuite("openai", (deps) => createOpenAIProviders({}, () => {}, { ...deps, env: { OPENAI_API_KEY: "sk-test" } })[0]!, "gpt-4.1-mini");
