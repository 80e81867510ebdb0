import { createResponsesProviders } from "../src/providers.ts";
import { recordedStreamSuite } from "../../../test/conformance/provider/recorded.ts";

recordedStreamSuite("openai-responses", (deps) => createResponsesProviders({}, () => {}, { ...deps, env: { OPENAI_API_KEY: "sk-test" } })[0]!, "gpt-5-mini");
