import { describe, expect, it } from 'vitest';
import type { ScimResponse } from '../../src/index.js';
import { BASE, KEY_A, ORIGIN, USER_SCHEMA, patchBody, setup } from './harness.js';

// Every `await` of the request path is a turn of the microtask queue, paid on every request.
// These bounds hold PUT and PATCH of a user on the memory store to the turns they take now;
// a layer that adds turns for nothing (awaiting a hook that is not there) fails them.
const MAX_TURNS = { put: 7, patch: 5 };

async function turnsOf(answer: Promise<ScimResponse>): Promise<[number, ScimResponse]> {
  let settled: ScimResponse | undefined;
  void answer.then((response) => (settled = response));
  let turns = 0;
  while (settled === undefined && turns < 1000) {
    await null;
    turns++;
  }
  return [turns, settled as ScimResponse];
}

describe('the turns of the microtask queue a write takes', () => {
  const headers = { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/scim+json' };
  const send = (scim: ReturnType<typeof setup>['scim'], method: string, id: string, body: object) =>
    scim.handle({
      method,
      path: `${BASE}/Users/${id}`,
      headers,
      body: JSON.stringify(body),
      baseUrl: ORIGIN,
    });

  it('PUT of a user', async () => {
    const { scim, createUser } = setup();
    const { id } = await createUser('turns@example.org');
    const body = { schemas: [USER_SCHEMA], userName: 'turns@example.org', active: true };
    const [turns, response] = await turnsOf(send(scim, 'PUT', id, body));
    expect(response.status).toBe(200);
    expect(turns).toBeLessThanOrEqual(MAX_TURNS.put);
  });

  it('PATCH of a user', async () => {
    const { scim, createUser } = setup();
    const { id } = await createUser('turns@example.org');
    const body = patchBody({ op: 'replace', path: 'active', value: false });
    const [turns, response] = await turnsOf(send(scim, 'PATCH', id, body));
    expect(response.status).toBe(200);
    expect(turns).toBeLessThanOrEqual(MAX_TURNS.patch);
  });
});
