/**
 * The modules the start path leaves out, each imported at most once however many callers want it at the same
 * time: jiti hands a second import of a module that is still loading its unfinished exports (three servers
 * starting together got "ProcessGroupStdioTransport is not a constructor" and only one of them ran).
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

export const lazyModules = {
  sdk: once(() => import("@modelcontextprotocol/client")),
  /** Checking a server's settings entry. */
  servers: once(() => import("./servers.ts")),
  /** Parsing what a server lists. */
  listing: once(() => import("./listing.ts")),
  /** Mapping call results and resource contents. */
  results: once(() => import("./results.ts")),
  stdio: once(() => import("./stdio-transport.ts")),
  /** What servers ask of the user and the model (elicitation, sampling). */
  requests: once(() => import("./client-requests.ts")),
  /** Signing in to HTTP servers. */
  oauth: once(() => import("./oauth.ts")),
};
