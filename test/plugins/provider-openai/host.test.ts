import { providerThroughHost } from "../../conformance/provider/host.js";

providerThroughHost({ format: "openai", plugin: "provider-openai", modelId: "gpt-4.1-mini" });
