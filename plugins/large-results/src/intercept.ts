/**
 * The transform itself: measure a result's text, and when it is over the threshold, store it and put the
 * preview in its place.
 */
import type { ToolResultMessage } from "@keel/extensions-api";
import { previewText } from "./preview.ts";
import type { ResultStore } from "./store.ts";

export interface InterceptSettings {
  thresholdBytes: number;
  previewLines: number;
  previewBytes: number;
}

/** The message unchanged when small; else a copy whose text blocks are replaced by one preview block. */
export async function storeIfLarge(
  message: ToolResultMessage,
  store: ResultStore,
  settings: InterceptSettings,
): Promise<ToolResultMessage> {
  const texts = message.content.filter((block) => block.type === "text");
  const text = texts.map((block) => block.text).join("\n");
  if (Buffer.byteLength(text) <= settings.thresholdBytes) return message;
  const handle = await store.save(text);
  const preview = previewText(text, handle, { lines: settings.previewLines, bytes: settings.previewBytes });
  const images = message.content.filter((block) => block.type !== "text");
  return { ...message, content: [{ type: "text", text: preview }, ...images] };
}
