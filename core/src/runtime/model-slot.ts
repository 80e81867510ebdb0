/**
 * The session's model: picked when the session starts without asking its provider whether it is ready (so
 * modes and commands can show it from the start), and checked for readiness when a run first needs it, so a
 * missing key is a clear error then and only then.
 */
import { ensureReady, type Target } from "./model-resolver.js";

export class ModelSlot {
  private target: Target | undefined;
  /** Whether the target's provider said it is ready (a target picked at session start has not been asked). */
  private checked = false;

  /** `resolve(checkReady)` picks a target by the session's settings and flags. */
  constructor(private readonly resolve: (checkReady: boolean) => Promise<Target>) {}

  get model() {
    return this.target?.model;
  }

  /** Picks the model if none is yet; a problem is left for the first run to report. */
  async pick(): Promise<void> {
    if (this.target) return;
    try {
      this.target = await this.resolve(false);
    } catch {
      // The run resolves again and reports it.
    }
  }

  /** The target a request goes to, once its provider says it is ready; rejects with the reason why not. */
  async ready(): Promise<Target> {
    if (!this.target) this.target = await this.resolve(true);
    else if (!this.checked) await ensureReady(this.target);
    this.checked = true;
    return this.target;
  }

  /** Replaces the target with one already checked (`setModel`). */
  set(target: Target): void {
    this.target = target;
    this.checked = true;
  }
}
