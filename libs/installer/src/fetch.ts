/**
 * Fetching a source as a tarball and unpacking it, with npm's own libraries: pacote fetches (registry, git,
 * file, remote) and checks an expected integrity, ssri computes the sha512 keel records, tar unpacks. pacote
 * is loaded here, on the install path only (it costs ~175 ms to import). `ignoreScripts` always: pacote's git
 * fetcher otherwise runs the repository's `prepare` by spawning npm.
 */
import { tooYoung, type Cooldown } from "./cooldown.ts";
import { fetchSpec, type Source } from "./source.ts";

export interface Fetched {
  /** The tarball; absent when git copied the files (git-tree.ts). */
  data?: Buffer;
  /** sha512 of the tarball, `sha512-…`; absent without one. */
  integrity?: string;
  /** The exact tarball URL or git commit URL. */
  resolved: string;
}

export interface FetchOptions {
  /** The npm registry URL (default npm's). */
  registry?: string;
  /** pacote's cache folder. */
  cache: string;
  /** A sha512 the tarball must have (a catalog's, `--sha512`, the lock's). */
  integrity?: string;
  /** Where the command was started, for relative specs. */
  where: string;
  /** For an npm source: no version published after `notBefore` is picked. */
  cooldown?: Cooldown;
}

/** Thrown when the tarball is not the one expected; the message names both hashes. */
export class IntegrityError extends Error {}

export async function fetchTarball(source: Source, options: FetchOptions): Promise<Fetched> {
  const [pacote, ssri, { default: Arborist }] = await Promise.all([
    import("pacote"),
    import("ssri"),
    import("@npmcli/arborist"),
  ]);
  const spec = fetchSpec(source);
  let data: Awaited<ReturnType<typeof pacote.tarball>>;
  try {
    data = await pacote.tarball(spec, {
      registry: options.registry,
      cache: options.cache,
      where: options.where,
      ignoreScripts: true,
      Arborist,
      // An install or update asks for what is there now: a cached packument or URL must be revalidated.
      preferOnline: true,
      ...(options.cooldown && source.kind === "npm" ? { before: options.cooldown.notBefore } : {}),
      ...(options.integrity ? { integrity: options.integrity } : {}),
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { found?: string; expected?: string };
    if (e.code === "EINTEGRITY")
      throw new IntegrityError(
        `the tarball of ${spec} does not have the expected sha512 (expected ${options.integrity}, ` +
          `got ${e.found ?? "another"}); it was not installed`,
      );
    if (e.code === "ETARGET" && options.cooldown && source.kind === "npm")
      throw tooYoung(`npm:${spec}`, options.cooldown, `npm:${source.name}@<version>`);
    throw new Error(`could not fetch ${spec}: ${e.message}`);
  }
  const integrity = ssri.fromData(data, { algorithms: ["sha512"] }).toString();
  if (options.integrity && !ssri.checkData(data, options.integrity))
    throw new IntegrityError(
      `the tarball of ${spec} has sha512 ${integrity}, not the expected ${options.integrity}; it was not installed`,
    );
  return { data, integrity, resolved: data.resolved };
}

/** Unpacks a package tarball (its top folder stripped) into `dir`, which must exist. */
export async function unpack(data: Buffer, dir: string): Promise<void> {
  const tar = await import("tar");
  await new Promise<void>((resolve, reject) => {
    const extract = tar.x({ cwd: dir, strip: 1, strict: true });
    extract.on("error", reject);
    extract.on("close", () => resolve());
    extract.end(data);
  });
}
