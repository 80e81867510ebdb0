import { providerThroughHost } from "../../../test/conformance/provider/host.ts";

providerThroughHost({ format: "openai-responses", plugin: "provider-openai-responses", modelId: "gpt-5-mini" });
