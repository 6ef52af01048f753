// Child process of the HTTP benchmark: starts one server (`scimkit` = the example server on a
// MemoryUserStore, `baseline` = the hand-written one, `scimkit-nodecrypto` = the diagnostic
// variant) on 127.0.0.1, port 0, reports its URL to the parent over IPC and runs until the
// parent says stop or goes away.
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { startServer } from '../../examples/server/server.js';
import { BASE_PATH } from '../../examples/server/server.js';
import { startBaseline } from './baseline-server.js';
import { startNodeCryptoServer } from './nodecrypto-server.js';

const kind = process.argv[2];
const token = process.env.BENCH_TOKEN ?? 'bench-token';

async function start(): Promise<{ url: string; close(): Promise<void> }> {
  if (kind === 'baseline') return startBaseline(token, BASE_PATH);
  if (kind === 'scimkit-nodecrypto') return startNodeCryptoServer(token, BASE_PATH);
  if (kind === 'scimkit') {
    return startServer(
      {
        host: '127.0.0.1',
        port: 0,
        keys: [{ key: token, tenant: 'bench' }],
        generatedKey: false,
        mailLog: undefined,
        activationSecret: 'bench-activation-secret',
      },
      { store: new MemoryUserStore(), print: () => undefined },
    );
  }
  throw new Error(`server-process: unknown server "${String(kind)}"`);
}

const running = await start();
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  // A normal exit lets --cpu-prof write its profile.
  void running.close().finally(() => process.exit(0));
};
process.on('message', (message) => {
  if (message === 'stop') stop();
  // CPU time is the parent's second measure: on a shared machine it is steadier than req/s.
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMicros: user + system, systemMicros: system });
  }
});
process.on('disconnect', stop);
process.send?.({ url: running.url });
