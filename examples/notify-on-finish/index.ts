/**
 * Notify on finish: when a run ends, POST `{ "text": ... }` to a webhook (the shape Slack and many chat
 * tools accept). A failed post is logged, never fatal.
 *
 * settings.json: { "notify": { "webhook": "https://hooks.example.com/..." } }
 */
import { definePlugin, textOf, z } from "@keel/extensions-api";

export default definePlugin({
  settings: z
    .object({ webhook: z.url().optional(), minSeconds: z.number().nonnegative().default(0) })
    .default({ minSeconds: 0 }),
  activate(api) {
    let startedAt = Date.now();
    api.events.on("agent_start", () => void (startedAt = Date.now()));
    api.hooks.tap("agent_end", async ({ messages, reason }, ctx) => {
      const { webhook, minSeconds } = api.settings;
      const seconds = (Date.now() - startedAt) / 1000;
      if (!webhook || seconds < minSeconds) return;
      const last = [...messages].reverse().find((m) => m.role === "assistant");
      const summary = last ? textOf(last).slice(0, 300) : "";
      const text = `keel finished (${reason}) in ${seconds.toFixed(1)} s${summary ? `: ${summary}` : ""}`;
      const response = await fetch(webhook, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text }),
        signal: ctx.signal,
      });
      if (!response.ok) api.log.warn(`the webhook answered ${response.status}; no notification was delivered`);
    });
  },
});
