# workerd's configuration for the contract entry, bundled to .data/worker.js beside a copy of
# this file; the test passes the port with --socket-addr.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .contract) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const contract :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed ".data/worker.js") ],
  # No compatibility flags: the library must need no Node APIs here.
  compatibilityDate = "2026-10-01",
);
