// One bounded run of the outbox alone, the unit `count-delivery.ts` measures: welcome messages
// recorded ten at a time in a memory outbox (as ten concurrent creates record them), the
// dispatcher kicked once per message (as each create kicks it) and drained, with a Mailer that
// resolves at once. No HTTP, no user store: what a delivered welcome email costs the outbox.
//
//   node delivery-target.mjs <warmup> <messages>
import { OutboxDispatcher } from '../../src/core/outbox/outbox-dispatcher.js';
import { MemoryOutbox } from '../../src/stores/memory/memory-outbox.js';

const [warmup = '2000', messages = '0'] = process.argv.slice(2);
const outbox = new MemoryOutbox();
const dispatcher = new OutboxDispatcher(
  outbox,
  async () => true,
  { async sendWelcome() {} },
  {},
  () => new Date(),
  (error) => {
    throw error;
  },
);
let next = 0;
async function deliver(n: number): Promise<void> {
  for (let i = 0; i < n; i += 10) {
    const batch = [];
    for (let j = 0; j < 10; j++, next++) {
      batch.push({
        id: `welcome-${next.toString(36)}-${Math.random().toString(36).slice(2)}`,
        kind: 'welcome' as const,
        tenant: 't',
        userId: `user-${next}`,
        to: `user${next}@example.org`,
        givenName: 'Ada',
        familyName: 'Lovelace',
        createdAt: new Date().toISOString(),
      });
    }
    for (const message of batch) {
      outbox.record([message]);
      dispatcher.kick();
    }
    await dispatcher.drain();
  }
}
await deliver(Number(warmup));
await deliver(Number(messages));
await dispatcher.close();
const kept = outbox.snapshot();
if (kept.some((e) => e.state !== 'sent')) throw new Error('a message was not sent');
