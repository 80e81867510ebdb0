/** The slash commands: /tree, /fork, /label, /name, /export. Each reports through `runtime.notify`. */
import type { Runtime, SlashCommand } from "@keel/extensions-api";
import type { SessionController } from "./controller.ts";
import { pickEntry } from "./tree-picker.ts";

function words(args: string): string[] {
  return args.trim().split(/\s+/).filter(Boolean);
}

/** Runs `fn`, turning a thrown error into an error notice that names the command. */
async function guarded(
  name: string,
  runtime: Runtime,
  fn: () => Promise<string | undefined> | string | undefined,
): Promise<void> {
  try {
    const message = await fn();
    if (message) runtime.notify(message, "info");
  } catch (error) {
    runtime.notify(`${name}: ${(error as Error).message}`, "error");
  }
}

function idle(name: string, runtime: Runtime): void {
  if (runtime.isRunning)
    throw new Error(`the agent is working; wait until it stops (or abort it), then run ${name} again`);
}

export function sessionCommands(controller: SessionController): SlashCommand[] {
  return [
    {
      name: "/tree",
      description:
        "Pick an entry to continue from (or show the session tree); /tree <id|label> [--summarize] jumps there " +
        "(optionally summarising the branch you leave); --all shows every entry.",
      run: (args, runtime) =>
        guarded("/tree", runtime, async () => {
          const parts = words(args);
          const flags = new Set(parts.filter((p) => p.startsWith("--")));
          const ref = parts.find((p) => !p.startsWith("--"));
          const picked = ref || flags.has("--all") ? undefined : await pickEntry(controller, runtime);
          if (!ref && !picked)
            return (
              `${controller.tree(flags.has("--all"))}\n\n` +
              "Jump with /tree <id|label> (add --summarize to keep a summary of the branch you leave)."
            );
          idle("/tree", runtime);
          return controller.jump(runtime, (ref ?? picked)!, flags.has("--summarize"));
        }),
    },
    {
      name: "/fork",
      description: "Continue in a new session file from an entry (default: here): /fork [id|label].",
      run: (args, runtime) =>
        guarded("/fork", runtime, () => {
          idle("/fork", runtime);
          return controller.fork(runtime, words(args)[0]);
        }),
    },
    {
      name: "/label",
      description:
        "Bookmark the current entry: /label <text>; another entry: /label <id> <text>; remove: /label <id> --clear.",
      run: (args, runtime) =>
        guarded("/label", runtime, () => {
          const parts = words(args);
          if (parts.length === 0) throw new Error("give a label text: /label <text>, or /label <id> <text>");
          if (parts[1] === "--clear") return controller.label(parts[0], "");
          const first = parts[0]!;
          const isEntry = parts.length > 1 && controller.load().byId.has(first);
          return isEntry
            ? controller.label(first, parts.slice(1).join(" "))
            : controller.label(undefined, parts.join(" "));
        }),
    },
    {
      name: "/name",
      description: "Name this session (shown by keel sessions): /name <text>.",
      run: (args, runtime) =>
        guarded("/name", runtime, () => {
          const text = args.trim();
          if (!text) throw new Error("give a name: /name <text>");
          return controller.name(text);
        }),
    },
    {
      name: "/export",
      description: "Write the current branch as Markdown or a self-contained HTML page: /export [md|html] [path].",
      run: (args, runtime) =>
        guarded("/export", runtime, () => {
          const parts = words(args);
          let format: "md" | "html" | undefined;
          if (parts[0] === "md" || parts[0] === "html") format = parts.shift() as "md" | "html";
          const path = parts.join(" ") || undefined;
          format ??= path && /\.html?$/i.test(path) ? "html" : "md";
          return `Exported the current branch to ${controller.export(format, path)}.`;
        }),
    },
  ];
}
