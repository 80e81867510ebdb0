import { ANTHROPIC } from "../../../plugins/provider-anthropic/src/vendor.ts";
import { recordedStreamSuite } from "../../../test/conformance/provider/recorded.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

recordedStreamSuite(
  "anthropic",
  (deps) => kitProviders(ANTHROPIC, {}, { ...deps, env: { ANTHROPIC_API_KEY: "sk-test" } })[0]!,
  "claude-sonnet-4-5",
);
