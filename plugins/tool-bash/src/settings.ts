/**
 * The `tool-bash` section of settings.json.
 */
import { z } from "@keel/extensions-api";

export const BashSettingsSchema = z
  .object({
    timeoutSeconds: z
      .number()
      .positive()
      .max(86_400)
      .default(120)
      .describe("Seconds a foreground command may run when the call gives no timeout."),
    killGraceMs: z
      .number()
      .int()
      .nonnegative()
      .max(60_000)
      .default(1000)
      .describe("Milliseconds between TERM and KILL when a command is stopped."),
    maxLogBytes: z
      .number()
      .int()
      .positive()
      .default(64 * 1024 * 1024)
      .describe("The largest full-output log kept per command or background process; the beginning is kept."),
    maxBackground: z.number().int().positive().default(16).describe("Background processes that may run at once."),
  })
  .prefault({});

export type BashSettings = z.output<typeof BashSettingsSchema>;

/** The environment every command gets on top of the backend's: nothing waits for a person or paints colours. */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  TERM: "dumb",
  NO_COLOR: "1",
  CI: "1",
  PAGER: "cat",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
};
