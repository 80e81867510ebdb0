/** Waits until `condition` holds, looking every few milliseconds: for tests that wait on a state, never a time. */
export async function until(condition: () => boolean, everyMs = 10): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, everyMs));
}
