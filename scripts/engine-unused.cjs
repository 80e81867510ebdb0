// What ops-container's built-in dockerode gets for the packages it loads at start but never uses here (build-
// plugins.mjs): ssh2 (docker-modem's ssh:// hosts; the backend reaches the engine on a Unix socket only) and gRPC
// (dockerode's BuildKit sessions; the backend builds no image). Loading them cost ~150 ms of each container
// session's start; anything of them that is used says so.
"use strict";

const unused = (name) =>
  new Proxy(function () {}, {
    get: (_, key) => (key === "__esModule" ? false : unused(`${name}.${String(key)}`)),
    apply: () => {
      throw new Error(`${name} is not in keel's build of the container backend (Unix sockets only, no image builds).`);
    },
    construct: () => {
      throw new Error(`${name} is not in keel's build of the container backend (Unix sockets only, no image builds).`);
    },
  });

module.exports = unused("this module");
