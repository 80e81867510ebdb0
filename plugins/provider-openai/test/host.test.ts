import { providerThroughHost } from "../../../test/conformance/provider/host.ts";

providerThroughHost({ format: "openai", plugin: "provider-openai", modelId: "gpt-4.1-mini" });
