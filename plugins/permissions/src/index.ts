/**
 * permissions: a permission policy on the `tool_call` guard. The mode (`ask`, `auto`, `full`) says what runs
 * without asking when no rule speaks; `allow`, `ask` and `deny` rules (`bash(git push*)`, `edit(src/**)`) say
 * more; what is left is asked through the active UI, and with nobody to ask it is denied with a reason.
 * Settings (`"permissions"` section): mode, allow, ask, deny. Flags: --permission-mode, --yes. `/permissions <mode>`
 * switches the mode for the rest of the session.
 *
 * This file is all that loads with the host: the rule engine is imported on the first tool call, and the bash
 * parser on the first bash call, so a run that calls no tool never pays for either.
 */
import { definePlugin, STAGE_OBSERVE, STAGE_POLICY } from "@keel/extensions-api";
import type { permissionGuard, RunGrant } from "./guard.ts";
import { flagModeProblem, MODES, PermissionsSettingsSchema, type Mode } from "./settings.ts";

export default definePlugin({
  settings: PermissionsSettingsSchema,
  activate(api) {
    api.registerFlag({
      name: "permission-mode",
      description: "what runs without asking: ask, auto (default) or full",
      type: "string",
      valueName: "<mode>",
      setting: "permissions.mode",
      check: flagModeProblem,
    });
    api.registerFlag({
      name: "yes",
      description: "approve what the permission policy would ask about (not what cannot be undone)",
      type: "boolean",
      // It undoes what an `ask` mode is for, so a distribution that locks the mode refuses it too.
      setting: "permissions.mode",
    });
    // A command's `allowed-tools` (`permission_grant`): kept until the run they were granted for ends.
    let grants: readonly RunGrant[] = [];
    api.events.on("permission_grant", ({ rules, origin }) => void (grants = [...grants, { rules, origin }]));
    api.events.on("agent_end", () => void (grants = []));
    let permissions: ReturnType<typeof permissionGuard> | undefined;
    // One promise for every caller: calls made while it loads share one guard (one question at a time).
    let loading: Promise<ReturnType<typeof permissionGuard>> | undefined;
    const load = () =>
      (loading ??= import("./guard.ts").then((m) => (permissions = m.permissionGuard(api, () => grants))));
    // Not loaded yet: the first call builds the policy from the branch as it is then.
    api.events.on("history_replaced", () => permissions?.restore());
    api.registerCommand({
      name: "/permissions",
      description: `Show the permission mode, or switch it for this session: /permissions ${MODES.join("|")}.`,
      async run(args, runtime) {
        const wanted = args.trim();
        if (!wanted) return runtime.notify(`Permission mode: ${(await load()).mode()}.`);
        if (!MODES.includes(wanted as Mode))
          return runtime.notify(`/permissions: the modes are ${MODES.join(", ")} (got "${wanted}").`, "error");
        (await load()).setMode(wanted as Mode);
        api.publish("permission_mode", { mode: wanted });
        runtime.notify(`Permission mode: ${wanted}, for the rest of this session.`);
      },
    });
    // A person may take their time to answer: no deadline on this guard.
    api.hooks.tap("tool_call", { stage: STAGE_POLICY, timeoutMs: Infinity }, async (call) =>
      (await load()).guard(call),
    );
    // Last of all guards (observers included, should one rewrite): a rewritten input is judged again.
    api.hooks.tap(
      "tool_call",
      { name: "permissions-recheck", stage: STAGE_OBSERVE + 1, timeoutMs: Infinity },
      async (call) => (await load()).recheck(call),
    );
  },
});
