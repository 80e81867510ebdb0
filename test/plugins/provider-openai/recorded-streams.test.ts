import { createOpenAIProviders } from "../../../plugins/provider-openai/src/providers.js";
import { recordedStreamSuite } from "../../conformance/provider/recorded.js";

recordedStreamSuite("openai", (deps) => createOpenAIProviders({}, () => {}, { ...deps, env: { OPENAI_API_KEY: "sk-test" } })[0]!, "gpt-4.1-mini");
