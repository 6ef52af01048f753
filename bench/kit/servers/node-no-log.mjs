// scimkit-node-no-log: node.mjs on a memory store that keeps no event log, without the welcome
// email (which sends from the log): the resource pipeline alone, to tell its cost from the
// events' (the one-pipeline guardrail compares against a version that had no log).
import { serveWithoutMail } from './service.mjs';

await serveWithoutMail('scimkit-node-no-log', { events: false });
