// picomatch ships no types; this declares the one call tools-fs makes.
declare module "picomatch" {
  interface PicomatchOptions {
    dot?: boolean;
    nocase?: boolean;
  }
  function picomatch(glob: string | string[], options?: PicomatchOptions): (path: string) => boolean;
  export default picomatch;
}
