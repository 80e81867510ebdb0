/**
 * OAuth for Streamable HTTP servers. The MCP authorization flow itself (discovery, registration, PKCE, token
 * exchange, refresh, scope step-up) is the SDK's `auth()`; keel supplies what it leaves to the host:
 * - What is kept, per server, in `$KEEL_HOME/mcp/auth/<server>.json` (the folder 0700, the file 0600): the
 *   tokens, the dynamic registration, the callback port and the discovery state, for that server's URL only (a
 *   changed URL starts over, so a token never goes to another server).
 * - The browser step: the authorization URL is told to the user (a notice in every UI, stderr in print mode)
 *   and opened with `$BROWSER` when it is set; the answer comes to a one-shot listener on 127.0.0.1 (the
 *   redirect URL), and its `state` must be the one sent.
 * - A pre-registered client (`oauth.clientId`, `oauth.clientSecret`) and the client_credentials grant (with a
 *   secret or a private key, `private_key_jwt`) from the server's `oauth` entry: the SDK's own providers.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { lazyModules } from "./lazy-modules.ts";
import { safePart } from "./names.ts";
import type { HttpServerConfig, OAuthConfig } from "./servers.ts";

type ClientInformation = Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>;

/** What is kept of one server's authorization. */
interface Kept {
  url: string;
  port?: number;
  client?: ClientInformation;
  tokens?: OAuthTokens;
  discovery?: OAuthDiscoveryState;
}

/** `$KEEL_HOME/mcp/auth/<server>.json`, readable by the user alone. */
class AuthFile {
  readonly file: string;

  constructor(
    keelHome: string,
    server: string,
    private readonly url: string,
  ) {
    this.file = join(keelHome, "mcp", "auth", `${safePart(server)}.json`);
  }

  read(): Kept {
    try {
      const kept = JSON.parse(readFileSync(this.file, "utf8")) as Kept;
      if (kept.url === this.url) return kept;
    } catch {
      // Nothing kept yet (or not readable): authorize again.
    }
    return { url: this.url };
  }

  change(edit: (kept: Kept) => void): void {
    const kept = this.read();
    edit(kept);
    const dir = join(this.file, "..");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}

/** A listener on 127.0.0.1 for the authorization server's redirect back to keel, for the connection's life. */
interface Callback {
  url: string;
  port: number;
  /** Waits for the browser to come back with `state`; the query it brought. */
  expect(state: string): Promise<URLSearchParams>;
  close(): void;
}

function listen(port: number): Promise<Callback> {
  let waiting: { state: string; resolve(params: URLSearchParams): void; reject(error: Error): void } | undefined;
  const server: Server = createServer((req, res) => {
    const params = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    const wanted = waiting;
    if (!req.url?.startsWith("/callback") || !wanted || params.get("state") !== wanted.state) {
      res.writeHead(400, { "content-type": "text/plain" }).end("Not the authorization keel is waiting for.\n");
      return;
    }
    waiting = undefined;
    const error = params.get("error");
    res
      .writeHead(200, { "content-type": "text/plain" })
      .end(error ? `Authorization failed: ${error}\n` : "keel is authorized. You can close this page.\n");
    if (error)
      wanted.reject(new Error(`the authorization server answered ${error}: ${params.get("error_description")}`));
    else wanted.resolve(params);
  });
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      const bound = (server.address() as { port: number }).port;
      server.unref();
      done({
        url: `http://127.0.0.1:${bound}/callback`,
        port: bound,
        expect: (state) => {
          const answer = new Promise<URLSearchParams>((resolve, reject) => (waiting = { state, resolve, reject }));
          answer.catch(() => {});
          return answer;
        },
        close: () => server.close(),
      });
    });
  });
}

export interface AuthHost {
  /** Tells the user something (the authorization URL). */
  tell(message: string): void;
  /** How long the user has to finish in the browser. */
  timeoutMs: number;
}

/** One server's authorization for a connection: the provider its transport uses, and the wait for a sign-in. */
export interface ServerAuth {
  provider: OAuthClientProvider;
  /** After the transport threw UnauthorizedError: the callback's query once the user has authorized. */
  authorized(): Promise<URLSearchParams>;
  /** Ends the callback listener (the connection closed). */
  close(): void;
}

