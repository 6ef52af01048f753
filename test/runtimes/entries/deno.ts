/** Serves the contract service with `Deno.serve` on 127.0.0.1 and a free port, then prints it. */
import { createHandler } from './service.ts';
import { openStore } from './store.ts';

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`),
  },
  createHandler(await openStore(Deno.env.get('SCIMKIT_STORE') ?? 'memory')),
);
// The test holds stdin open; when it closes, the test process is gone, and so is the reason to run.
for await (const _ of Deno.stdin.readable);
Deno.exit(0);
