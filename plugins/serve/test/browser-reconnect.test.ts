/**
 * The web page in headless Chromium losing its connection in the middle of a run: it reaches `keel serve`
 * through a TCP relay that the test cuts while the reply streams. The page reconnects by itself and gets exactly
 * the messages it missed: every message it received, over both sockets, carries the next number (none lost,
 * none twice), the text it shows while the reply goes on is always a beginning of the reply, and at the end it is
 * the whole reply.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "./support/chromium.ts";
import { startServe, type ServeProcess } from "./support/serve-process.ts";
import { relay, type Relay } from "./support/tcp-cut.ts";

// Long and slow enough (about 1,000 chunks, 10 ms apart) that the cut and the reconnect fall inside it.
const REPLY = Array.from({ length: 300 }, (_, i) => `word${i}`).join(" ") + ".";

let server: ServeProcess;
let cut: Relay;
let browser: BrowserContext;
let page: Page;
/** The numbered messages the page received, in order, over every socket it opened. */
const received: { socket: number; seq: number }[] = [];
let sockets = 0;

beforeAll(async () => {
  let target: URL | undefined;
  cut = await relay(() => target!);
  server = await startServe({
    script: [{ text: REPLY, chunkSize: 3, delayMs: 10 }],
    args: ["--allow-host", new URL(cut.origin).host],
  });
  target = new URL(server.origin);
  browser = await launchChromium();
  page = await browser.newPage();
  page.on("websocket", (socket) => {
    const number = ++sockets;
    socket.on("framereceived", ({ payload }) => {
      const message = JSON.parse(String(payload)) as { type: string; seq?: number };
      if (message.type !== "welcome" && message.type !== "response" && typeof message.seq === "number")
        received.push({ socket: number, seq: message.seq });
    });
  });
  await page.goto(`${cut.origin}/?token=${server.token}`);
  await page.locator('main[data-connected="true"]').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await cut?.close();
  expect(await server?.stop()).toBe(0);
});

const shown = () => page.locator(".message.assistant .text").last().textContent();

it("reconnects after its connection is cut mid-run and shows exactly the reply, having missed nothing", async () => {
  await page.getByLabel("Prompt").fill("say it slowly");
  await page.getByRole("button", { name: "Send" }).click();
  await page.locator(".message.assistant.streaming").waitFor();
  await expect.poll(async () => (await shown())?.length ?? 0).toBeGreaterThan(20);
  const before = (await shown())!;
  expect(before.length).toBeLessThan(REPLY.length);
  cut.cut();
  await page.locator('main[data-connected="false"]').waitFor();
  await page.locator('main[data-connected="true"]').waitFor();
  // While the reply goes on after the reconnect, what is shown only ever grows along the reply.
  const samples: string[] = [];
  while ((await page.locator(".message.assistant.streaming").count()) > 0) samples.push((await shown()) ?? "");
  for (const sample of samples) expect(REPLY.startsWith(sample), `shown: …${sample.slice(-60)}`).toBe(true);
  await expect.poll(shown).toBe(REPLY);
  expect(sockets).toBe(2);
  expect(received.some((r) => r.socket === 2)).toBe(true);
  const seqs = received.map((r) => r.seq);
  expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
});
