// proper-lockfile 4.1.2 ships no types; these are the parts this plugin uses.
declare module "proper-lockfile" {
  export interface LockOptions {
    stale?: number;
    update?: number;
    realpath?: boolean;
    lockfilePath?: string;
    onCompromised?: (error: Error) => void;
  }
  export function lockSync(file: string, options?: LockOptions): () => void;
  export function unlockSync(file: string, options?: LockOptions): void;
  export function checkSync(file: string, options?: LockOptions): boolean;
}
