/** How the Messages API says a request did not fit the context window. */
const PATTERNS = [
  /prompt is too long/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /exceeds? the context window/i,
  /context[_ ]length[_ ]exceeded/i,
];

export function overflowDetail(message: string): string | undefined {
  return PATTERNS.some((p) => p.test(message)) ? message : undefined;
}
