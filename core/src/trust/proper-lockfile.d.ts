// proper-lockfile 4.1.2 ships no types; these are the parts the trust store uses.
declare module "proper-lockfile" {
  export function lock(
    file: string,
    options?: {
      stale?: number;
      realpath?: boolean;
      retries?: { retries: number; minTimeout?: number; maxTimeout?: number };
    },
  ): Promise<() => Promise<void>>;
}
