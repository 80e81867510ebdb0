import { createResponsesProviders } from "../../../plugins/provider-openai-responses/src/providers.ts";
import { recordedStreamSuite } from "../../conformance/provider/recorded.ts";

recordedStreamSuite("openai-responses", (deps) => createResponsesProviders({}, () => {}, { ...deps, env: { OPENAI_API_KEY: "sk-test" } })[0]!, "gpt-5-mini");
