/**
 * Anthropic's Messages API as the kit describes a provider. `ANTHROPIC_BASE_URL` is read as the official SDK
 * and Claude Code read it: the host without `/v1` (a value ending in `/v1` works too).
 */
import type { CompatibleProviderSpec } from "@keel/provider-kit";
import { anthropicModels } from "./models.ts";

export const ANTHROPIC: CompatibleProviderSpec = {
  id: "anthropic",
  api: "anthropic",
  name: "Anthropic",
  baseUrl: "https://api.anthropic.com",
  baseUrlEnv: "ANTHROPIC_BASE_URL",
  keyEnv: "ANTHROPIC_API_KEY",
  models: anthropicModels(),
};
