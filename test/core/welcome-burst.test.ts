// A burst of creates made in process must not outrun the welcome subscriber of a memory store,
// whose log keeps only its most recent `eventsKept` events: a write that has woken it often
// enough starts its round at once, rather than after the spacing that spares a database a round
// per write (timers do not fire while a loop of awaited calls runs).
import { afterEach, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys, type Scim } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { USER_SCHEMA } from '../../src/schema/urns.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };
const USERS = 3_000;
const services: Scim[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((scim) => scim.close()));
});

function service() {
  const sent = new Set<string>();
  const errors: unknown[] = [];
  const scim = createScim({
    // 1,000 events is a third of what the burst records (a create active records two).
    store: new MemoryUserStore({ eventsKept: 1_000 }),
    verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
    userNameRule: 'email',
    mailer: {
      async sendWelcome(email) {
        sent.add(email.to);
      },
    },
    onError: (error) => errors.push(error),
  });
  services.push(scim);
  const create = async (i: number) => {
    const body = JSON.stringify({
      schemas: [USER_SCHEMA],
      userName: `u${i}@example.org`,
      active: true,
    });
    const response = await scim.handle({ method: 'POST', path: '/Users', headers, body });
    expect(response.status).toBe(201);
  };
  return { scim, sent, errors, create };
}

describe('the welcome email on the memory store, after a burst of creates in process', () => {
  it('sends every email of users created one after another, with nothing between them', async () => {
    const { scim, sent, errors, create } = service();
    for (let i = 0; i < USERS; i++) await create(i);
    await scim.mail?.drain();
    expect(errors).toEqual([]);
    expect(sent.size).toBe(USERS);
  });

  it('sends every email of users created 16 at once', async () => {
    const { scim, sent, errors, create } = service();
    let next = 0;
    const caller = async () => {
      while (next < USERS) {
        await create(next++);
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all(Array.from({ length: 16 }, caller));
    await scim.mail?.drain();
    expect(errors).toEqual([]);
    expect(sent.size).toBe(USERS);
  });
});
