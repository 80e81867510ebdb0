// Keeping every agent on 127.0.0.1. Two layers: the measuring process runs in a network namespace of its own
// (`unshare -rn`, only a loopback device, so nothing can leave the machine whatever an agent tries), and every
// agent gets HTTP(S)_PROXY pointed at a loopback listener that records each attempt (the host it asked for) and
// closes the connection, so the table can say what an agent tried to reach besides the mock.
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";

export const IN_NAMESPACE = "KEEL_PEERS_NETNS";

/** Whether `unshare -rn` with a loopback device works here; the reason when it does not. */
export function namespaceProbe() {
  const probe = spawnSync("unshare", ["-rn", "sh", "-c", "ip link set lo up && echo ok"], { encoding: "utf8" });
  if (probe.error) return `unshare: ${probe.error.message}`;
  return probe.stdout.trim() === "ok" ? true : `unshare -rn failed: ${(probe.stderr || "").trim()}`;
}

/** The command that re-runs `script` inside a fresh network namespace with the loopback device up. */
export function inNamespace(script, args) {
  const quoted = [process.execPath, script, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return { file: "unshare", args: ["-rn", "sh", "-c", `ip link set lo up && exec ${quoted}`] };
}

/** A listener that records what connects to it (CONNECT host or request line) and hangs up at once. */
export async function startPhoneHomeRecorder() {
  /** @type {string[]} */
  const attempts = [];
  const server = createServer((socket) => {
    socket.once("data", (d) => {
      const line = d.toString("latin1").split("\r\n")[0] ?? "";
      attempts.push(line.slice(0, 200) || "(no request line)");
      socket.destroy();
    });
    socket.on("error", () => {});
    socket.setTimeout(2000, () => socket.destroy());
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    /** Attempts so far; `take()` returns and clears them. */
    take: () => attempts.splice(0),
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/**
 * The whole environment of an agent run: nothing inherited but PATH and the locale, so no real key or config leaks
 * in; HOME and the XDG folders inside its own home; proxies at the recorder for anything but 127.0.0.1.
 */
export function agentEnv(home, proxyUrl, own) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANG: process.env.LANG ?? "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_STATE_HOME: `${home}/.local/state`,
    TMPDIR: `${home}/tmp`,
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    ALL_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    https_proxy: proxyUrl,
    all_proxy: proxyUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    ...own,
  };
}
