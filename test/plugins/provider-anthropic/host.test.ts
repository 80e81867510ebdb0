import { providerThroughHost } from "../../conformance/provider/host.js";

providerThroughHost({ format: "anthropic", plugin: "provider-anthropic", modelId: "claude-sonnet-4-5" });
