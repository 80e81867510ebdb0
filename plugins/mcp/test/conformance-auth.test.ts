/**
 * The MCP conformance suite's OAuth client scenarios (conformance.ts runs one), through the real binary: keel
 * signs in to the suite's Streamable HTTP servers with the SDK's auth flow and its own provider (oauth.ts); the
 * browser step is fixtures/browser.mjs as $BROWSER, following the authorization server's redirect to keel's
 * callback on 127.0.0.1; credentials the suite hands out go into the server's `oauth` entry.
 *
 * Every auth scenario of 0.1.13 runs but two: auth/metadata-var2 and auth/metadata-var3 serve authorization
 * server metadata at a tenant path (`/.well-known/oauth-authorization-server/tenant1`) whose `issuer` is the bare
 * origin. The SDK (2.4.0) refuses such metadata, as RFC 8414 §3.3 requires ("Issuer mismatch in authorization
 * server metadata"); only its security-weakening `skipIssuerValidation` would pass them, and keel keeps the check.
 */
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scenario } from "./conformance.ts";

const SCENARIOS = [
  "metadata-default",
  "metadata-var1",
  "basic-cimd",
  "scope-from-www-authenticate",
  "scope-from-scopes-supported",
  "scope-omitted-when-undefined",
  "scope-step-up",
  "scope-retry-limit",
  "token-endpoint-auth-basic",
  "token-endpoint-auth-post",
  "token-endpoint-auth-none",
  "resource-mismatch",
  "pre-registration",
  "2025-03-26-oauth-metadata-backcompat",
  "2025-03-26-oauth-endpoint-fallback",
  "client-credentials-jwt",
  "client-credentials-basic",
];

describe("the MCP conformance suite's OAuth client scenarios", () => {
  for (const name of SCENARIOS) {
    it(`passes auth/${name}`, { timeout: 60_000 }, async () => {
      const { code, output } = await scenario(`auth/${name}`);
      expect(output).toContain("OVERALL: PASSED");
      expect(output).toMatch(/0 failed/);
      expect(code).toBe(0);
    });
  }

  it("keeps the tokens it got in $KEEL_HOME/mcp/auth, readable by the user alone", { timeout: 60_000 }, async () => {
    const homes = join(mkdtempSync(join(tmpdir(), "keel-conformance-homes-")), "homes");
    const { output } = await scenario("auth/metadata-default", homes);
    expect(output).toContain("OVERALL: PASSED");
    const home = readFileSync(homes, "utf8").trim();
    const file = join(home, "mcp", "auth", "conformance.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, "..")).mode & 0o777).toBe(0o700);
    const kept = JSON.parse(readFileSync(file, "utf8"));
    expect(kept.tokens.access_token).toMatch(/^test-token/);
    expect(kept.url).toMatch(/^http:\/\/localhost:\d+\/mcp$/);
    expect(kept.client.client_id).toBe("test-client-id");
  });
});
