import { createAnthropicProviders } from "../../../plugins/provider-anthropic/src/providers.js";
import { recordedStreamSuite } from "../../conformance/provider/recorded.js";

recordedStreamSuite("anthropic", (deps) => createAnthropicProviders({}, () => {}, { ...deps, env: { ANTHROPIC_API_KEY: "sk-ant-test" } })[0]!, "claude-sonnet-4-5");
