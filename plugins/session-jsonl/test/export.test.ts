import { afterAll, describe, expect, it } from "vitest";
import { branchTo } from "../src/context.ts";
import { toHtml } from "../src/export-html.ts";
import { toMarkdown } from "../src/export-markdown.ts";
import { loadSession } from "../src/load.ts";
import { SessionRecorder } from "../src/recorder.ts";
import { assistant, options, tempDir, toolResult, user } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

function sample() {
  const r = SessionRecorder.start(temp.dir, "exp", options());
  r.recordMessage(user("Show me <script>alert(1)</script> & the ``` fence"));
  r.recordMessage(assistant("Reading it.", [{ id: "c1", name: "read", args: { path: "a.md" } }]));
  r.recordMessage(toolResult("c1", "read", "```js\nconsole.log('</pre><img src=x onerror=alert(1)>')\n```"));
  r.recordMessage({
    role: "user",
    content: [
      { type: "text", text: "and this image" },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
    ],
    timestamp: 1,
  });
  r.recordMessage(assistant("Done."));
  r.close();
  const session = loadSession(r.path);
  return { session, branch: branchTo(session.byId, session.leafId) };
}

describe("/export", () => {
  it("writes Markdown whose code fences cannot be closed by the content", () => {
    const { session, branch } = sample();
    const md = toMarkdown(session.header, branch);
    expect(md).toContain("## User\n\nShow me <script>");
    expect(md).toContain('**Tool call:** `read`\n\n```json\n{\n  "path": "a.md"\n}\n```');
    expect(md).toContain("### Tool result: read\n\n````\n```js");
    expect(md).toContain("*[image: image/png]*");
  });

  it("writes a self-contained HTML page: everything escaped, no scripts, images inline, nothing fetched", () => {
    const { session, branch } = sample();
    const html = toHtml(session.header, branch, "Demo <b>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; the");
    expect(html).toContain("&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toMatch(/<script|src="http|href="http/i);
    expect(html.match(/<img[^>]*>/g)).toEqual(['<img alt="image" src="data:image/png;base64,iVBORw0KGgo=">']);
    expect(html).toContain("<title>Demo &lt;b&gt;</title>");
    expect(html).toContain("Content-Security-Policy");
  });
});
