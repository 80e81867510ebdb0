/**
 * The `acp-editor` operations backend: the session's own backend (the one it replaces, so a sandbox still
 * confines paths and runs the processes), with text files read and written through the editor when it offers
 * `fs/read_text_file` and `fs/write_text_file`, so the agent sees unsaved buffers and the editor sees its
 * changes. Paths are resolved and checked by the inner backend first; binary files (a NUL byte) stay on disk.
 */
import type { Operations, OperationsBackend, PluginAPI } from "@keel/extensions-api";

/** What the editor offers, while an ACP session is open. */
export interface EditorFiles {
  read?(path: string): Promise<string>;
  write?(path: string, text: string): Promise<void>;
}

const SNIFF = 8_000;
const isBinary = (bytes: Uint8Array) => bytes.subarray(0, SNIFF).includes(0);

export function editorBackend(api: PluginAPI, files: () => EditorFiles | undefined): OperationsBackend {
  return {
    name: "acp-editor",
    description: "the session's backend, with text files read and written through the ACP editor",
    async create(options) {
      const innerName = options.replaces ?? "local";
      const backend = await api.opsBackend(innerName);
      if (!backend) throw new Error(`acp-editor wraps the operations backend "${innerName}", which is not installed`);
      const inner: Operations = await backend.create({ cwd: options.cwd });
      return {
        get cwd() {
          return inner.cwd;
        },
        get local() {
          return inner.local;
        },
        resolve: (path, access) => inner.resolve(path, access),
        stat: (path) => inner.stat(path),
        list: (path) => inner.list(path),
        mkdir: (path) => inner.mkdir(path),
        remove: (path) => inner.remove(path),
        spawn: (command, spawnOptions) => inner.spawn(command, spawnOptions),
        async readFile(path) {
          const editor = files();
          if (!editor?.read) return inner.readFile(path);
          const absolute = await inner.resolve(path, "read");
          let onDisk: Uint8Array | undefined;
          try {
            onDisk = await inner.readFile(absolute);
          } catch (error) {
            // A file only the editor has (a new buffer not yet saved) is still the editor's to give.
            if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          }
          if (onDisk && isBinary(onDisk)) return onDisk;
          return new TextEncoder().encode(await editor.read(absolute));
        },
        async writeFile(path, data) {
          const editor = files();
          const bytes = typeof data === "string" ? undefined : data;
          if (!editor?.write || (bytes && isBinary(bytes))) return inner.writeFile(path, data);
          const absolute = await inner.resolve(path, "write");
          await editor.write(absolute, typeof data === "string" ? data : new TextDecoder().decode(data));
        },
      };
    },
  };
}
