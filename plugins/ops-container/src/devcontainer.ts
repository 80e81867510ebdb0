/**
 * The project's devcontainer.json (https://containers.dev): the keys this backend honours — `image`,
 * `workspaceFolder`, `containerEnv`, `remoteUser` — with the spec's variables filled in. It is the project's
 * configuration, written by whoever wrote the repository, so the caller reads it only once the folder is
 * trusted (core lists these files among those that need trust). Other ways of making the container (`build`,
 * `dockerComposeFile`) are not run: they are named back so the user knows to set `image`.
 */
import { readFileSync } from "node:fs";
import { basename, join, posix } from "node:path";
import { z } from "@keel/extensions-api";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";

/** Where a project keeps it, the first found winning, as the spec's tools look. */
export const DEVCONTAINER_FILES = [".devcontainer/devcontainer.json", ".devcontainer.json"] as const;

const DevcontainerSchema = z.looseObject({
  image: z.string().min(1).optional(),
  workspaceFolder: z.string().min(1).optional(),
  containerEnv: z.record(z.string(), z.string()).optional(),
  remoteUser: z.string().min(1).optional(),
});

export interface Devcontainer {
  /** The file it came from, relative to the workspace. */
  file: string;
  image?: string;
  /** Absolute, variables filled in: `/workspaces/<folder name>` when the file does not say. */
  workspaceFolder: string;
  containerEnv: Record<string, string>;
  remoteUser?: string;
  /** What was not honoured, each a sentence. */
  ignored: string[];
}

/** Keys of the spec that make or change the container in ways this backend does not follow. */
const UNFOLLOWED = [
  "build",
  "dockerFile",
  "dockerComposeFile",
  "runArgs",
  "mounts",
  "workspaceMount",
  "postCreateCommand",
];

/**
 * The workspace's devcontainer.json, or undefined when it has none. Throws, naming the file, when it cannot be
 * read or parsed or a key has the wrong type.
 */
export function readDevcontainer(workspace: string, env: NodeJS.ProcessEnv = process.env): Devcontainer | undefined {
  for (const file of DEVCONTAINER_FILES) {
    let text: string;
    try {
      text = readFileSync(join(workspace, file), "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
    }
    return parseDevcontainer(file, text, workspace, env);
  }
  return undefined;
}

export function parseDevcontainer(file: string, text: string, workspace: string, env: NodeJS.ProcessEnv): Devcontainer {
  const errors: ParseError[] = [];
  const raw: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new Error(
      `${file} is not valid JSON with comments: ${printParseErrorCode(first.error)} at offset ${first.offset}.`,
    );
  }
  const checked = DevcontainerSchema.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join(".") || "the top level"}: ${issue.message}.`);
  }
  const ignored: string[] = [];
  const folder = basename(workspace);
  const fill = (value: string, containerFolder: string) =>
    value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
      if (name === "localWorkspaceFolder") return workspace;
      if (name === "localWorkspaceFolderBasename") return folder;
      if (name === "containerWorkspaceFolder") return containerFolder;
      if (name === "containerWorkspaceFolderBasename") return posix.basename(containerFolder);
      const local = /^localEnv:([^:]+)(?::(.*))?$/.exec(name);
      if (local) return env[local[1]!] ?? local[2] ?? "";
      ignored.push(`the variable ${whole} is not known here and was left as it is`);
      return whole;
    });
  const { image, workspaceFolder, containerEnv, remoteUser } = checked.data;
  const folderIn = fill(workspaceFolder ?? `/workspaces/${folder}`, "");
  if (!folderIn.startsWith("/"))
    throw new Error(
      `${file}: workspaceFolder must be an absolute path in the container, not ${JSON.stringify(folderIn)}.`,
    );
  const filled: Record<string, string> = {};
  for (const [key, value] of Object.entries(containerEnv ?? {})) filled[key] = fill(value, folderIn);
  for (const key of UNFOLLOWED)
    if (key in checked.data)
      ignored.push(`"${key}" is not followed (set "ops-container.image" for an image built apart)`);
  return {
    file,
    ...(image !== undefined && { image: fill(image, folderIn) }),
    workspaceFolder: posix.normalize(folderIn),
    containerEnv: filled,
    ...(remoteUser !== undefined && { remoteUser: fill(remoteUser, folderIn) }),
    ignored,
  };
}
