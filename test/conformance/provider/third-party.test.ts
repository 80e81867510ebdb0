/**
 * Third-party provider plugins written outside the repository, on the public kit only, pass the shipped
 * conformance suite unchanged: the compatible-provider example (code: one `registerCompatibleProvider`
 * call with a quirk) and the declared-provider example (a manifest and no code), each copied to a temp
 * folder with no node_modules.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { providerConformance } from "@keel/provider-kit/conformance";

function outsideTheRepo(example: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "keel-third-party-")), example);
  cpSync(resolve(import.meta.dirname, "../../../examples", example), dir, { recursive: true });
  return dir;
}

providerConformance({
  plugin: outsideTheRepo("compatible-provider"),
  provider: "acme",
  model: "acme-r1",
  format: "openai",
  keyEnv: "ACME_API_KEY",
});
providerConformance({
  plugin: outsideTheRepo("declared-provider"),
  provider: "bluefin",
  model: "bluefin-large",
  format: "anthropic",
  keyEnv: "BLUEFIN_API_KEY",
  // The vendor's base URL is its host; keel adds /v1 as the official SDK does.
  settings: (baseUrl) => ({ providers: { bluefin: { baseUrl } } }),
});
