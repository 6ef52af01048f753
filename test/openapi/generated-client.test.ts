import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, startServer, type RunningServer } from '../../examples/server/server.js';
import { testConfig } from '../examples/test-config.js';

// A client generated from the served document: openapi-typescript turns the document into
// types, a small openapi-fetch program uses them, the TypeScript compiler checks the program
// against them, and the program then runs against the example server. A path or body the
// document gets wrong fails the compile or the run.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

type Status = 'Pending' | 'Invited' | 'Activated' | 'Deactivated';

export async function createAndRead(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + key } });
  const created = await client.POST('/Users', {
    body: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'ada@example.org',
      active: true,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: 'ada@example.org', type: 'work', primary: true }],
    },
  });
  if (!created.data) throw new Error('create failed: ' + JSON.stringify(created.error));
  const id: string = created.data.id;
  const read = await client.GET('/Users/{id}', { params: { path: { id } } });
  if (!read.data) throw new Error('read failed: ' + JSON.stringify(read.error));
  const status: Status | undefined =
    read.data['urn:scimkit:params:scim:schemas:extension:account:2.0:User']?.status;
  const found = await client.GET('/Users', {
    params: { query: { filter: 'userName eq "ADA@example.org"', count: 10 } },
  });
  const missing = await client.GET('/Users/{id}', { params: { path: { id: 'no-such-id' } } });
  return {
    created: created.response.status,
    location: created.response.headers.get('location'),
    id,
    read: read.response.status,
    etag: read.response.headers.get('etag'),
    userName: read.data.userName,
    givenName: read.data.name?.givenName,
    status,
    found: found.data?.Resources.map((user) => user.id),
    missing: [missing.response.status, missing.error?.status] as const,
  };
}

// Never called: what the document must refuse.
export function refused(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error no such path
  void client.GET('/Userz');
  // @ts-expect-error no body on a GET
  void client.GET('/Users', { body: {} });
  // @ts-expect-error userName is required
  void client.POST('/Users', { body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'] } });
}
`;

/** Generates the types of `document` and the client beside them in a fresh folder. */
async function generate(document: unknown): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-openapi-'));
  // openapi-fetch and typescript resolve from the project's node_modules.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const ast = await openapiTS(structuredClone(document) as never);
  writeFileSync(join(dir, 'schema.ts'), astToString(ast));
  writeFileSync(join(dir, 'client.ts'), CLIENT);
  return dir;
}

/** Type-checks the generated client; returns the compiler's complaints. */
function typecheck(dir: string): string[] {
  const program = ts.createProgram([join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('a client generated from the OpenAPI document', () => {
  let running: RunningServer;
  let origin: string;
  let served: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const dirs: string[] = [];

  beforeAll(async () => {
    running = await startServer(testConfig(), { print: () => undefined });
    origin = running.url.slice(0, -BASE_PATH.length);
    const response = await fetch(`${origin}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    served = await response.json();
  });
  afterAll(async () => {
    await running?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is served by the example server with its own address', async () => {
    expect(served.servers).toEqual([{ url: running.url }]);
    expect((await fetch(`${origin}/openapi.json`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${origin}/openapi.json`, { method: 'POST' })).status).toBe(405);
  });

  it(
    'compiles, then creates and reads a user on the example server',
    { timeout: 120_000 },
    async () => {
      const dir = await generate(served);
      dirs.push(dir);
      expect(typecheck(dir)).toEqual([]);
      const client = (await import(join(dir, 'client.ts'))) as {
        createAndRead(baseUrl: string, key: string): Promise<Record<string, unknown>>;
      };
      const result = await client.createAndRead(served.servers[0].url, 'k1');
      expect(result).toEqual({
        created: 201,
        location: `${running.url}/Users/${result.id}`,
        id: expect.any(String),
        read: 200,
        etag: expect.stringMatching(/^W\//),
        userName: 'ada@example.org',
        givenName: 'Ada',
        status: 'Invited',
        found: [result.id],
        missing: [404, '404'],
      });
    },
  );

  it(
    'does not compile when the document loses a path or a request body',
    { timeout: 120_000 },
    async () => {
      const noBody = structuredClone(served);
      delete noBody.paths['/Users'].post.requestBody;
      const moved = structuredClone(served);
      moved.paths['/User/{id}'] = moved.paths['/Users/{id}'];
      delete moved.paths['/Users/{id}'];
      for (const broken of [noBody, moved]) {
        const dir = await generate(broken);
        dirs.push(dir);
        expect(typecheck(dir).length).toBeGreaterThan(0);
      }
    },
  );
});
