// scimkit on Express 5 (`scimkit/express`), for the shared benchmark kit.
import express from 'express';
import { scimExpress } from 'scimkit/express';
import { HOST, KEEP_ALIVE_MS, PORT, PREFIX, ready, scim } from './service.mjs';

const app = express();
app.use(PREFIX, scimExpress(scim));
const server = app.listen(PORT, HOST, () => ready('scimkit-express', server));
server.keepAliveTimeout = KEEP_ALIVE_MS;
