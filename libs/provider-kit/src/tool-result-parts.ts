/**
 * What the two OpenAI formats share when mapping history: their tool results carry text only, so a result's
 * images are sent in a user message after the results, and a model without image input is told one was left out.
 */
import type { ImageContent, ModelInfo, TextContent, ToolResultMessage } from "@keel/extensions-api";

/** Heads the user message that carries the images of the tool results before it. */
export const TOOL_IMAGES_HEADER = "Images returned by the tool calls above:";

/** A tool result's text (never empty: the model must see an answer) and the images that go after it. */
export function toolResultParts(m: ToolResultMessage): { text: string; images: ImageContent[] } {
  const text = m.content
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join("\n");
  const images = m.content.filter((b): b is ImageContent => b.type === "image");
  return { text: text || (images.length > 0 ? "(see the images below)" : "(no output)"), images };
}

/** Stands in for an image sent to a model that does not accept images. */
export function imageLeftOut(model: ModelInfo): string {
  return `(an image was left out: model ${model.id} does not accept images)`;
}
