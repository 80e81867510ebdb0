import { OPENAI_RESPONSES } from "../../../plugins/provider-openai-responses/src/vendor.ts";
import { recordedStreamSuite } from "../../../test/conformance/provider/recorded.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

recordedStreamSuite(
  "openai-responses",
  (deps) => kitProviders(OPENAI_RESPONSES, {}, { ...deps, env: { OPENAI_API_KEY: "sk-test" } })[0]!,
  "gpt-5-mini",
);
