// One process of `count-dispatch.ts`: the outbox of the library under `<root>/src`, with
// `warmup` welcome messages recorded and delivered first, then `n` more recorded; says `ready`,
// delivers them when told to (a line on stdin), says `done`, and exits on the next line.
//
//   node --import tsx dispatch-target.ts <root> <warmup> <n>
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [root = '.', warmup = '2000', n = '2000'] = process.argv.slice(2);
const from = (path: string) => import(pathToFileURL(`${root}/src/${path}`).href);
const { OutboxDispatcher } = await from('core/outbox/outbox-dispatcher.ts');
const { MemoryUserStore } = await from('stores/memory/index.ts');
const { createUserFactory } = await from('testing/index.ts');

const store = new MemoryUserStore();
const users = createUserFactory('t');
const dispatcher = new OutboxDispatcher(
  store.outbox,
  async (tenant: string, id: string) => (await store.get(tenant, id)) !== null,
  { sendWelcome: async () => undefined },
  {},
  () => new Date(),
  (error: unknown) => console.error(error),
);

async function record(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const user = users.make({ active: true });
    await store.create('t', user, { outbox: [users.message(user)] });
  }
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
await record(Number(warmup));
await dispatcher.drain();
await record(Number(n));
console.log('ready');
await lines.next();
const sent = await dispatcher.drain();
console.log(`done ${sent}`);
await lines.next();
await dispatcher.close();
process.exit(0);
