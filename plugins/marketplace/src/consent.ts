/**
 * What the user sees before a plugin is installed or an update that asks for more: what the manifest says it
 * contributes and the capabilities it declares (what its own code may do; enforced when it runs confined).
 */
import { CONTRIBUTION_KINDS, CONTRIBUTIONS, describeCapability, type CliContext } from "@keel/extensions-api";
import type { InstallPlan } from "@keel/installer";

export function describePlan(plan: InstallPlan): string {
  const contributes = [
    ...CONTRIBUTION_KINDS.flatMap((kind) => plan.contributes[kind].map((n) => `${CONTRIBUTIONS[kind].show}${n}`)),
    ...plan.contributes.hooks.map((h) => `hook:${h}`),
  ];
  const lines = [
    `${plan.name}@${plan.version} from ${plan.source}${plan.catalog ? ` (catalog "${plan.catalog}")` : ""}`,
    ...(plan.description ? [`  ${plan.description}`] : []),
    ...(plan.format
      ? [
          `  format:       ${plan.format.name}; keel runs its ${plan.format.runs.join(", ")}`,
          ...plan.format.unhonoured.map((part) => `  not run:      ${part}`),
        ]
      : [`  contributes:  ${contributes.join(" ") || "nothing declared"}`]),
    `  capabilities: ${plan.capabilities.join(", ") || "none declared"}${plan.format ? " (its contents imply)" : ""}`,
    ...plan.capabilities.map((c) => `    ${c}: ${describeCapability(c)}`),
  ];
  if (plan.previous) {
    const added = [
      ...plan.added.capabilities.map((c) => `capability ${c}`),
      ...plan.added.hooks.map((h) => `hook ${h}`),
    ];
    lines.push(`  replaces ${plan.previous.version}${added.length ? `; asks for more: ${added.join(", ")}` : ""}`);
  }
  return lines.join("\n");
}

/** The confirm callback of an install: shows the plan, then asks (or agrees at once with `--yes`). */
export function confirmPlan(context: CliContext, yes: boolean): (plan: InstallPlan) => Promise<boolean> {
  return async (plan) => {
    context.stderr(`${describePlan(plan)}\n`);
    context.stderr(
      "  With plugins.confine, it gets only these capabilities; without, it runs inside keel with your rights.\n",
    );
    if (yes) return true;
    return context.confirm(plan.previous ? `Update ${plan.name}?` : `Install ${plan.name}?`);
  };
}
