// Inside the bench's own network namespace every address is routed to loopback (`ip route add local default dev
// lo`), so what an agent tries to reach directly, past the proxy variables, lands here: DNS queries to the
// configured resolver on UDP 53 (answered NXDOMAIN at once, recorded by name) and TCP connections to ports 80
// and 443 of any address (recorded by the address asked for, then closed). Anything else gets refused locally.
import { createSocket } from "node:dgram";
import { createServer } from "node:net";

/** The queried name of a DNS message (the first question's labels). */
function queryName(msg) {
  const labels = [];
  for (let at = 12; at < msg.length && msg[at] !== 0; at += msg[at] + 1)
    labels.push(msg.subarray(at + 1, at + 1 + msg[at]).toString("latin1"));
  return labels.join(".");
}

/** The question of `msg` echoed back with NXDOMAIN, so the resolver gives up at once. */
function nxdomain(msg) {
  const end = msg.indexOf(0, 12) + 5; // the name's closing zero, then type and class
  const reply = Buffer.from(msg.subarray(0, end));
  reply.writeUInt16BE(0x8183, 2); // response, recursion desired and available, NXDOMAIN
  reply.writeUInt16BE(1, 4);
  reply.fill(0, 6, 12);
  return reply;
}

/**
 * Starts the catch-all listeners; `note(text)` gets each attempt. Ports that cannot be bound (outside a namespace
 * of our own) are skipped; returns how to close what did start and which ports those are.
 * @param {(text: string) => void} note
 */
export async function startCatchAll(note) {
  const closers = [];
  const bound = [];
  const dns = createSocket("udp4");
  dns.on("message", (msg, from) => {
    if (msg.length < 17) return;
    note(`DNS ${queryName(msg)}`);
    dns.send(nxdomain(msg), from.port, from.address);
  });
  const dnsUp = await new Promise((resolve) => {
    dns.once("error", () => resolve(false));
    dns.bind(53, "0.0.0.0", () => resolve(true));
  });
  if (dnsUp) {
    bound.push("udp/53");
    closers.push(() => new Promise((resolve) => dns.close(() => resolve(undefined))));
  }
  for (const port of [80, 443]) {
    const server = createServer((socket) => {
      note(`TCP ${socket.localAddress}:${port}`);
      socket.on("error", () => {});
      socket.resetAndDestroy(); // a reset, so the client fails at once instead of waiting on a half-closed socket
    });
    const up = await new Promise((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "0.0.0.0", () => resolve(true));
    });
    if (!up) continue;
    bound.push(`tcp/${port}`);
    closers.push(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  }
  return { bound, close: () => Promise.all(closers.map((c) => c())) };
}
