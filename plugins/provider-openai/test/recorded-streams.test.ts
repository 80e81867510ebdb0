import { OPENAI } from "../../../plugins/provider-openai/src/vendor.ts";
import { recordedStreamSuite } from "../../../test/conformance/provider/recorded.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

recordedStreamSuite(
  "openai",
  (deps) => kitProviders(OPENAI, {}, { ...deps, env: { OPENAI_API_KEY: "sk-test" } })[0]!,
  "gpt-4.1-mini",
);
