// The servers scimkit adds to the shared benchmark kit (bench/kit/servers) start with the settings
// the kit passes and answer the requests the kit's harness checks before it measures: a run whose
// sanity checks fail does not count. They run on the sources here (no build needed); the
// benchmark runs the same files on the built package.
//
// Not part of `npm test`: five servers transpiling the sources take 10–45 s to start on the shared
// 2-core machine. Run it with `npx vitest run --config bench/kit/vitest.config.ts`.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PREFIX = '/scim-under-test/v2';
const TOKEN = 'kit-test-token';
const SCIM = 'application/scim+json';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SERVERS = ['node', 'hono', 'fastify', 'express', 'fetch'] as const;

interface Running {
  readonly child: ChildProcess;
  readonly base: string;
}

/** Starts one kit server on a free loopback port, as the kit does but on the sources. */
async function start(name: string): Promise<Running> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './bench/kit/servers/from-source.mjs',
      `bench/kit/servers/${name}.mjs`,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PREFIX, SCIM_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match !== null) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${output}`)));
  });
  const base = await Promise.race([
    listening,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${name} did not start: ${output}`)), 85_000).unref(),
    ),
  ]);
  return { child, base: `${base}${PREFIX}` };
}

/** One request as the kit's harness sends it (bearer token, SCIM media type), bounded in time. */
async function call(base: string, method: string, path: string, body?: unknown, token = TOKEN) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: SCIM,
      ...(body === undefined ? {} : { 'content-type': SCIM }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    json: (text === '' ? undefined : JSON.parse(text)) as Record<string, unknown> | undefined,
  };
}

const userBody = (userName: string, i: number) => ({
  schemas: [USER_SCHEMA],
  userName,
  active: true,
  name: { givenName: `Given${i}`, familyName: `Family${i}` },
});

const running = new Map<string, Running>();

beforeAll(async () => {
  const started = await Promise.allSettled(SERVERS.map(start));
  started.forEach((s, i) => s.status === 'fulfilled' && running.set(SERVERS[i]!, s.value));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}, 90_000);

afterAll(async () => {
  await Promise.all(
    [...running.values()].map(async ({ child }) => {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }),
  );
});

describe.each(SERVERS)('the %s kit server', (name) => {
  it('answers every request the kit checks, with the kit settings', async () => {
    const { base } = running.get(name)!;
    expect(
      (await call(base, 'GET', '/Users?startIndex=1&count=1', undefined, 'wrong')).status,
    ).toBe(401);
    expect((await call(base, 'GET', '/Users?startIndex=1&count=1')).status).toBe(200);

    const rows: { id: string; userName: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const userName = `s-kit-${name}-${i}@example.com`;
      const created = await call(base, 'POST', '/Users', userBody(userName, i));
      expect(created.status).toBe(201);
      expect(created.type).toContain(SCIM);
      expect(created.json?.id).toEqual(expect.any(String));
      rows.push({ id: created.json!.id as string, userName });
    }
    const row = rows[0]!;

    const filter = encodeURIComponent(`userName eq "${row.userName}"`);
    const found = await call(base, 'GET', `/Users?filter=${filter}`);
    expect([found.status, found.type.includes(SCIM)]).toEqual([200, true]);
    expect(found.json).toMatchObject({ totalResults: 1, Resources: [{ userName: row.userName }] });

    const got = await call(base, 'GET', `/Users/${row.id}`);
    expect([got.status, got.json?.id, got.type.includes(SCIM)]).toEqual([200, row.id, true]);

    const first = await call(base, 'GET', '/Users?startIndex=1&count=100');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ totalResults: 3, startIndex: 1 });
    expect(first.json?.Resources).toHaveLength(3);
    const deep = await call(base, 'GET', '/Users?startIndex=3&count=100');
    expect(deep.json).toMatchObject({ totalResults: 3, startIndex: 3 });
    expect(deep.json?.Resources).toHaveLength(1);

    const patched = await call(base, 'PATCH', `/Users/${row.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect([patched.status, patched.json?.active, patched.type.includes(SCIM)]).toEqual([
      200,
      false,
      true,
    ]);

    const replaced = await call(base, 'PUT', `/Users/${row.id}`, userBody(row.userName, 9));
    expect([replaced.status, replaced.json?.userName, replaced.type.includes(SCIM)]).toEqual([
      200,
      row.userName,
      true,
    ]);
    expect(replaced.json?.name).toMatchObject({ givenName: 'Given9' });

    // The example configuration: userNames are email addresses.
    expect((await call(base, 'POST', '/Users', userBody('not-an-email', 0))).status).toBe(400);
  });

  it('exits with status 0 on SIGTERM, so a --cpu-prof profile is written', async () => {
    const { child } = running.get(name)!;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  });
});
