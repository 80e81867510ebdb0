// A small parser for the doc comments of a TypeScript interface: enough for the contract's own files, whose
// members are one per line group at two spaces of indentation, each optionally after a `/** ... */` comment.

/**
 * The text of a `/** ... *\/` block: the leading `*` of each line removed, lines joined with spaces.
 * @param {string} block
 */
function commentText(block) {
  return block
    .trim()
    .replace(/^\/\*\*|\*\/$/g, "")
    .split("\n")
    .map((/** @type {string} */ line) => line.replace(/^\s*\* ?/, "").trim())
    .filter(Boolean)
    .join(" ");
}

/**
 * How much a piece of code opens minus how much it closes: `(`, `[`, `{` against `)`, `]`, `}`.
 * @param {string} text
 */
function depth(text) {
  let d = 0;
  for (const ch of text) {
    if (ch === "(" || ch === "[" || ch === "{") d += 1;
    else if (ch === ")" || ch === "]" || ch === "}") d -= 1;
  }
  return d;
}

/** @typedef {{ name: string; signature: string; doc: string | undefined }} Member */

/**
 * The interface `name` in `source`: its own doc comment, its heading line, and each member with its signature
 * (joined onto one line) and doc comment (`undefined` when it has none). Throws when the interface is missing.
 * @param {string} source
 * @param {string} name
 * @returns {{ name: string; heading: string; doc: string | undefined; members: Member[] }}
 */
export function interfaceDocs(source, name) {
  const lines = source.split("\n");
  const start = lines.findIndex((/** @type {string} */ line) => new RegExp(`^export interface ${name}\\b`).test(line));
  if (start < 0) throw new Error(`no "export interface ${name}" found`);
  /** @type {string | undefined} */
  let doc;
  if (lines[start - 1]?.trim().endsWith("*/")) {
    let top = start - 1;
    while (!lines[top].trim().startsWith("/**")) top -= 1;
    doc = commentText(lines.slice(top, start).join("\n"));
  }
  /** @type {Member[]} */
  const members = [];
  /** @type {string | undefined} */
  let pending;
  for (let i = start + 1; i < lines.length && lines[i] !== "}"; i += 1) {
    const line = lines[i];
    if (line.startsWith("  /**")) {
      let end = i;
      while (!lines[end].trim().endsWith("*/")) end += 1;
      pending = commentText(lines.slice(i, end + 1).join("\n"));
      i = end;
      continue;
    }
    if (!/^ {2}\S/.test(line)) continue;
    let signature = line.trim();
    while (depth(signature) > 0 && i + 1 < lines.length) signature += ` ${lines[++i].trim()}`;
    const memberName = /^(?:readonly\s+)?([A-Za-z_$][\w$]*)/.exec(signature)?.[1] ?? signature;
    members.push({
      name: memberName,
      signature: signature.replace(/;$/, "").replace(/\s+/g, " ").replace(/; }/g, " }"),
      doc: pending,
    });
    pending = undefined;
  }
  return { name, heading: lines[start].replace(/\s*\{$/, ""), doc, members };
}
