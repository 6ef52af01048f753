// The host chooses the userName rule; the RFC's is the library's default, the
// contract's email rule and a host function are options, and POST, PUT and PATCH apply the
// same one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserNameRule } from '../../src/index.js';
import { everyStore } from './every-store.js';
import { USER_SCHEMA, patchBody, setup } from './harness.js';

const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;
/** `n` random CJK ideographs: three bytes each in UTF-8, and they do not compress. */
const ideographs = (n: number) =>
  Array.from({ length: n }, () =>
    String.fromCharCode(0x4e00 + Math.floor(Math.random() * 20_000)),
  ).join('');

/**
 * POST, PUT, PATCH with a path and PATCH without one, each with `userName`, answer 400
 * `invalidValue` with `detail`, and `user` stays as it was.
 */
async function expectRefusedEverywhere(
  { request }: ReturnType<typeof setup>,
  user: { id: string },
  userName: string,
  detail: string,
) {
  const writes = [
    ['POST', '/Users', { schemas: [USER_SCHEMA], userName }],
    ['PUT', `/Users/${user.id}`, { schemas: [USER_SCHEMA], userName }],
    ['PATCH', `/Users/${user.id}`, patchBody({ op: 'replace', path: 'userName', value: userName })],
    ['PATCH', `/Users/${user.id}`, patchBody({ op: 'add', value: { userName } })],
  ] as const;
  for (const [method, path, body] of writes) {
    const reply = await request(method, path, { body });
    expect([reply.status, reply.body.scimType], method).toEqual([400, 'invalidValue']);
    expect(reply.body.detail, method).toBe(detail);
  }
  expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
}

