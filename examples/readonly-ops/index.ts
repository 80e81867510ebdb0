/**
 * A read-only operations backend that wraps another one: reads, listings and stats go to the inner backend,
 * every write, removal and command is refused with a `PathAccessError` the model can read. Select it with
 * `"ops": "readonly"`; `readonly-ops.inner` names the backend it wraps (default `local`). It reaches that
 * backend with `api.opsBackend(name)`, which activates the inner plugin if it is still waiting (lazy).
 *
 * settings.json: { "ops": "readonly", "readonly-ops": { "inner": "local" } }
 */
import { definePlugin, PathAccessError, z, type Operations } from "@keel/extensions-api";

const REASON = "this session is read-only (the readonly backend); ask the user to switch backends to change anything";

export default definePlugin({
  settings: z.object({ inner: z.string().default("local") }).default({ inner: "local" }),
  activate(api) {
    api.registerOps({
      name: "readonly",
      description: `read-only view of the "${api.settings.inner}" backend`,
      async create({ cwd }): Promise<Operations> {
        const backend = await api.opsBackend(api.settings.inner);
        if (!backend || backend.name === "readonly") {
          throw new Error(
            `readonly-ops: no operations backend named "${api.settings.inner}" (setting ` +
              `readonly-ops.inner) is installed`,
          );
        }
        const inner = await backend.create({ cwd });
        const refuse = (path: string) => Promise.reject(new PathAccessError(path, REASON));
        return {
          cwd: inner.cwd,
          local: inner.local,
          resolve: (path, access) => (access === "write" ? refuse(path) : inner.resolve(path, access)),
          readFile: (path) => inner.readFile(path),
          stat: (path) => inner.stat(path),
          list: (path) => inner.list(path),
          writeFile: (path) => refuse(path),
          mkdir: (path) => refuse(path),
          remove: (path) => refuse(path),
          // A shell can change anything, so commands are refused too.
          spawn: (command) => {
            throw new PathAccessError(command, REASON);
          },
        };
      },
    });
  },
});
