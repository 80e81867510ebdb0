/**
 * How OpenAI and compatible servers say a request did not fit the context window. The texts vary by server,
 * so this is a list of the phrasings they use (OpenAI, vLLM, llama.cpp, LM Studio, Groq, OpenRouter).
 */
const PATTERNS = [
  /context_length_exceeded/i,
  /maximum context length/i,
  /exceeds? the (available )?context (size|window|length)/i,
  /context (window|length) (is |was )?exceeded/i,
  /prompt is too long/i,
  /input (is )?too long/i,
  /too many tokens/i,
  /reduce the length of the (messages|input|prompt)/i,
];

/** The server's message when it reports a context overflow, else undefined. */
export function overflowDetail(message: string): string | undefined {
  return PATTERNS.some((p) => p.test(message)) ? message : undefined;
}
