/**
 * Which container a session gets: the settings over the devcontainer.json over the defaults, and which engine
 * socket is used. No engine is needed for these.
 */
import { describe, expect, it } from "vitest";
import type { Devcontainer } from "../src/devcontainer.ts";
import { findSocket } from "../src/engine.ts";
import { planContainer } from "../src/plan.ts";
import { ContainerSettingsSchema } from "../src/settings.ts";

const settings = (value: Record<string, unknown>) => ContainerSettingsSchema.parse(value);
const devcontainer: Devcontainer = {
  file: ".devcontainer/devcontainer.json",
  image: "from-devcontainer",
  workspaceFolder: "/workspaces/proj",
  containerEnv: { A: "devcontainer", B: "devcontainer" },
  remoteUser: "vscode",
  ignored: [],
};

describe("planContainer", () => {
  it("mounts the workspace at its own path, with no network, by default", () => {
    expect(planContainer(settings({ image: "img" }), "/home/u/proj", undefined)).toEqual({
      image: "img",
      workspace: "/home/u/proj",
      mount: "/home/u/proj",
      env: {},
      network: "none",
    });
  });

  it("takes from the devcontainer.json what the settings leave unset", () => {
    const plan = planContainer(settings({ env: { B: "settings" } }), "/home/u/proj", devcontainer);
    expect(plan).toMatchObject({
      image: "from-devcontainer",
      mount: "/workspaces/proj",
      env: { A: "devcontainer", B: "settings" },
      user: "vscode",
    });
    const over = planContainer(
      settings({ image: "mine", workspaceMount: "/w", user: "0", network: "bridge", memory: 1e9, cpus: 1.5, pids: 64 }),
      "/home/u/proj",
      devcontainer,
    );
    expect(over).toMatchObject({ image: "mine", mount: "/w", user: "0", network: "bridge", memory: 1e9, cpus: 1.5 });
    expect(over.pids).toBe(64);
  });

  it("attaches when a container is named, finding the mount unless one is set", () => {
    const plan = planContainer(settings({ container: "dev", image: "ignored" }), "/p", undefined);
    expect(plan.container).toBe("dev");
    expect(plan.image).toBeUndefined();
    expect(plan.mount).toBeUndefined();
  });

  it("says what to set when there is no image", () => {
    expect(() => planContainer(settings({}), "/p", undefined)).toThrow(
      'has no image to start: set "ops-container.image" in settings.json',
    );
    expect(() => planContainer(settings({}), "/p", { ...devcontainer, image: undefined })).toThrow(
      "the project's .devcontainer/devcontainer.json names no image",
    );
  });

  it("takes the image or container and the mount a resumed session recorded over the settings", () => {
    const mine = settings({ image: "now", workspaceMount: "/now", network: "bridge" });
    expect(planContainer(mine, "/p", undefined, { image: "then", mount: "/then" })).toMatchObject({
      image: "then",
      mount: "/then",
      network: "bridge",
    });
    const attached = planContainer(mine, "/p", undefined, { container: "box", mount: "/src" });
    expect(attached).toMatchObject({ container: "box", mount: "/src" });
    expect(attached.image).toBeUndefined();
    expect(planContainer(mine, "/p", undefined, { host: "not a container's" })).toMatchObject({ image: "now" });
  });

  it("refuses a relative workspaceMount in the settings", () => {
    expect(ContainerSettingsSchema.safeParse({ workspaceMount: "w" }).success).toBe(false);
  });
});

describe("findSocket", () => {
  const none = () => false;
  it("takes the setting, as a path or a unix:// URL, then DOCKER_HOST", () => {
    expect(findSocket("/s.sock", { DOCKER_HOST: "unix:///d.sock" }, none)).toBe("/s.sock");
    expect(findSocket("unix:///s.sock", {}, none)).toBe("/s.sock");
    expect(findSocket(undefined, { DOCKER_HOST: "unix:///d.sock" }, none)).toBe("/d.sock");
  });

  it("refuses a socket that is not a Unix one, saying which input gave it", () => {
    expect(() => findSocket(undefined, { DOCKER_HOST: "tcp://h:2375" }, none)).toThrow(
      'DOCKER_HOST is "tcp://h:2375"; the container backend reaches the engine through a Unix socket',
    );
  });

  it("looks in Docker's place, then Podman's as root, then the user's", () => {
    const env = { XDG_RUNTIME_DIR: "/run/user/1000" };
    expect(findSocket(undefined, env, (p) => p.startsWith("/run/"))).toBe("/run/podman/podman.sock");
    expect(findSocket(undefined, env, (p) => p.startsWith("/run/user"))).toBe("/run/user/1000/podman/podman.sock");
    expect(() => findSocket(undefined, env, none)).toThrow(
      "No container engine socket found (tried /var/run/docker.sock, /run/podman/podman.sock, " +
        "/run/user/1000/podman/podman.sock)",
    );
  });
});
