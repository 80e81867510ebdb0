/**
 * The bundle carries only zod's `en` locale and requires the others on first use (core/rolldown.config.mjs), yet
 * a plugin, which gets the host's zod object, still finds every locale zod has and gets zod's own messages from
 * each: through the real binary, a plugin switches to each locale in turn and writes what it got.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import * as zod from "zod";
import { keelEnv, KEEL_BIN, runKeel, SCRIPTED } from "../support/keel-cli.ts";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

/** Messages of three kinds of issue under every locale, in the zod it is given (keel's or the test's). */
function messagesIn(z: typeof zod): Record<string, string[]> {
  const messages: Record<string, string[]> = {};
  for (const [name, locale] of Object.entries(z.locales)) {
    z.config(locale());
    messages[name] = [z.string().safeParse(5), z.string().min(3).safeParse("a"), z.email().safeParse("x")].map(
      (result) => result.error!.issues[0]!.message,
    );
  }
  z.config(z.locales.en());
  return messages;
}

const PLUGIN = `
import { writeFileSync } from "node:fs";
import * as z from "zod";
const ${messagesIn.name} = ${messagesIn.toString()};
export default { activate() { writeFileSync(process.env.LOCALES_OUT, JSON.stringify(${messagesIn.name}(z))); } };
`;

it("gives plugins every zod locale with zod's messages while the bundle holds only English", async () => {
  const expected = messagesIn(zod);
  expect(expected.de![0]).toContain("Ungültige Eingabe"); // the comparison below is between languages
  const bundle = readFileSync(join(KEEL_BIN, "..", "..", "core", "dist", "keel-cli.cjs"), "utf8");
  expect(bundle).not.toContain("Ungültige Eingabe");

  const plugin = writePlugin(tempDir("keel-zod-locales-"), { name: "locales-probe", source: PLUGIN });
  const env = keelEnv({ script: [{ text: "done" }] });
  const out = join(env.home, "messages.json");
  const run = await runKeel(["-p", "go", "--plugin", plugin, ...SCRIPTED], env, { extraEnv: { LOCALES_OUT: out } });
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(expected);
});
