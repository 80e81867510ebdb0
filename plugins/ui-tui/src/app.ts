/**
 * The terminal UI of one session: lays out header, conversation, working indicator, queue, widgets, editor (or
 * a dialog in its place) and footer on pi-tui, which redraws only the lines that changed. Input: Enter sends
 * (steers while the agent works), Alt+Enter queues a follow-up, Esc aborts and gives the queued messages back
 * to the editor in the order they were typed.
 */
import {
  Container,
  Editor,
  matchesKey,
  ProcessTerminal,
  TuiMainScreen,
  type Component,
  type KeyId,
} from "@earendil-works/pi-tui";
import type { Runtime, UiRequest, UiResponse } from "@keel/extensions-api";
import { footerLines, headerLines, queueLines, widgetLines, workingLine, type Queued } from "./chrome.ts";
import { completionCommands, keysText } from "./commands.ts";
import { KeelCompletion } from "./completion.ts";
import { Conversation } from "./conversation.ts";
import { Dialogs } from "./dialogs.ts";
import { captureStderr } from "./stderr.ts";
import { editorTheme } from "./style.ts";
import { Lines, type ViewState } from "./views.ts";

export class TuiApp {
  private readonly tui = new TuiMainScreen(new ProcessTerminal());
  private readonly state: ViewState = { expandThinking: false, expandTools: false };
  private readonly editor = new Editor(this.tui, editorTheme);
  private readonly slot = new Container();
  private readonly conversation: Conversation;
  private readonly dialogs: Dialogs;
  private readonly queue: Queued[] = [];
  private startedAt: number | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private exit: (() => void) | undefined;

  constructor(private readonly runtime: Runtime) {
    this.conversation = new Conversation(runtime, this.state, (text) => this.entered(text));
    this.dialogs = new Dialogs({
      show: (dialog, focus) => this.place(dialog, focus),
      close: () => this.place(this.editor, this.editor),
    });
    this.tui.addChild(new Lines((w) => headerLines(runtime, w)));
    this.tui.addChild(this.conversation.container);
    this.tui.addChild(
      new Lines((w) => [
        ...workingLine(this.startedAt, Date.now()),
        ...queueLines(this.queue, w),
        ...widgetLines(runtime, w),
      ]),
    );
    this.tui.addChild(this.slot);
    this.tui.addChild(new Lines((w) => footerLines(runtime, w)));
    this.editor.onSubmit = (text) => this.submit(text);
    this.editor.setAutocompleteProvider(new KeelCompletion(completionCommands(runtime), runtime.cwd));
    this.place(this.editor, this.editor);
  }

  ask(request: UiRequest): Promise<UiResponse | undefined> {
    return this.dialogs.ask(request);
  }

  /** Runs until the user exits; `prompt` (given on the command line) is sent first. */
  async run(prompt: string | undefined): Promise<number> {
    const restoreStderr = captureStderr((text) => {
      this.conversation.notice("warning", text);
      this.tui.requestRender();
    });
    const offEvents = this.conversation.listen(() => this.tui.requestRender());
    const offKeys = this.tui.addInputListener((data) => {
      if (!this.key(data)) return undefined;
      this.tui.requestRender();
      return { consume: true };
    });
    const exited = new Promise<void>((resolve) => (this.exit = resolve));
    this.tui.start();
    try {
      if (this.runtime.messages.length > 0) this.conversation.redraw(this.runtime.messages, this.runtime.pluginEntries);
      // A missing key or an unreachable server, told with its fix as soon as known; the screen does not wait.
      void this.runtime.modelProblem({ probe: true }).then((problem) => {
        if (!problem) return;
        this.conversation.notice("error", problem);
        this.tui.requestRender();
      });
      this.tui.requestRender();
      if (prompt) this.submit(prompt);
      await exited;
      if (this.runtime.isRunning) {
        this.runtime.abort();
        await this.runtime.waitForIdle();
      }
    } finally {
      this.dialogs.cancel();
      this.stopTicker();
      offKeys();
      offEvents();
      this.tui.stop();
      restoreStderr();
    }
    return 0;
  }

