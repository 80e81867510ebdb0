/** Where a plugin ships its hooks (Claude Code's plugin layout): `<plugin folder>/hooks/hooks.json`. */
import { join } from "node:path";

export const hooksFile = (pluginDir: string) => join(pluginDir, "hooks", "hooks.json");
