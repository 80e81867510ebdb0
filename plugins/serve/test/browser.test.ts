/**
 * The web UI in headless Chromium against the real `keel serve` (one server and one browser for the file): a
 * prompt to the scripted model shows its answer and its tool call (the edit's diff, the thinking folded); a
 * plugin's question is answered from a dialog; a run is steered and aborted; the thinking picker sets the level;
 * a plugin is installed from a local catalog, after the consent dialog shows what it contributes and may do,
 * and removed again.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packTarball, writePackage } from "../../../libs/installer/test/support/packages.ts";
import { runKeel } from "../../../test/support/keel-cli.ts";
import { launchChromium } from "./support/chromium.ts";
import { startServe, type ServeProcess } from "./support/serve-process.ts";

// Each session plays it from the start: an edit that needs no approval, then a command that does.
const SCRIPT = [
  {
    thinking: "The greeting lacks its audience.",
    toolCalls: [
      { name: "edit", arguments: { path: "greet.txt", edits: [{ oldText: "hello", newText: "hello, world" }] } },
    ],
  },
  { text: "Fixed the greeting." },
  { toolCalls: [{ name: "bash", arguments: { command: "touch approved.txt" } }] },
  { text: "Made approved.txt." },
  { text: "Working on it, slowly…", hang: true },
];

let server: ServeProcess;
let browser: BrowserContext;
let page: Page;
/** What the page reported as errors (a script error, a policy violation, a failed load): none is expected. */
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startServe({ script: SCRIPT, files: { "greet.txt": "hello\n" } });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on("console", (message) => message.type() === "error" && pageErrors.push(message.text()));
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(server.address);
  await page.waitForURL((url) => url.hash.startsWith("#/s/"));
  await connected();
});

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

/** Waits until the view of the session the address names is connected. */
async function connected(): Promise<void> {
  const id = new URL(page.url()).hash.slice("#/s/".length);
  await page.locator(`main[data-session="${id}"][data-connected="true"]`).waitFor();
}

async function newSession(): Promise<void> {
  const before = page.url();
  await page.getByRole("button", { name: "New session" }).click();
  await page.waitForURL((url) => url.toString() !== before && url.hash.startsWith("#/s/"));
  await connected();
}

async function prompt(text: string): Promise<void> {
  await page.getByLabel("Prompt").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

describe("the web UI", () => {
  it("drops the token from the address once the page has it", () => {
    expect(new URL(page.url()).search).toBe("");
  });

  it("shows the answer to a prompt and its tool call, with the edit's diff and the thinking folded", async () => {
    await newSession();
    await prompt("greet the world");
    const conversation = page.getByRole("list", { name: "Conversation" });
    await conversation.getByText("Fixed the greeting.").waitFor();
    const tool = conversation.getByRole("region", { name: "Tool edit" });
    await expect.poll(() => tool.getByText("edit greet.txt").count()).toBe(1);
    await expect.poll(() => tool.getByLabel("Diff").locator(".add").first().textContent()).toBe("+hello, world");
    const thinking = conversation.locator("details.thinking");
    expect(await thinking.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(readFileSync(join(server.env.cwd, "greet.txt"), "utf8")).toBe("hello, world\n");
  });

  it("answers a plugin's question from a dialog", async () => {
    await newSession();
    await prompt("first the greeting");
    await page.getByRole("list", { name: "Conversation" }).getByText("Fixed the greeting.").waitFor();
    await prompt("now make the file");
    const dialog = page.getByRole("dialog");
    await dialog.getByText(/touch approved\.txt/).waitFor();
    await dialog.getByRole("button", { name: "Allow once" }).click();
    await page.getByRole("list", { name: "Conversation" }).getByText("Made approved.txt.").waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(existsSync(join(server.env.cwd, "approved.txt"))).toBe(true);
  });

  it("steers a run and aborts it from the prompt box (the session of the test before, at its last turn)", async () => {
    await prompt("one more thing");
    await page.getByText("Working on it, slowly…").waitFor();
    await page.getByLabel("Prompt").fill("and mind the README");
    await page.getByRole("button", { name: "Steer" }).click();
    expect(await page.getByRole("alert").count()).toBe(0);
    await page.getByRole("button", { name: "Abort" }).click();
    await page.getByText("Aborted by the user.").waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
  });

  it("sets the thinking level from its picker", async () => {
    await page.getByLabel("Thinking").selectOption("high");
    await expect.poll(() => page.getByLabel("Thinking").inputValue()).toBe("high");
    await page.reload();
    await connected();
    await expect.poll(() => page.getByLabel("Thinking").inputValue()).toBe("high");
    expect(await page.getByLabel("Model").inputValue()).toBe("scripted/script");
  });

  it("installs a plugin from a local catalog after showing what it may do, and removes it", async () => {
    const fixtures = join(server.env.home, "..", "fixtures");
    mkdirSync(fixtures, { recursive: true });
    const source = writePackage(join(fixtures, "greeter"), { name: "kp-greeter", capabilities: ["net:example.com"] });
    const integrity = await packTarball(source, join(fixtures, "greeter-1.0.0.tgz"));
    const plugin = { name: "kp-greeter", description: "greets in the terminal", capabilities: ["net:example.com"] };
    const versions = [{ version: "1.0.0", source: "./greeter-1.0.0.tgz", integrity }];
    const catalog = {
      name: "local",
      owner: { name: "Tests" },
      plugins: [{ ...plugin, source: "./greeter-1.0.0.tgz", versions }],
    };
    writeFileSync(join(fixtures, "marketplace.json"), JSON.stringify(catalog));
    expect((await runKeel(["market", "add", fixtures], server.env)).code).toBe(0);

    await page.getByRole("link", { name: "Marketplace" }).click();
    await page.getByLabel("Search the catalogs").fill("greets");
    await page.getByRole("button", { name: "Search" }).click();
    const card = page
      .getByRole("region", { name: "Catalog plugins" })
      .getByRole("listitem")
      .filter({ hasText: "kp-greeter" });
    await card.getByText("may: net:example.com").waitFor();
    await card.getByRole("button", { name: "Install" }).click();
    const consent = page.getByRole("dialog", { name: "Install this plugin?" });
    await consent.getByText(/contributes:\s+cli:kp-greeter-version/).waitFor();
    await consent.getByText(/capabilities: net:example\.com/).waitFor();
    await consent.getByRole("button", { name: "Install" }).click();
    await page
      .getByRole("status")
      .getByText(/installed kp-greeter@1\.0\.0/)
      .waitFor();
    const installed = page.getByRole("region", { name: "Installed plugins" });
    await installed.getByText("kp-greeter").waitFor();
    expect(JSON.parse(readFileSync(join(server.env.home, "keel.lock"), "utf8")).plugins["kp-greeter"]).toBeDefined();

    await installed.getByRole("button", { name: "Remove" }).click();
    await page.getByRole("status").getByText("removed kp-greeter").waitFor();
    await expect.poll(() => installed.getByText("kp-greeter").count()).toBe(0);
  });
});