  private place(component: Component, focus: Component): void {
    this.slot.clear();
    this.slot.addChild(component);
    this.tui.setFocus(focus);
    this.tui.requestRender();
  }

  /** Keys the UI handles before the focused component; true when handled. */
  private key(data: string): boolean {
    if (matchesKey(data, "ctrl+o")) return this.toggle("expandTools");
    if (matchesKey(data, "ctrl+t")) return this.toggle("expandThinking");
    if (this.dialogs.isOpen) return false;
    const running = this.runtime.isRunning;
    if (matchesKey(data, "ctrl+c")) {
      if (running) this.abort();
      else if (this.editor.getText() !== "") this.editor.setText("");
      else this.exit?.();
      return true;
    }
    if (matchesKey(data, "ctrl+d") && this.editor.getText() === "") {
      this.exit?.();
      return true;
    }
    if (matchesKey(data, "escape") && running && !this.editor.isShowingAutocomplete()) {
      this.abort();
      return true;
    }
    if (matchesKey(data, "alt+enter") && running) {
      const text = this.editor.getExpandedText().trim();
      if (text) {
        this.editor.addToHistory(text);
        this.editor.setText("");
        this.enqueue("follow-up", text);
      }
      return true;
    }
    for (const binding of this.runtime.ui().keybindings) {
      if (matchesKey(data, binding.key as KeyId)) {
        void this.command(binding.command);
        return true;
      }
    }
    return false;
  }

  private toggle(what: keyof ViewState): boolean {
    this.state[what] = !this.state[what];
    this.tui.requestRender(true);
    return true;
  }

  private submit(raw: string): void {
    const text = raw.trim();
    if (!text) return;
    this.editor.addToHistory(text);
    if (text.startsWith("/")) {
      void this.command(text);
      return;
    }
    if (this.runtime.isRunning) this.enqueue("steer", text);
    else void this.prompt(text);
  }

  private enqueue(kind: Queued["kind"], text: string): void {
    this.queue.push({ kind, text });
    if (kind === "steer") this.runtime.steer(text);
    else this.runtime.followUp(text);
    this.tui.requestRender();
  }

  /** A user message entered the history: a queued one is no longer waiting. */
  private entered(text: string): void {
    const i = this.queue.findIndex((q) => q.text === text);
    if (i >= 0) this.queue.splice(i, 1);
  }

  /** Aborts the run; what was still queued goes back to the editor, oldest first, above what is being typed. */
  private abort(): void {
    this.runtime.abort();
    const back = this.queue.splice(0).map((q) => q.text);
    if (back.length) {
      const typed = this.editor.getText();
      this.editor.setText([...back, ...(typed ? [typed] : [])].join("\n"));
    }
    this.tui.requestRender();
  }

  private async prompt(text: string): Promise<void> {
    this.startedAt = Date.now();
    this.ticker = setInterval(() => this.tui.requestRender(), 100);
    try {
      const result = await this.runtime.prompt(text);
      const last = result.messages.at(-1);
      const shown = last?.role === "assistant" && last.stopReason === result.reason;
      if (result.reason !== "stop" && result.reason !== "aborted" && !shown)
        this.conversation.notice(
          "error",
          `The run ended (${result.reason}): ${result.errorMessage ?? "no reason given"}`,
        );
    } catch (error) {
      this.conversation.notice("error", (error as Error).message);
    } finally {
      this.stopTicker();
      this.tui.requestRender();
    }
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.startedAt = undefined;
  }

  private async command(line: string): Promise<void> {
    const name = line.split(/\s/)[0]!;
    if (name === "/exit" || name === "/quit") return this.exit?.();
    try {
      const ran = await this.runtime.runCommand(line);
      if (name === "/help") this.conversation.notice("info", keysText());
      else if (!ran) this.conversation.notice("error", `Unknown command ${name}. /help lists the commands.`);
    } catch (error) {
      this.conversation.notice("error", `${name}: ${(error as Error).message}`);
    } finally {
      this.tui.requestRender();
    }
  }
}
