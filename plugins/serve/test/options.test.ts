/** Where `keel serve` may listen, and the numbered log clients resume from: checked without a server. */
import { describe, expect, it } from "vitest";
import { EventLog } from "../src/event-log.ts";
import { serveOptions } from "../src/flags.ts";

describe("serve options", () => {
  it("listens on 127.0.0.1 and any free port by default", () => {
    expect(serveOptions({})).toEqual({
      port: 0,
      host: "127.0.0.1",
      exposed: false,
      allowHosts: [],
      idleMs: 3_600_000,
    });
  });

  it("closes idle sessions after the minutes given, or never with 0, and refuses what is not a number", () => {
    expect(serveOptions({ idleMinutes: "0.5" })).toMatchObject({ idleMs: 30_000 });
    expect(serveOptions({ idleMinutes: "0" })).toMatchObject({ idleMs: 0 });
    expect(serveOptions({ idleMinutes: "-1" })).toBe(
      "--idle-minutes -1: give a number of minutes (0: sessions are never closed for being idle)",
    );
    expect(serveOptions({ idleMinutes: "soon" })).toMatch(/^--idle-minutes soon: give a number of minutes/);
  });

  it("refuses an address other machines reach unless --expose says so", () => {
    expect(serveOptions({ host: "0.0.0.0" })).toMatch(/--host 0\.0\.0\.0 lets other machines reach keel.*--expose/);
    expect(serveOptions({ host: "0.0.0.0", expose: true })).toMatchObject({ host: "0.0.0.0", exposed: true });
    expect(serveOptions({ host: "::1" })).toMatchObject({ exposed: false });
  });

  it("takes TLS only as a certificate and its key together", () => {
    expect(serveOptions({ tlsCert: "c.pem" })).toBe("--tls-cert and --tls-key go together: give both");
    expect(serveOptions({ tlsCert: "c.pem", tlsKey: "k.pem" })).toMatchObject({ tls: { cert: "c.pem", key: "k.pem" } });
  });

  it("refuses a port that is not one", () => {
    expect(serveOptions({ port: "http" })).toBe("--port http: give a port number from 0 to 65535");
    expect(serveOptions({ port: "70000" })).toMatch(/^--port 70000/);
  });
});

describe("the event log", () => {
  it("numbers messages from 1 and replays what came after a number", () => {
    const log = new EventLog();
    expect(log.append({ type: "a" })).toBe('{"type":"a","seq":1}');
    log.append({ type: "b" });
    log.append({ type: "c" });
    expect(log.after(1)).toEqual(['{"type":"b","seq":2}', '{"type":"c","seq":3}']);
    expect(log.after(3)).toEqual([]);
    expect(log.after(0)).toHaveLength(3);
  });

  it("says a replay is impossible once what followed is no longer kept, or was never sent", () => {
    const log = new EventLog({ events: 2, bytes: 1024 });
    for (const type of ["a", "b", "c", "d"]) log.append({ type });
    expect(log.after(2)).toEqual(['{"type":"c","seq":3}', '{"type":"d","seq":4}']);
    expect(log.after(1)).toBeUndefined();
    expect(log.after(5)).toBeUndefined();
    expect(log.after(Number.NaN)).toBeUndefined();
  });

  it("drops the oldest messages past its size", () => {
    const log = new EventLog({ events: 100, bytes: 60 });
    for (let i = 0; i < 5; i++) log.append({ type: "x".repeat(20) });
    expect(log.after(log.last - 1)).toHaveLength(1);
    expect(log.after(0)).toBeUndefined();
  });
});
