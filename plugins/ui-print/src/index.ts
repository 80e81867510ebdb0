/**
 * ui-print: line-based modes. `text` (keel -p) prints the final answer; `json` prints every event as one JSON
 * line, for scripts and other programs; both exit non-zero when the run did not end normally. `interactive`
 * (plain `keel`) is a line-by-line chat for terminals and pipes alike; it answers what plugins ask
 * (`ui_request`) and whether to trust the project folder (`project_trust`) from the lines on its input.
 */
import { definePlugin } from "@keel/extensions-api";
import { chatMode } from "./chat-mode.ts";
import { LineInput } from "./line-input.ts";
import { jsonMode, textMode } from "./modes.ts";
import { chatQuestions, trustQuestion } from "./questions.ts";
import { PrintSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: PrintSettingsSchema,
  // The user needs the UI to see anything, including what is wrong with its settings.
  onInvalidSettings: "defaults",
  activate(api) {
    const progress = api.settings.progress === "always" || (api.settings.progress === "auto" && process.stderr.isTTY);
    api.registerMode(textMode(progress));
    api.registerMode(jsonMode);
    const input = new LineInput();
    const chat = { active: false };
    api.hooks.tap("project_trust", { timeoutMs: Infinity }, trustQuestion(input));
    api.hooks.tap("ui_request", { timeoutMs: Infinity }, chatQuestions(input, chat));
    api.registerMode(chatMode(input, chat));
  },
});
