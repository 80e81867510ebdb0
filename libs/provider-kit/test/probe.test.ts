// The start-up reachability probe against real sockets on 127.0.0.1: a listening port answers, a closed port
// is refused, a name that does not resolve (a lookup the test answers) is told as DNS; each message names the
// provider and what to set.
import { createServer, type AddressInfo, type LookupFunction, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closedPort } from "../../../test/support/closed-port.ts";
import { probeEndpoint } from "../src/probe.ts";

let server: Server | undefined;
afterEach(() => void server?.close());

describe("probeEndpoint", () => {
  it("is quiet when something listens at the base URL, and sends it nothing", async () => {
    let received = 0;
    server = createServer((socket) => socket.on("data", (d) => (received += d.length)));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const target = { id: "local", label: "Local", baseUrl: `http://127.0.0.1:${port}/v1` };
    expect(await probeEndpoint(target)).toBeUndefined();
    expect(received).toBe(0);
  });

  it("tells a refused connection with the settings key and the variable that set the address", async () => {
    const port = await closedPort();
    const target = {
      id: "openai",
      label: "OpenAI",
      baseUrl: `http://127.0.0.1:${port}/v1`,
      baseUrlEnv: "OPENAI_BASE_URL",
    };
    expect(await probeEndpoint(target)).toBe(
      `Cannot reach OpenAI at http://127.0.0.1:${port}: the connection was refused (nothing listens there); ` +
        "check that the server runs and the address is right (settings providers.openai.baseUrl or $OPENAI_BASE_URL).",
    );
  });

  it("tells a host name that does not resolve (the name looked up by the test, off the network)", async () => {
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND no-such-host.invalid"), { code: "ENOTFOUND" });
    const lookup: LookupFunction = (_host, _options, callback) => callback(notFound, "", 4);
    const target = { id: "x", label: "X", baseUrl: "https://no-such-host.invalid/v1" };
    expect(await probeEndpoint(target, { lookup })).toMatch(
      /^Cannot reach X at https:\/\/no-such-host\.invalid: the host name no-such-host\.invalid does not resolve/,
    );
  });
});