describe.each(everyStore)('userName rules on the $name store', ({ open }) => {
  let opened: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    opened = await open();
  }, 60_000);
  afterAll(() => opened.close());
  const service = (userNameRule?: UserNameRule) =>
    setup({
      store: opened.store,
      onError: () => undefined,
      ...(userNameRule === undefined ? {} : { userNameRule }),
    });

  it('by default (the RFC rule) "jdoe" is created, found in any case, patched, replaced and deleted', async () => {
    const { request } = service();
    const created = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'jdoe', displayName: 'J' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const found = await request('GET', '/Users', { query: q('userName eq "JDOE"') });
    expect(found.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);
    const clash = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'JDoe' },
    });
    expect([clash.status, clash.body.scimType]).toEqual([409, 'uniqueness']);

    const patched = await request('PATCH', `/Users/${id}`, {
      body: patchBody(
        { op: 'replace', path: 'userName', value: 'j.doe' },
        { op: 'replace', path: 'displayName', value: 'JD' },
      ),
    });
    expect([patched.status, patched.body.userName, patched.body.displayName]).toEqual([
      200,
      'j.doe',
      'JD',
    ]);
    const replaced = await request('PUT', `/Users/${id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'JDoe-2' },
    });
    expect([replaced.status, replaced.body.userName]).toEqual([200, 'JDoe-2']);
    expect(
      (await request('GET', '/Users', { query: q('userName eq "jdoe-2"') })).body.totalResults,
    ).toBe(1);

    expect((await request('DELETE', `/Users/${id}`)).status).toBe(204);
    expect(
      (await request('GET', '/Users', { query: q('userName eq "jdoe-2"') })).body.totalResults,
    ).toBe(0);
  });

  it('512 characters that take 3 bytes each are stored; 513 are a 400, not a store failure', async () => {
    const { request } = service('rfc');
    const longest = ideographs(512);
    const created = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: longest },
    });
    expect(created.status).toBe(201);
    expect(
      (await request('GET', '/Users', { query: q(`userName eq "${longest}"`) })).body.totalResults,
    ).toBe(1);
    const tooLong = ideographs(513);
    const refused = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: tooLong },
    });
    expect([refused.status, refused.body.scimType]).toEqual([400, 'invalidValue']);
    expect(refused.body.detail).toMatch(/at most 512 characters \(userNameRule "rfc"\); got 513/);
    const patched = await request('PATCH', `/Users/${created.body.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: tooLong }),
    });
    expect(patched.status).toBe(400);
    expect(
      (await request('GET', '/Users', { query: q(`userName eq "${tooLong}"`) })).body.totalResults,
    ).toBe(0);
  });

  it('the email rule keeps the contract: a non-address is a 400 naming the rule, on POST, PUT and PATCH', async () => {
    const h = service('email');
    const ada = await h.createUser('ada.rule@example.org');
    await expectRefusedEverywhere(
      h,
      ada,
      'ada',
      '"userName" must be an email address (userNameRule "email"); got "ada".',
    );
    const { request } = h;
    expect(
      (await request('GET', '/Users', { query: q('userName eq "ada"') })).body.totalResults,
    ).toBe(0);
  });

  it("a host function's reason reaches the 400 of POST, PUT and PATCH, and nothing is written", async () => {
    const asked: string[] = [];
    const rule = (userName: string) => {
      asked.push(userName);
      return userName.startsWith('s') ? undefined : 'a student number starts with "s"';
    };
    const h = service(rule);
    const s1 = await h.createUser('s1001');
    await expectRefusedEverywhere(
      h,
      s1,
      't1',
      `"userName" was refused by the host's userNameRule: a student number starts with "s"; got "t1".`,
    );
    expect(asked).toEqual(['s1001', 't1', 't1', 't1', 't1']);
  });

  it('every rule refuses a control character, on POST, PUT and PATCH', async () => {
    for (const rule of ['rfc', 'email', () => undefined] as UserNameRule[]) {
      const { request, createUser } = service(rule);
      const user = await createUser(`cc-${typeof rule}-${String(rule).length}@example.org`);
      for (const [method, path, body] of [
        ['POST', '/Users', { schemas: [USER_SCHEMA], userName: 'a\u0085@example.org' }],
        ['PUT', `/Users/${user.id}`, { schemas: [USER_SCHEMA], userName: 'a\u001b@example.org' }],
        [
          'PATCH',
          `/Users/${user.id}`,
          patchBody({ op: 'replace', path: 'userName', value: 'a\u007f@example.org' }),
        ],
      ] as const) {
        const reply = await request(method, path, { body });
        expect([reply.status, reply.body.scimType], `${method} ${String(rule)}`).toEqual([
          400,
          'invalidValue',
        ]);
        expect(reply.body.detail).toMatch(/control character/);
      }
      expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
    }
  });

  it('every rule refuses leading or trailing white space: "  ada  " is no second account beside "ada"', async () => {
    const rules: UserNameRule[] = ['rfc', 'email', () => undefined];
    for (const [n, rule] of rules.entries()) {
      const h = service(rule);
      const userName = `padded-${n}@example.org`;
      const user = await h.createUser(userName);
      for (const padded of [
        `  ${userName}  `,
        ` ${userName}`,
        `${userName} `,
        `\u00a0${userName}`,
        `${userName}\u3000`,
        `\ufeff${userName}`,
      ]) {
        await expectRefusedEverywhere(
          h,
          user,
          padded,
          `"userName" must not begin or end with white space, under every userNameRule; got "${padded}".`,
        );
      }
      const found = await h.request('GET', '/Users', { query: q(`userName eq "${userName}"`) });
      expect(found.body.totalResults).toBe(1);
    }
  });

  it('a userName stored under a looser rule stays usable: other changes pass, a new userName must follow the rule', async () => {
    const jdoe = await service('rfc').createUser('kept-jdoe');
    const { request } = service('email');
    const patched = await request('PATCH', `/Users/${jdoe.id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Kept' }),
    });
    expect([patched.status, patched.body.userName]).toEqual([200, 'kept-jdoe']);
    const replaced = await request('PUT', `/Users/${jdoe.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'kept-jdoe', displayName: 'Kept again' },
    });
    expect(replaced.status).toBe(200);
    const renamed = await request('PATCH', `/Users/${jdoe.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: 'KEPT-JDOE' }),
    });
    expect([renamed.status, renamed.body.scimType]).toEqual([400, 'invalidValue']);
  });
});

describe('a host rule that throws', () => {
  it('is a fault of the host: 500, onError gets the error, nothing is written', async () => {
    const errors: unknown[] = [];
    const fault = new Error('rule database down');
    const { request, allUsers } = setup({
      userNameRule: () => {
        throw fault;
      },
      onError: (error) => errors.push(error),
    });
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'jdoe' },
    });
    expect(reply.status).toBe(500);
    expect(errors).toEqual([fault]);
    expect(await allUsers()).toEqual([]);
  });
});

describe('a userNameRule that is no rule', () => {
  it('stops createScim at start, naming the option', () => {
    expect(() => setup({ userNameRule: 'RFC' as UserNameRule })).toThrow(
      'createScim: userNameRule must be "rfc", "email" or a function; got "RFC".',
    );
  });
});
