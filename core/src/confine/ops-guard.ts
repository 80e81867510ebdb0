/**
 * `ctx.ops` is keel's backend, outside the sandbox: a confined plugin's tool may use its files (confined to the
 * workspace by the backend) but may start a process through it only when it declares `exec`, as it could in its
 * own sandbox. Applied on keel's side of the wire, so the plugin cannot skip it.
 */
import type { Operations, OperationsBackend, PluginAPI, Tool, ToolContext } from "@keel/extensions-api";
import type { Grants } from "./grants.js";

function guardedOps(ops: Operations, grants: Grants): Operations {
  if (grants.exec.length > 0) return ops;
  return new Proxy(ops, {
    get(target, key, receiver) {
      if (key === "spawn")
        return () => {
          throw Object.assign(
            new Error(`${grants.plugin} may not start processes: declare "exec" in keel.capabilities`),
            { code: "ERR_ACCESS_DENIED" },
          );
        };
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** `api` with the operations it hands out guarded. */
export function withGuardedOps(api: PluginAPI<unknown>, grants: Grants): PluginAPI<unknown> {
  const guardTool = (tool: Tool<any, any>): Tool<any, any> => ({
    ...tool,
    execute: (input, ctx: ToolContext) => {
      const guarded = copyOf(ctx);
      Object.defineProperty(guarded, "ops", { get: () => guardedOps(ctx.ops, grants), enumerable: true });
      return tool.execute(input, guarded);
    },
  });
  const guardBackend = (backend: OperationsBackend | undefined): OperationsBackend | undefined =>
    backend && {
      ...backend,
      create: async (options) => guardedOps(await backend.create(options), grants),
    };
  return Object.assign(copyOf(api), {
    registerTool: (tool: Tool<any, any>) => api.registerTool(guardTool(tool)),
    opsBackend: async (name: string) => guardBackend(await api.opsBackend(name)),
  });
}

/** A copy with the same getters: spreading would read them now (`api.runtime` throws before a session). */
function copyOf<T extends object>(value: T): T {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(value)) as T;
}
