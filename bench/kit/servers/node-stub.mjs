// scimkit's node:http adapter on the stand-in core of stub-scim.mjs: what the adapter costs alone.
import { createServer } from 'node:http';
import { scimNode } from 'scimkit/node';
import { HOST, KEEP_ALIVE_MS, PORT, ready } from './service.mjs';
import { stubScim } from './stub-scim.mjs';

const server = createServer(scimNode(stubScim));
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen(PORT, HOST, () => ready('scimkit-node-stub', server));
