import { describe, expect, it } from "vitest";
import { childController } from "@keel/extensions-api/sleep";

describe("childController", () => {
  it("aborts with its parent, with the parent's reason, until released", () => {
    const parent = new AbortController();
    const first = childController(parent.signal);
    const second = childController(parent.signal);
    second.release();
    parent.abort(new Error("stop"));
    expect(first.controller.signal.aborted).toBe(true);
    expect((first.controller.signal.reason as Error).message).toBe("stop");
    expect(second.controller.signal.aborted).toBe(false);
  });

  it("starts aborted under an aborted parent, and can abort on its own without touching the parent", () => {
    const gone = new AbortController();
    gone.abort("already");
    expect(childController(gone.signal).controller.signal.reason).toBe("already");
    const parent = new AbortController();
    const child = childController(parent.signal);
    child.controller.abort("deadline");
    expect(parent.signal.aborted).toBe(false);
    child.release();
  });
});