/** The provider for an HTTP server: client_credentials when its entry says so, else the authorization code flow. */
export async function serverAuth(
  name: string,
  config: HttpServerConfig,
  keelHome: string,
  host: AuthHost,
): Promise<ServerAuth> {
  const oauth: OAuthConfig = config.oauth ?? {};
  if (oauth.grant === "client_credentials") return credentialsAuth(name, oauth);
  const file = new AuthFile(keelHome, name, config.url);
  const kept = file.read();
  // A client registered with a fixed callback port (Claude Code's `oauth.callbackPort`) keeps it.
  let callback = await listen(oauth.callbackPort ?? kept.port ?? 0).catch(() => undefined);
  if (!callback) {
    // The port the registration named is taken: a new port needs a new registration.
    callback = await listen(0);
    if (!oauth.clientId) file.change((k) => delete k.client);
  }
  const redirect = callback;
  if (redirect.port !== kept.port) file.change((k) => (k.port = redirect.port));
  let verifier: string | undefined;
  let answer: Promise<URLSearchParams> | undefined;
  let redirected = false;
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirect.url;
    },
    ...(oauth.clientMetadataUrl ? { clientMetadataUrl: oauth.clientMetadataUrl } : {}),
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: "keel",
        redirect_uris: [redirect.url],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: oauth.clientSecret ? "client_secret_basic" : "none",
        ...(oauth.scope ? { scope: oauth.scope } : {}),
      };
    },
    state: () => {
      const state = randomBytes(16).toString("hex");
      answer = redirect.expect(state);
      return state;
    },
    clientInformation: () =>
      oauth.clientId ? { client_id: oauth.clientId, client_secret: oauth.clientSecret } : file.read().client,
    saveClientInformation: (client) => file.change((k) => (k.client = client)),
    tokens: () => file.read().tokens,
    saveTokens: (tokens) => file.change((k) => (k.tokens = tokens)),
    redirectToAuthorization(url) {
      redirected = true;
      host.tell(
        `MCP server "${name}" needs you to sign in. Open this address in a browser and allow keel:\n${url.href}`,
      );
      openBrowser(url.href);
    },
    saveCodeVerifier: (value) => void (verifier = value),
    codeVerifier: () => {
      if (!verifier) throw new Error("no authorization is in progress");
      return verifier;
    },
    saveDiscoveryState: (discovery) => file.change((k) => (k.discovery = discovery)),
    discoveryState: () => file.read().discovery,
    invalidateCredentials(scope) {
      file.change((k) => {
        if (scope === "all" || scope === "tokens") delete k.tokens;
        if ((scope === "all" || scope === "client") && !oauth.clientId) delete k.client;
        if (scope === "all" || scope === "discovery") delete k.discovery;
      });
      if (scope === "all" || scope === "verifier") verifier = undefined;
    },
  };
  return {
    provider,
    async authorized() {
      if (!redirected || !answer)
        throw new Error(`MCP server "${name}" refused keel's credentials and asked for no sign-in`);
      redirected = false;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`nobody finished signing in to MCP server "${name}" within ${host.timeoutMs} ms`)),
          host.timeoutMs,
        );
        timer.unref();
      });
      try {
        return await Promise.race([answer, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => redirect.close(),
  };
}

async function credentialsAuth(name: string, oauth: OAuthConfig): Promise<ServerAuth> {
  const sdk = await lazyModules.sdk();
  if (!oauth.clientId)
    throw new Error(`MCP server "${name}": oauth.grant client_credentials needs oauth.clientId in its entry`);
  const common = { clientId: oauth.clientId, scope: oauth.scope, expectedIssuer: oauth.issuer };
  let provider: OAuthClientProvider;
  if (oauth.privateKey)
    provider = new sdk.PrivateKeyJwtProvider({
      ...common,
      privateKey: oauth.privateKey,
      algorithm: oauth.signingAlgorithm ?? "RS256",
    } as ConstructorParameters<typeof sdk.PrivateKeyJwtProvider>[0] & { expectedIssuer: string });
  else if (oauth.clientSecret)
    provider = new sdk.ClientCredentialsProvider({
      ...common,
      clientSecret: oauth.clientSecret,
    } as ConstructorParameters<typeof sdk.ClientCredentialsProvider>[0] & { expectedIssuer: string });
  else throw new Error(`MCP server "${name}": oauth.grant client_credentials needs oauth.clientSecret or privateKey`);
  return {
    provider,
    authorized: () => Promise.reject(new Error(`MCP server "${name}" refused keel's client credentials`)),
    close() {},
  };
}

/** `$BROWSER <url>`, when the user has one set; nothing is opened otherwise (the URL was shown). */
function openBrowser(url: string): void {
  const browser = process.env.BROWSER;
  if (!browser) return;
  const child = spawn(browser, [url], { stdio: "ignore", detached: true });
  child.on("error", () => {});
  child.unref();
}
