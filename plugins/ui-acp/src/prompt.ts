/**
 * An ACP prompt as keel's user content: text as it is, images for models that take them, an embedded resource
 * (a file the editor attached, unsaved changes included) as its text marked with its URI, a link as its URI.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { UserContent } from "@keel/extensions-api";

export function userContent(blocks: ContentBlock[]): UserContent[] {
  return blocks.flatMap((block): UserContent[] => {
    switch (block.type) {
      case "text":
        return [{ type: "text", text: block.text }];
      case "image":
        return [{ type: "image", data: block.data, mimeType: block.mimeType }];
      case "resource": {
        const resource = block.resource as { uri: string; text?: string };
        return resource.text === undefined
          ? [{ type: "text", text: `@${resource.uri}` }]
          : [{ type: "text", text: `<file uri="${resource.uri}">\n${resource.text}\n</file>` }];
      }
      case "resource_link":
        return [{ type: "text", text: `@${block.uri}` }];
      default:
        return [];
    }
  });
}

/** The prompt's text alone, to tell whether it is a `/command` line. */
export function promptText(blocks: ContentBlock[]): string {
  return blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
}
