# workerd's configuration for examples/workerd/worker.ts, bundled to .data/worker.js first.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "scim", worker = .scimWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "scim") ],
);

const scimWorker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed ".data/worker.js") ],
  # No compatibility flags: scimkit needs no Node APIs on Workers.
  compatibilityDate = "2026-10-01",
  bindings = [ (name = "SCIM_KEY", fromEnvironment = "SCIM_KEY") ],
);
