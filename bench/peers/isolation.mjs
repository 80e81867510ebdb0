// Keeping every agent on 127.0.0.1. The measuring process runs in a network namespace of its own (`unshare -rn`:
// only a loopback device, so nothing can leave the machine whatever an agent tries), with every address routed to
// loopback so direct attempts land on the catch-all listeners (catch-all.mjs); and every agent gets HTTP(S)_PROXY
// pointed at a loopback listener that records each attempt (the host it asked for) and closes the connection. The
// table says what an agent tried to reach besides the mock.
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { startCatchAll } from "./catch-all.mjs";

export const IN_NAMESPACE = "KEEL_PEERS_NETNS";
const SETUP = "ip link set lo up && ip route add local default dev lo";

/** Whether `unshare -rn` with a loopback device and the catch-all route works here; the reason when it does not. */
export function namespaceProbe() {
  const probe = spawnSync("unshare", ["-rn", "sh", "-c", `${SETUP} && echo ok`], { encoding: "utf8" });
  if (probe.error) return `unshare: ${probe.error.message}`;
  return probe.stdout.trim() === "ok" ? true : `unshare -rn failed: ${(probe.stderr || "").trim()}`;
}

/** The command that re-runs `script` inside a fresh network namespace, loopback up and every address routed to it. */
export function inNamespace(script, args) {
  const quoted = [process.execPath, script, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return { file: "unshare", args: ["-rn", "sh", "-c", `${SETUP} && exec ${quoted}`] };
}

/**
 * A listener that records what connects to it (CONNECT host or request line) and hangs up at once, plus, in a
 * namespace of our own only (on the host they would listen on its real interfaces), the catch-all listeners;
 * `take()` returns and clears the attempts of both.
 */
export async function startPhoneHomeRecorder(ownNamespace) {
  /** @type {string[]} */
  const attempts = [];
  const none = { bound: [], close: async () => [] };
  const catchAll = ownNamespace ? await startCatchAll((text) => attempts.push(text)) : none;
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
    /** What also records direct attempts (udp/53, tcp/80, tcp/443), empty outside a namespace of our own. */
    catchAll: catchAll.bound,
    take: () => attempts.splice(0),
    close: async () => {
      await catchAll.close();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
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
