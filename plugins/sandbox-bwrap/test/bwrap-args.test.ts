/**
 * The sandbox's command line: whatever the settings say, the isolation options are there, and mounts come in
 * the order that lets a workspace inside `$HOME` or `/tmp` be bound over their tmpfs; the quoting survives any
 * command text through a real bash.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { bwrapArgs, ISOLATION, shellWord } from "../src/bwrap-args.ts";

const layout = {
  workspace: "/home/me/work",
  home: "/home/me",
  writable: ["/data"],
  readable: [],
  dotfiles: ["/home/me/.gitconfig"],
  readOnly: ["/home/me/work/.git"],
  network: false,
};

describe("bwrapArgs", () => {
  it.each([false, true])("always unshares the user and drops every capability (network %s)", (network) => {
    const args = bwrapArgs({ ...layout, network });
    expect(args.join(" ")).toContain(ISOLATION.join(" "));
    expect(args.join(" ")).toContain("--unshare-user --cap-drop ALL");
    expect(args.includes("--unshare-net")).toBe(!network);
  });

  it("mounts the home tmpfs, then dotfiles, then writable folders, then .git read-only", () => {
    const at = (flag: string, path: string) =>
      bwrapArgs(layout).findIndex((arg, i, all) => arg === flag && all[i + 1] === path);
    const order = [
      at("--tmpfs", "/tmp"),
      at("--tmpfs", "/home/me"),
      at("--ro-bind", "/home/me/.gitconfig"),
      at("--bind", "/home/me/work"),
      at("--bind", "/data"),
      at("--ro-bind", "/home/me/work/.git"),
    ];
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("leaves the home tmpfs out when there is no home folder", () => {
    expect(bwrapArgs({ ...layout, home: undefined, dotfiles: [] })).not.toContain("/home/me");
  });
});

describe("shellWord", () => {
  it.each(["plain", "it's", "'", '$(touch x) `y` \\n\n"q"', ""])("bash reads %j back unchanged", (word) => {
    expect(spawnSync("bash", ["-c", `printf %s ${shellWord(word)}`], { encoding: "utf8" }).stdout).toBe(word);
  });
});
