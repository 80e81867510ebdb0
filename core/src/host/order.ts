/**
 * Activation order from `dependsOn`. A plugin whose dependency is missing, incompatible, failed, or part of a
 * cycle cannot be activated; every other plugin keeps its place.
 */
import satisfies from "semver/functions/satisfies.js";

export interface OrderInput {
  name: string;
  version: string;
  dependsOn: Record<string, string>;
}

export interface OrderResult {
  order: string[];
  /** Plugin name → why it cannot be activated. */
  failed: Map<string, string>;
}

export function orderPlugins(plugins: OrderInput[], alreadyFailed: ReadonlySet<string> = new Set()): OrderResult {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const failed = new Map<string, string>();
  for (const p of plugins) {
    for (const [dep, range] of Object.entries(p.dependsOn)) {
      const target = byName.get(dep);
      if (!target) failed.set(p.name, `it depends on ${dep} (${range}), which is not installed`);
      else if (alreadyFailed.has(dep)) failed.set(p.name, `it depends on ${dep}, which failed to load`);
      else if (!satisfies(target.version, range, { includePrerelease: true }))
        failed.set(p.name, `it needs ${dep} ${range}, but ${target.version} is installed`);
    }
  }

  // Depth-first visit in original order: dependencies first, cycles detected by the visiting set.
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string, path: string[]): boolean => {
    if (failed.has(name) || alreadyFailed.has(name)) return false;
    const s = state.get(name);
    if (s === "done") return true;
    if (s === "visiting") {
      const cycle = [...path.slice(path.indexOf(name)), name];
      for (const member of cycle) if (!failed.has(member)) failed.set(member, `dependency cycle: ${cycle.join(" → ")}`);
      return false;
    }
    state.set(name, "visiting");
    let ok = true;
    for (const dep of Object.keys(byName.get(name)!.dependsOn)) {
      if (!visit(dep, [...path, name])) {
        ok = false;
        if (!failed.has(name))
          failed.set(name, `its dependency ${dep} cannot be activated (${failed.get(dep) ?? "failed to load"})`);
      }
    }
    state.set(name, "done");
    if (ok && !failed.has(name)) order.push(name);
    return ok && !failed.has(name);
  };
  for (const p of plugins) visit(p.name, []);
  return { order: order.filter((n) => !failed.has(n)), failed };
}
