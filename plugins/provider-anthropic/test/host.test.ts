import { providerThroughHost } from "../../../test/conformance/provider/host.ts";

providerThroughHost({ format: "anthropic", plugin: "provider-anthropic", modelId: "claude-sonnet-4-5" });
