/**
 * What plugins ask (`ui_request`) while the ACP mode runs, asked through the editor: a choice or a yes/no is
 * `session/request_permission` on the tool call being decided (the permission prompt's options keep their
 * text, and each gets the ACP kind its wording says); free text has no ACP request, so it is answered with
 * nothing and the asking plugin takes its default (the permission prompt then denies without a reason).
 */
import type { AgentContext, PermissionOption, PermissionOptionKind, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { UiRequest, UiResponse } from "@keel/extensions-api";

export interface AskTarget {
  client: AgentContext;
  sessionId: string;
  /** The tool call the question is about, when one is being decided. */
  toolCall(): ToolCallUpdate | undefined;
}

function kindOf(option: string): PermissionOptionKind {
  if (/^(deny|no|reject|cancel)\b/i.test(option)) return "reject_once";
  if (/\b(always|session)\b/i.test(option)) return "allow_always";
  return "allow_once";
}

export class EditorQuestions {
  private target: AskTarget | undefined;
  private asked = 0;

  /** Questions go to `target` until `close`. */
  open(target: AskTarget): void {
    this.target = target;
  }

  close(): void {
    this.target = undefined;
  }

  /** The `ui_request` handler: undefined outside the ACP mode. */
  ask(request: UiRequest): Promise<UiResponse | undefined> | undefined {
    const target = this.target;
    if (!target || request.kind === "input") return undefined;
    const labels = request.kind === "select" ? request.options : ["Allow", "Deny"];
    const options: PermissionOption[] = labels.map((name, i) => ({
      optionId: `option-${i}`,
      name,
      kind: kindOf(name),
    }));
    const toolCall = {
      ...(target.toolCall() ?? { toolCallId: `question-${++this.asked}` }),
      title: request.kind === "confirm" && request.message ? `${request.title}\n${request.message}` : request.title,
    };
    return target.client
      .request("session/request_permission", { sessionId: target.sessionId, toolCall, options })
      .then(({ outcome }) => {
        if (outcome.outcome !== "selected") return undefined;
        const index = options.findIndex((o) => o.optionId === outcome.optionId);
        if (index < 0) return undefined;
        return request.kind === "select"
          ? { kind: "select", value: labels[index]! }
          : { kind: "confirm", confirmed: index === 0 };
      });
  }
}
