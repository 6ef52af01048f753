// scimkit on plain node:http (`scimkit/node`), for the shared benchmark kit.
import { createServer } from 'node:http';
import { scimNode } from 'scimkit/node';
import { HOST, KEEP_ALIVE_MS, PORT, preseed, ready, scim } from './service.mjs';

await preseed();
const server = createServer(scimNode(scim));
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(PORT, HOST, () => ready('scimkit-node', server));
