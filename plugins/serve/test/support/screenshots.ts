/**
 * The screenshots of docs/serve.md, taken from the real server and Chromium with the scripted model:
 * `node plugins/serve/test/support/screenshots.ts docs/images` (Node 23.6 or later runs TypeScript as is).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { packTarball, writePackage } from "../../../../libs/installer/test/support/packages.ts";
import { runKeel } from "../../../../test/support/keel-cli.ts";
import { launchChromium } from "./chromium.ts";
import { startServe } from "./serve-process.ts";

const out = resolve(process.argv[2] ?? "docs/images");
const SCRIPT = [
  {
    thinking: "The greeting should name its audience; the test says so.",
    toolCalls: [
      { name: "read", arguments: { path: "greet.js" } },
      {
        name: "edit",
        arguments: {
          path: "greet.js",
          edits: [{ oldText: 'return "hello";', newText: "return `hello, ${name}`;" }],
        },
      },
    ],
  },
  { toolCalls: [{ name: "bash", arguments: { command: "grep -n hello greet.js && wc -l greet.js" } }] },
  { text: "The greeting now names who it greets: `greet('world')` returns **hello, world**." },
  { toolCalls: [{ name: "bash", arguments: { command: "git commit -am 'greet by name'" } }] },
  { text: "Committed." },
];

mkdirSync(out, { recursive: true });
const server = await startServe({
  script: SCRIPT,
  files: { "greet.js": 'module.exports = function greet(name) {\n  return "hello";\n};\n' },
});
const browser = await launchChromium({ width: 1200, height: 760 });
try {
  const page = await browser.newPage();
  await page.goto(server.address);
  await page.locator('main[data-connected="true"]').waitFor();
  const send = async (text: string) => {
    await page.getByLabel("Prompt").fill(text);
    await page.getByRole("button", { name: "Send" }).click();
  };
  await send("greet.js should greet by name");
  await page.getByText("The greeting now names who it greets").waitFor();
  await page.screenshot({ path: join(out, "serve-session.png") });
  await send("commit it");
  await page.getByRole("dialog").waitFor();
  await page.screenshot({ path: join(out, "serve-approval.png") });
  await page.getByRole("dialog").getByRole("button", { name: "Deny" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Dismiss" }).click();

  const fixtures = join(server.env.home, "..", "fixtures");
  const plugins = [
    { name: "notify-desktop", description: "a desktop notification when a run ends", capabilities: ["exec"] },
    { name: "jira-context", description: "adds the Jira issue of the branch to the prompt", capabilities: ["net:*"] },
    { name: "cost-guard", description: "stops a run past a budget", capabilities: [] },
  ];
  const entries = [];
  for (const p of plugins) {
    const dir = writePackage(join(fixtures, p.name), {
      name: p.name,
      capabilities: p.capabilities,
      hooks: ["agent_end"],
    });
    const integrity = await packTarball(dir, join(fixtures, `${p.name}.tgz`));
    entries.push({ ...p, source: `./${p.name}.tgz`, versions: [{ version: "1.0.0", integrity }] });
  }
  const catalog = { name: "team", owner: { name: "Our team" }, plugins: entries };
  writeFileSync(join(fixtures, "marketplace.json"), JSON.stringify(catalog));
  await runKeel(["market", "add", fixtures], server.env);
  await page.getByRole("link", { name: "Marketplace" }).click();
  await page.getByText("notify-desktop").first().waitFor();
  const card = page
    .getByRole("region", { name: "Catalog plugins" })
    .getByRole("listitem")
    .filter({ hasText: "notify" });
  await card.getByRole("button", { name: "Install" }).click();
  await page.getByRole("dialog", { name: "Install this plugin?" }).waitFor();
  await page.screenshot({ path: join(out, "serve-consent.png") });
  await page.getByRole("dialog").getByRole("button", { name: "Install" }).click();
  await page.getByRole("status").waitFor();
  await page.getByRole("region", { name: "Installed plugins" }).getByRole("button", { name: "Details" }).click();
  const details = page.getByRole("region", { name: "Details of notify-desktop" });
  await details.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(out, "serve-market.png") });
} finally {
  await browser.close();
  await server.stop();
}
console.log(`screenshots in ${out}`);
