/** Serves the contract service with `Bun.serve` on 127.0.0.1 and a free port, then prints it. */
import { createHandler } from './service.ts';
import { openStore } from './store.ts';

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: createHandler(await openStore(process.env.SCIMKIT_STORE ?? 'memory')),
});
console.log(`listening on http://127.0.0.1:${server.port}`);
// The test holds stdin open; when it closes, the test process is gone, and so is the reason to run.
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
