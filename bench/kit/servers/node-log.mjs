// scimkit-node-log: node.mjs on a memory store that keeps its event log, without the welcome
// email: between scimkit-node-no-log (the resource pipeline alone) and scimkit-node (the log
// and the email), so that a run tells the log's cost from the email's.
import { serveWithoutMail } from './service.mjs';

await serveWithoutMail('scimkit-node-log', {});
