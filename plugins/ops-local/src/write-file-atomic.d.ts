// write-file-atomic ships no types; this declares the one call ops-local makes.
declare module "write-file-atomic" {
  interface Options {
    encoding?: BufferEncoding;
    mode?: number;
    chown?: { uid: number; gid: number } | false;
    fsync?: boolean;
    /** Called with the temp file's path once it is open, before data is written and renamed over the target. */
    tmpfileCreated?: (tmpfile: string) => void | Promise<void>;
  }
  function writeFileAtomic(filename: string, data: string | Uint8Array, options?: Options): Promise<void>;
  export default writeFileAtomic;
}
