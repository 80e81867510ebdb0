/**
 * The parts of npm's libraries the installer uses, typed here: the DefinitelyTyped packages describe versions
 * several majors older than the ones pinned (pacote 11, npm-package-arg 6). Values from them are wire data.
 */
declare module "npm-package-arg" {
  interface Result {
    type: "git" | "tag" | "version" | "range" | "file" | "directory" | "remote" | "alias";
    name: string | null;
    rawSpec: string;
    fetchSpec: string | null;
    saveSpec: string | null;
    gitCommittish?: string | null;
    hosted?: unknown;
    raw: string;
  }
  function npa(spec: string, where?: string): Result;
  namespace npa {
    function resolve(name: string, spec: string, where?: string): Result;
  }
  export default npa;
}

declare module "pacote" {
  export interface Options {
    registry?: string;
    cache?: string;
    integrity?: string;
    ignoreScripts?: boolean;
    Arborist?: unknown;
    fullMetadata?: boolean;
    preferOnline?: boolean;
    where?: string;
    [key: string]: unknown;
  }
  export interface Manifest {
    name: string;
    version: string;
    _resolved: string;
    _integrity?: string;
    _from: string;
    [key: string]: unknown;
  }
  export function tarball(
    spec: string,
    opts?: Options,
  ): Promise<Buffer & { integrity: string; resolved: string; from: string }>;
  export function manifest(spec: string, opts?: Options): Promise<Manifest>;
  export function packument(
    spec: string,
    opts?: Options,
  ): Promise<{ versions: Record<string, unknown>; "dist-tags": Record<string, string> }>;
}

declare module "ssri" {
  export function fromData(data: Buffer | string, opts?: { algorithms?: string[] }): { toString(): string };
  export function parse(integrity: string): { toString(): string } | null;
  export function checkData(data: Buffer, integrity: string): false | { algorithm: string };
}

declare module "@npmcli/arborist" {
  export default class Arborist {
    constructor(options: Record<string, unknown>);
    reify(options?: Record<string, unknown>): Promise<unknown>;
  }
}

declare module "cacache" {
  const cacache: {
    ls(cache: string): Promise<Record<string, { key: string; integrity: string }>>;
    rm: {
      entry(cache: string, key: string, options?: { removeFully?: boolean }): Promise<void>;
      content(cache: string, integrity: string): Promise<boolean>;
    };
    verify(cache: string): Promise<unknown>;
  };
  export default cacache;
}
