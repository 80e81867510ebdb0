/**
 * Todo list: a `todo` tool with state kept in the session. Each change appends the whole (small) list as an
 * `api.session` entry; on `history_replaced` (resume with -c, a /tree jump, a /fork, a compaction) the plugin
 * rebuilds its list from the last entry of the new active branch. So after jumping back to before an item was
 * added, the item is gone, and after a fork each session goes on with its own list. `/todos` shows the list.
 *
 * It also uses the UI extension points: a widget above the editor with the open items, a status-line entry
 * with the count, a renderer for its session entries, and alt+t for `/todos`. The line chat and JSON show
 * the same lines as plain text. Every change is also published as the agent's `plan`, which an ACP editor shows.
 */
import { definePlugin, defineTool, z } from "@keel/extensions-api";

const Item = z.object({ id: z.number().int(), text: z.string(), done: z.boolean() });
/** What one entry holds. Entries are read back from disk: parse them, never trust their shape. */
const State = z.object({ items: z.array(Item), nextId: z.number().int() });
type State = z.infer<typeof State>;

const EMPTY: State = { items: [], nextId: 1 };

function render(state: State): string {
  if (state.items.length === 0) return "The todo list is empty.";
  return state.items.map((i) => `${i.id}. [${i.done ? "x" : " "}] ${i.text}`).join("\n");
}

export default definePlugin({
  activate(api) {
    let state = EMPTY;

    api.events.on("history_replaced", () => {
      const last = api.session.entries("todos").at(-1);
      const parsed = last ? State.safeParse(last.data) : { success: true as const, data: EMPTY };
      if (!parsed.success) api.log.warn("the saved todo list is unreadable; starting with an empty one");
      state = parsed.success ? parsed.data : EMPTY;
    });

    const save = (next: State) => {
      state = next;
      api.session.append("todos", next);
      // Surfaces that show a plan (an ACP editor) show the list.
      const entries = next.items.map((i) => ({ content: i.text, status: i.done ? "completed" : "pending" }) as const);
      api.publish("plan", { entries });
    };

    api.registerTool(
      defineTool({
        name: "todo",
        description: "Keep a todo list for the task: add an item, mark one done (by id), list them, or clear all.",
        parameters: z.object({
          action: z.enum(["list", "add", "done", "clear"]),
          text: z.string().min(1).optional().describe("the item, for add"),
          id: z.number().int().optional().describe("the item's id, for done"),
        }),
        async execute({ action, text, id }) {
          if (action === "add") {
            if (!text) throw new Error("add needs the item's text");
            save({ items: [...state.items, { id: state.nextId, text, done: false }], nextId: state.nextId + 1 });
          } else if (action === "done") {
            if (!state.items.some((i) => i.id === id))
              throw new Error(`there is no item ${id}; the list is:\n${render(state)}`);
            save({ ...state, items: state.items.map((i) => (i.id === id ? { ...i, done: true } : i)) });
          } else if (action === "clear") save(EMPTY);
          return { content: render(state), details: state };
        },
      }),
    );

    api.registerWidget({
      name: "todo",
      render: (_runtime, { style }) => {
        const open = state.items.filter((i) => !i.done);
        if (open.length === 0) return [];
        return [style.bold("Todo"), ...open.map((i) => `${style.muted("☐")} ${i.id}. ${i.text}`)];
      },
    });
    api.registerStatusEntry({
      name: "todo",
      text: () =>
        state.items.length ? `todo ${state.items.filter((i) => i.done).length}/${state.items.length}` : undefined,
    });
    api.registerMessageRenderer({
      kind: "todos",
      render: (entry, { style }) => {
        const saved = State.safeParse(entry.data);
        if (!saved.success) return [];
        const done = saved.data.items.filter((i) => i.done).length;
        return [style.muted(`☑ todo list: ${done} of ${saved.data.items.length} done`)];
      },
    });
    api.registerKeybinding({ key: "alt+t", description: "Show the todo list", command: "/todos" });

    api.registerCommand({
      name: "/todos",
      description: "Show the todo list.",
      run: (_args, runtime) => runtime.notify(`Todos:\n${render(state)}`, "info"),
    });
  },
});
