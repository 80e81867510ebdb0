// A generated part inside a hand-written document, between two marker comments, so the prose around it stays
// the author's and the part itself cannot drift from its source.

/** @param {string} name */
const markers = (name) => [`<!-- generated:${name} by npm run docs; do not edit -->`, `<!-- /generated:${name} -->`];

/**
 * `text` with the region `name` replaced by `content`; `fallback` (the text plus a new region) when the
 * markers are missing. Throws on a start marker without its end.
 * @param {string} text @param {string} name @param {string} content @param {(region: string) => string} fallback
 */
export function fillRegion(text, name, content, fallback) {
  const [start, end] = markers(name);
  const region = `${start}\n${content}\n${end}`;
  const from = text.indexOf(start);
  if (from < 0) return fallback(region);
  const to = text.indexOf(end, from);
  if (to < 0) throw new Error(`"${start}" has no "${end}" after it`);
  return text.slice(0, from) + region + text.slice(to + end.length);
}
