/** The `session-jsonl` section of settings.json. */
import { z } from "@keel/extensions-api";
export const SessionSettingsSchema = z.object({
	lockStaleMs: z.number().int().min(2e3).default(1e4).describe("A write lock not refreshed for this long (a crashed keel on another machine) is taken over."),
	fsync: z.boolean().default(false).describe("Flush each append to disk (survives power loss; slower).")
}).default({
	lockStaleMs: 1e4,
	fsync: false
});
