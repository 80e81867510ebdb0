import { createAnthropicProviders } from "../../../plugins/provider-anthropic/src/providers.ts";
import { recordedStreamSuite } from "../../conformance/provider/recorded.ts";

recordedStreamSuite("anthropic", (deps) => createAnthropicProviders({}, () => {}, { ...deps, env: { ANTHROPIC_API_KEY: "sk-ant-test" } })[0]!, "claude-sonnet-4-5");
