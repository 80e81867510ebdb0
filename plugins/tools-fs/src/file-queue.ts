/**
 * One queue per file: changes to the same file (two `edit` calls in one reply, an `edit` racing a `write`)
 * run one after another, each seeing the previous one's result.
 */
export class FileQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every earlier task for `key` (an absolute resolved path) has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
