// scimkit-node-log: node.mjs on a memory store that keeps its event log, without the welcome
// email: between scimkit-node-no-log (the resource pipeline alone) and scimkit-node (the log
// and the email), so that a run tells the log's cost from the email's.
import { createServer } from 'node:http';
import { createScim, staticApiKeys } from 'scimkit';
import { MemoryUserStore } from 'scimkit/memory';
import { scimNode } from 'scimkit/node';
import { HOST, KEEP_ALIVE_MS, PORT, PREFIX, TOKEN, preseed, ready } from './service.mjs';

const scim = createScim({
  store: new MemoryUserStore(),
  verifier: staticApiKeys([{ key: TOKEN, tenant: 'bench' }]),
  basePath: PREFIX,
  userNameRule: 'email',
});

await preseed(scim);
const server = createServer(scimNode(scim));
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(PORT, HOST, () => ready('scimkit-node-log', server));
