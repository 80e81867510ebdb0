/**
 * What plugins ask (`ui_request`: confirm, select, input) as dialogs in place of the editor, one at a time in
 * the order asked. Enter answers, Esc answers nothing (the asking plugin then takes its safe default). The
 * pickers (/model, /resume) are selects asked by the commands that own them.
 */
import {
  decodeKittyPrintable,
  fuzzyFilter,
  Input,
  matchesKey,
  SelectList,
  type Component,
  type Focusable,
} from "@earendil-works/pi-tui";
import type { UiRequest, UiResponse } from "@keel/extensions-api";
import { selectTheme, style } from "./style.ts";
import { Lines } from "./views.ts";

/** Where a dialog is shown: it takes the editor's place and the focus until answered. */
export interface DialogHost {
  show(dialog: Component, focus: Component): void;
  close(): void;
}

class Dialog implements Component {
  constructor(
    private readonly title: string,
    private readonly message: string | undefined,
    private readonly body: Component,
    private readonly hint: string,
  ) {}
  render(width: number): string[] {
    const head = new Lines(() => [
      style.muted("─".repeat(Math.max(1, width))),
      style.bold(style.accent(this.title)),
      ...(this.message ? this.message.split("\n") : []),
    ]).render(width);
    return [...head, ...this.body.render(width), style.muted(this.hint)];
  }
  invalidate(): void {
    this.body.invalidate();
  }
}

/** A select list that narrows as the user types (fuzzy, like the editor's completion); backspace widens it. */
class FilteredSelect implements Component {
  private filter = "";
  private list: SelectList;

  constructor(
    private readonly options: string[],
    private readonly onSelect: (value: string) => void,
    private readonly onCancel: () => void,
  ) {
    this.list = this.build();
  }

  private build(): SelectList {
    const shown = this.filter ? fuzzyFilter(this.options, this.filter, (o) => o) : this.options;
    const list = new SelectList(
      shown.map((o) => ({ value: o, label: o })),
      Math.max(1, Math.min(10, shown.length)),
      selectTheme,
    );
    list.onSelect = (item) => this.onSelect(item.value);
    list.onCancel = () => this.onCancel();
    return list;
  }

  handleInput(data: string): void {
    if (matchesKey(data, "backspace")) {
      if (!this.filter) return;
      this.filter = this.filter.slice(0, -1);
      this.list = this.build();
      return;
    }
    const printable = data.length === 1 && data >= " " && data !== "\x7f" ? data : decodeKittyPrintable(data);
    if (printable !== undefined && this.options.length > 10) {
      this.filter += printable;
      this.list = this.build();
      return;
    }
    this.list.handleInput(data);
  }

  render(width: number): string[] {
    const lines = this.list.render(width);
    return this.filter ? [style.muted(`filter: ${this.filter}`), ...lines] : lines;
  }

  invalidate(): void {
    this.list.invalidate();
  }
}

export class Dialogs {
  private chain: Promise<unknown> = Promise.resolve();
  private cancelOpen: (() => void) | undefined;

  constructor(private readonly host: DialogHost) {}

  /** Asks in turn: a question asked while another is open waits for it. */
  ask(request: UiRequest): Promise<UiResponse | undefined> {
    const answer = this.chain.then(() => this.open(request));
    this.chain = answer.catch(() => undefined);
    return answer;
  }

  /** Answers the open dialog with nothing (the UI is closing). */
  cancel(): void {
    this.cancelOpen?.();
  }

  get isOpen(): boolean {
    return this.cancelOpen !== undefined;
  }

  private open(request: UiRequest): Promise<UiResponse | undefined> {
    return new Promise((resolve) => {
      const done = (response: UiResponse | undefined) => {
        this.cancelOpen = undefined;
        this.host.close();
        resolve(response);
      };
      this.cancelOpen = () => done(undefined);
      if (request.kind === "input") {
        const input = new Input();
        input.onSubmit = (value) => done({ kind: "input", value });
        input.onEscape = () => done(undefined);
        const hint = `enter answers · esc skips${request.placeholder ? ` · ${request.placeholder}` : ""}`;
        this.host.show(new Dialog(request.title, undefined, input, hint), input as Component & Focusable);
        return;
      }
      const options = request.kind === "confirm" ? ["Yes", "No"] : request.options;
      const list = new FilteredSelect(
        options,
        (value) =>
          done(
            request.kind === "confirm" ? { kind: "confirm", confirmed: value === "Yes" } : { kind: "select", value },
          ),
        () => done(undefined),
      );
      const message = request.kind === "confirm" ? request.message : undefined;
      const hint = `↑↓ choose${options.length > 10 ? " · type to filter" : ""} · enter answers · esc skips`;
      this.host.show(new Dialog(request.title, message, list, hint), list);
    });
  }
}
