/**
 * The questions plugins ask (`ui_request`) while a client is served: each goes out as an `extension_ui_request`
 * with its own id and waits for the `extension_ui_response` with that id. Before the bridge opens, and after it
 * closes, nothing is asked (undefined: the asking plugin takes its safe default).
 */
import type { UiRequest, UiResponse } from "@keel/extensions-api";
import type { RpcUiRequest, RpcUiResponse } from "@keel/rpc-client/protocol";

export class UiBridge {
  private send: ((request: RpcUiRequest) => void) | undefined;
  private closed: ((id: string) => void) | undefined;
  private readonly waiting = new Map<string, { request: UiRequest; resolve(answer: UiResponse | undefined): void }>();
  private nextId = 1;

  /**
   * From now on questions go out through `send`; `closed` is told each question no longer open (answered, or
   * withdrawn when the bridge closes), for clients that share it.
   */
  open(send: (request: RpcUiRequest) => void, closed?: (id: string) => void): void {
    this.send = send;
    this.closed = closed;
  }

  /** No more questions; the waiting ones are answered with nothing. */
  close(): void {
    this.send = undefined;
    for (const [id, { resolve }] of this.waiting) {
      resolve(undefined);
      this.closed?.(id);
    }
    this.waiting.clear();
  }

  /** The `ui_request` handler: undefined while the mode is not running. */
  ask(request: UiRequest): Promise<UiResponse | undefined> | undefined {
    const send = this.send;
    if (!send) return undefined;
    const id = `ui-${this.nextId++}`;
    const { kind, ...fields } = request;
    return new Promise((resolve) => {
      this.waiting.set(id, { request, resolve });
      send({ type: "extension_ui_request", id, method: kind, ...fields } as RpcUiRequest);
    });
  }

  /** Takes the client's answer; returns why it fits no waiting question, or undefined when it was taken. */
  answer(response: RpcUiResponse): string | undefined {
    const entry = this.waiting.get(response.id);
    if (!entry) return `no question with id "${response.id}" is waiting for an answer`;
    const answer = toUiResponse(entry.request, response);
    if (answer === "invalid") return invalidAnswer(entry.request);
    this.waiting.delete(response.id);
    entry.resolve(answer);
    this.closed?.(response.id);
    return undefined;
  }
}

function toUiResponse(request: UiRequest, response: RpcUiResponse): UiResponse | undefined | "invalid" {
  if (response.cancelled) return undefined;
  switch (request.kind) {
    case "confirm":
      return response.confirmed === undefined ? "invalid" : { kind: "confirm", confirmed: response.confirmed };
    case "select":
      return response.value !== undefined && request.options.includes(response.value)
        ? { kind: "select", value: response.value }
        : "invalid";
    case "input":
      return response.value === undefined ? "invalid" : { kind: "input", value: response.value };
  }
}

function invalidAnswer(request: UiRequest): string {
  switch (request.kind) {
    case "confirm":
      return 'a confirm is answered with "confirmed": true or false (or "cancelled": true)';
    case "select":
      return `a select is answered with "value": one of ${JSON.stringify(request.options)} (or "cancelled": true)`;
    case "input":
      return 'an input is answered with "value": the text (or "cancelled": true)';
  }
}
