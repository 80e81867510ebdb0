/**
 * `keel serve` over TLS, with its token from the environment (one server for the file), and its refusal to
 * listen beyond the machine without `--expose`. The certificate is made by openssl (`.ci/run` installs it).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { get } from "node:https";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { keelEnv, runKeel } from "../../../test/support/keel-cli.ts";
import { startServe, type ServeProcess } from "./support/serve-process.ts";

const TOKEN = "a-token-from-the-environment-0123";
const dir = tempDir("keel-tls-");
const [cert, key] = [join(dir, "cert.pem"), join(dir, "key.pem")];
let server: ServeProcess;

beforeAll(async () => {
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"],
      ...["-keyout", key, "-out", cert, "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  server = await startServe({ args: ["--tls-cert", cert, "--tls-key", key], env: { KEEL_SERVE_TOKEN: TOKEN } });
});

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** GET `path` over HTTPS trusting only the test's certificate; resolves the status and the cookie set. */
function fetchTls(path: string, headers: Record<string, string> = {}): Promise<{ status: number; cookie?: string }> {
  return new Promise((resolve, reject) => {
    const request = get(`${server.origin}${path}`, { ca: readFileSync(cert), headers }, (response) => {
      response.resume();
      resolve({ status: response.statusCode!, cookie: response.headers["set-cookie"]?.[0] });
    });
    request.on("error", reject);
  });
}

describe("keel serve over TLS", () => {
  it("prints an https address carrying the token it was given", () => {
    expect(server.address).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/\?token=a-token-from-the-environment-0123$/);
  });

  it("serves the API with the token, refuses it without, and marks its cookie Secure", async () => {
    expect((await fetchTls("/api/sessions")).status).toBe(401);
    expect((await fetchTls("/api/sessions", { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    const first = await fetchTls(`/?token=${TOKEN}`);
    expect(first.status).toBe(303);
    expect(first.cookie).toMatch(/; Secure$/);
  });

  it("refuses an http Origin: the page is https", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await fetchTls("/api/sessions", { ...auth, origin: server.origin })).status).toBe(200);
    expect((await fetchTls("/api/sessions", { ...auth, origin: server.origin.replace("https", "http") })).status).toBe(
      403,
    );
  });
});

describe("keel serve's address", () => {
  it("refuses one other machines reach unless --expose says so, and a short token", async () => {
    const env = keelEnv();
    const open = await runKeel(["serve", "--host", "0.0.0.0"], env);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain("--host 0.0.0.0 lets other machines reach keel");
    const short = await runKeel(["serve"], env, { extraEnv: { KEEL_SERVE_TOKEN: "short" } });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("KEEL_SERVE_TOKEN is too short");
  });
});
