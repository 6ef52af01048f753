// scimkit-node-no-log: node.mjs on a memory store that keeps no event log, without the welcome
// email (which sends from the log): the resource pipeline alone, to tell its cost from the
// events' (the one-pipeline guardrail compares against a version that had no log).
import { createServer } from 'node:http';
import { createScim, staticApiKeys } from 'scimkit';
import { MemoryUserStore } from 'scimkit/memory';
import { scimNode } from 'scimkit/node';
import { HOST, KEEP_ALIVE_MS, PORT, PREFIX, TOKEN, preseed, ready } from './service.mjs';

const scim = createScim({
  store: new MemoryUserStore({ events: false }),
  verifier: staticApiKeys([{ key: TOKEN, tenant: 'bench' }]),
  basePath: PREFIX,
  userNameRule: 'email',
});

await preseed(scim);
const server = createServer(scimNode(scim));
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(PORT, HOST, () => ready('scimkit-node-no-log', server));
