/**
 * Reasoning written inline in the answer as `<think>…</think>` (DeepSeek-R1 and its distillations on
 * compatible servers), split out of streamed text. A tag may arrive cut across deltas, so the end of each
 * delta that could be the start of a tag is held back until the next one (or the end) decides it.
 */

export interface TextPart {
  kind: "text" | "thinking";
  text: string;
}

const OPEN = "<think>";
const CLOSE = "</think>";

/** Length of the longest end of `text` that is a proper start of `tag`. */
function partialTag(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (text.endsWith(tag.slice(0, n))) return n;
  return 0;
}

/** A splitter for one reply: `push` each text delta, `end` once the stream is complete. */
export function thinkTagSplitter(): { push(delta: string): TextPart[]; end(): TextPart[] } {
  let thinking = false;
  let held = "";
  /** Whitespace right after `</think>` separates the parts; it is not part of the answer. */
  let afterClose = false;

  const emit = (out: TextPart[], kind: TextPart["kind"], text: string) => {
    if (kind === "text" && afterClose) {
      text = text.replace(/^\s+/, "");
      if (text) afterClose = false;
    }
    if (text) out.push({ kind, text });
  };

  return {
    push(delta) {
      const out: TextPart[] = [];
      let rest = held + delta;
      held = "";
      for (;;) {
        const tag = thinking ? CLOSE : OPEN;
        const at = rest.indexOf(tag);
        if (at < 0) break;
        emit(out, thinking ? "thinking" : "text", rest.slice(0, at));
        rest = rest.slice(at + tag.length);
        thinking = !thinking;
        afterClose = !thinking;
      }
      const keep = partialTag(rest, thinking ? CLOSE : OPEN);
      held = rest.slice(rest.length - keep);
      emit(out, thinking ? "thinking" : "text", rest.slice(0, rest.length - keep));
      return out;
    },
    end() {
      const out: TextPart[] = [];
      emit(out, thinking ? "thinking" : "text", held);
      held = "";
      return out;
    },
  };
}
