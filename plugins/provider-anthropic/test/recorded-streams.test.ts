import { createAnthropicProviders } from "../src/providers.ts";
import { recordedStreamSuite } from "../../../test/conformance/provider/recorded.ts";

recordedStreamSuite("anthropic", (deps) => createAnthropicProviders({}, () => {}, { ...deps, env: { ANTHROPIC_API_KEY: "sk-ant-test" } })[0]!, "claude-sonnet-4-5");
