/**
 * Debian's Chromium, headless, driven by playwright-core (which downloads no browser of its own): started with
 * the flags this machine needs (without the background-networking ones its connections are refused here, many
 * at a time) and a fresh profile folder. `.ci/run` installs the `chromium` package.
 */
import { existsSync } from "node:fs";
import { chromium, type BrowserContext } from "playwright-core";
import { tempDir } from "../../../../test/support/plugin-fixtures.ts";

export const CHROMIUM = "/usr/bin/chromium";

export async function launchChromium(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (as .ci/run does)`);
  return chromium.launchPersistentContext(tempDir("keel-chromium-"), {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
