/**
 * The `team-policy` section: the commands the team never lets an agent run.
 */
import { z } from "@keel/extensions-api";

export const settings = z
  .object({
    refuse: z
      .array(z.string())
      .default(["\\bgit\\s+push\\b", "\\bgit\\s+reset\\s+--hard\\b", "\\bgit\\s+rebase\\b", "\\brm\\s+-[a-z]*r"])
      .describe("Regular expressions; a bash command matching one is refused, whatever the permission mode says."),
  })
  .default({
    refuse: ["\\bgit\\s+push\\b", "\\bgit\\s+reset\\s+--hard\\b", "\\bgit\\s+rebase\\b", "\\brm\\s+-[a-z]*r"],
  });
