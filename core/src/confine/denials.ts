/**
 * In the confined host process, before the plugin loads: a call the sandbox refuses fails with an error that
 * names the capability to declare (Node's own says only "Access to this API has been restricted"), and keel
 * hears of it to warn once. This names refusals; it does not enforce them: the permission model and bubblewrap
 * do, whatever the plugin does to these wrappers. `exec:<command>` is the exception: Node allows child
 * processes or not, so the command is checked here, and a program it starts runs in the same sandbox.
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { admitsHost, neededCapability, type Grants } from "./grants.js";

type Report = (capability: string, detail: string) => void;

function annotate(error: unknown, grants: Grants, report: Report): unknown {
  const e = error as NodeJS.ErrnoException & { permission?: string; resource?: string; keelNamed?: boolean };
  if (e?.code !== "ERR_ACCESS_DENIED" || e.keelNamed) return error;
  const capability = neededCapability(e.permission, e.resource);
  e.keelNamed = true;
  if (capability) {
    e.message = `${grants.plugin} may not do this: declare "${capability}" in keel.capabilities (${e.message})`;
    report(capability, e.resource ?? e.permission ?? "");
  } else {
    const what = e.permission || e.message;
    e.message = `${grants.plugin} may not use ${what}: no capability allows it to a confined plugin (${e.message})`;
    report("", what);
  }
  return e;
}

function wrapModule(mod: Record<string, unknown>, wrap: (name: string, fn: Function) => Function): void {
  for (const name of Object.keys(mod)) {
    const fn = mod[name];
    // Classes (ReadStream, Dirent) keep their constructors; every lower-case function is an API call.
    if (typeof fn !== "function" || !/^[a-z]/.test(name)) continue;
    try {
      mod[name] = Object.assign(wrap(name, fn), fn);
    } catch {
      // A read-only export stays as it is; its refusals keep Node's words.
    }
  }
}

/** `fetch` failing for a host the plugin did not declare says which capability would allow it. */
function nameFetchRefusals(grants: Grants, report: Report): void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    try {
      return await original(input, init);
    } catch (error) {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
      if (admitsHost(grants, url.hostname, port)) throw error;
      const capability = `net:${url.hostname}${url.port ? `:${url.port}` : ""}`;
      report(capability, url.host);
      throw new TypeError(
        `${grants.plugin} may not connect to ${url.host}: declare "${capability}" in keel.capabilities`,
        {
          cause: error,
        },
      );
    }
  };
}

export function installDenials(grants: Grants, report: Report): void {
  nameFetchRefusals(grants, report);
  const require = createRequire(import.meta.url);
  const named = (error: unknown) => annotate(error, grants, report);
  const guarded = (_name: string, fn: Function) =>
    function (this: unknown, ...args: unknown[]) {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === "function")
        args[last] = (error: unknown, ...rest: unknown[]) => callback(error ? named(error) : error, ...rest);
      try {
        const result = fn.apply(this, args);
        return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(named(error))) : result;
      } catch (error) {
        throw named(error);
      }
    };
  wrapModule(require("node:fs") as Record<string, unknown>, guarded);
  wrapModule(require("node:fs/promises") as Record<string, unknown>, guarded);
  const execAll = grants.exec.includes("*");
  wrapModule(require("node:child_process") as Record<string, unknown>, (name, fn) => {
    const inner = guarded(name, fn);
    return function (this: unknown, ...args: unknown[]) {
      const file = typeof args[0] === "string" ? args[0] : "";
      const program = /^(exec|execSync)$/.test(name) ? (file.trim().split(/\s+/)[0] ?? "") : file;
      const base = program.split("/").pop() ?? "";
      if (!execAll && grants.exec.length > 0 && !grants.exec.includes(base)) {
        report(`exec:${base}`, program);
        throw Object.assign(
          new Error(`${grants.plugin} may not run ${base}: declare "exec:${base}" in keel.capabilities`),
          { code: "ERR_ACCESS_DENIED" },
        );
      }
      return inner.apply(this, args);
    };
  });
  syncBuiltinESMExports();
  process.on("uncaughtExceptionMonitor", (error) => void named(error));
}
