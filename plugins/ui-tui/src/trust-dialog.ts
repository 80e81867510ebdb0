/**
 * The project trust question as the terminal UI's own dialog. It is asked while the runtime is created —
 * before the session and the UI proper, since the answer decides which settings apply — so it draws a
 * terminal UI of its own holding only the dialog, and stops it once answered; the UI proper starts after, below
 * it. Esc answers nothing: the folder stays untrusted for this run and is asked about again next time.
 */
import { Container, ProcessTerminal, TuiMainScreen } from "@earendil-works/pi-tui";
import type { ProjectTrustAnswer, ProjectTrustRequest } from "@keel/extensions-api";
import { trustPrompt } from "@keel/extensions-api/render";
import { Dialogs } from "./dialogs.ts";

export async function askTrust(request: ProjectTrustRequest): Promise<ProjectTrustAnswer | undefined> {
  const tui = new TuiMainScreen(new ProcessTerminal());
  const slot = new Container();
  tui.addChild(slot);
  const dialogs = new Dialogs({
    show: (dialog, focus) => {
      slot.clear();
      slot.addChild(dialog);
      tui.setFocus(focus);
      tui.requestRender();
    },
    close: () => {
      slot.clear();
      tui.requestRender();
    },
  });
  tui.start();
  try {
    const answer = await dialogs.ask({ kind: "confirm", ...trustPrompt(request) });
    return answer?.kind === "confirm" ? { trusted: answer.confirmed, remember: true } : undefined;
  } finally {
    tui.stop();
  }
}
