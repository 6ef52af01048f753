import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createScim, staticApiKeys, type WelcomeEmail } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import {
  loadFixtures,
  mismatches,
  substitute,
  type Fixture,
  type FixtureStep,
} from './replay-support.js';

// Replays recorded identity-provider conversations (STYLE.md lesson 8): every JSON file under
// fixtures/ is one test, so adding a fixture adds a test. See docs/idp.md for what each covers.

const BASE = '/api/v1/scim/v2';
const ORIGIN = 'https://scim.example.org';
const TOKEN = 'idp-replay-token';
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../docs/idp.md', import.meta.url));

/** A fixture scimkit does not pass yet, and how it must fail meanwhile. */
interface KnownGap {
  /** The gap, as the test title shows it. */
  readonly reason: string;
  /** Text the replay's failure must contain: the fixture fails for this gap and no other. */
  readonly failsWith: string;
}

/**
 * Fixtures that assert what the IdP needs but scimkit does not answer yet. When a gap is
 * closed the replay passes, its test turns red, and the entry must go.
 */
const KNOWN_GAPS: Readonly<Record<string, KnownGap>> = {};

function service() {
  const sent: WelcomeEmail[] = [];
  const scim = createScim({
    store: new MemoryUserStore(),
    verifier: staticApiKeys([{ key: TOKEN, tenant: 'district-42' }]),
    mailer: {
      async sendWelcome(email) {
        sent.push(email);
      },
    },
    basePath: BASE,
  });
  return { scim, sent };
}

function requestOf(step: FixtureStep, scope: Record<string, unknown>) {
  const request = substitute(step.request, scope) as FixtureStep['request'];
  const [path = '', inline = ''] = request.path.split(/\?(.*)/s);
  // The inline query is sent byte for byte, as recorded; `query` parameters are encoded here.
  const extra = new URLSearchParams(request.query ?? {}).toString();
  const query = [inline, extra].filter(Boolean).join('&');
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  for (const [k, v] of Object.entries(request.headers ?? {})) headers[k.toLowerCase()] = v;
  let body: string | undefined = request.rawBody;
  if (request.body !== undefined) body = JSON.stringify(request.body);
  if (body !== undefined) headers['content-type'] ??= 'application/scim+json';
  return {
    method: request.method,
    path: `${BASE}${path}`,
    query,
    headers,
    body,
    baseUrl: ORIGIN,
  };
}

async function replay(fixture: Fixture): Promise<void> {
  const { scim, sent } = service();
  const scope: Record<string, unknown> = { $origin: ORIGIN, $base: BASE };
  try {
    for (const [index, step] of fixture.steps.entries()) {
      const label = `step ${index + 1} "${step.name}"`;
      const request = requestOf(step, scope);
      const response = await scim.handle(request);
      // An IdP's requests come seconds apart: the email a step asked for goes out before the
      // next one (a user deleted first would get none).
      await scim.mail?.drain();
      const body: unknown = response.body === undefined ? undefined : JSON.parse(response.body);
      const exchange = `${request.method} ${request.path}${request.query ? `?${request.query}` : ''} → ${response.status} ${response.body ?? ''}`;
      // Saved first, so a step can check its own Location against the id it returned.
      for (const [name, what] of Object.entries(step.save ?? {})) {
        scope[name] = what === 'headers' ? response.headers : body;
      }
      const wanted = step.expect.status;
      if (typeof wanted === 'number') expect(response.status, `${label}: ${exchange}`).toBe(wanted);
      else expect(wanted, `${label}: ${exchange}`).toContain(response.status);
      // With a choice of statuses (200 or 204), a body is checked only when there is one.
      if (step.expect.body !== undefined && (typeof wanted === 'number' || body !== undefined)) {
        const differences = mismatches(body, substitute(step.expect.body, scope));
        expect(differences.join('\n'), `${label}: ${exchange}`).toBe('');
      }
      if (step.expect.headers) {
        const wanted = substitute(step.expect.headers, scope) as Record<string, string>;
        for (const [name, value] of Object.entries(wanted)) {
          const actual = response.headers[name.toLowerCase()];
          if (value === '$present') expect(actual, `${label}: header ${name}`).toBeDefined();
          else if (value === '$absent') expect(actual, `${label}: header ${name}`).toBeUndefined();
          else expect(actual, `${label}: header ${name}`).toBe(value);
        }
      }
    }
    if (fixture.expectEmails !== undefined) {
      await scim.mail?.drain();
      expect(
        sent.map((m) => m.to),
        'welcome emails delivered',
      ).toHaveLength(fixture.expectEmails);
    }
  } finally {
    await scim.close();
  }
}

const fixtures = loadFixtures(FIXTURES);

describe('recorded IdP conversations', () => {
  for (const { file, fixture } of fixtures) {
    const gap = KNOWN_GAPS[file];
    if (gap === undefined) it(`${file}: ${fixture.description}`, () => replay(fixture));
    else
      it(`${file} [known gap: ${gap.reason}]`, async () => {
        const failure = await replay(fixture).then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
        expect(failure, 'the gap is closed: remove the fixture from KNOWN_GAPS').toBeDefined();
        expect(failure).toContain(gap.failsWith);
      });
  }
});

describe('the fixture set', () => {
  it('covers every IdP scimkit documents, each with its sources, and docs/idp.md names every file', () => {
    const docs = readFileSync(DOCS, 'utf8');
    const idps = new Set(fixtures.map((f) => f.file.split('/')[0]));
    expect([...idps].sort()).toEqual(['entra-id', 'google', 'jumpcloud', 'okta', 'onelogin']);
    for (const { file, fixture } of fixtures) {
      expect(fixture.sources.length, `${file} names its sources`).toBeGreaterThan(0);
      expect(fixture.steps.length, `${file} has steps`).toBeGreaterThan(0);
      expect(docs, `docs/idp.md mentions ${file}`).toContain(`\`${file}\``);
    }
  });

  it('lists as known gaps only fixtures that exist', () => {
    const files = new Set(fixtures.map((f) => f.file));
    expect(Object.keys(KNOWN_GAPS).filter((f) => !files.has(f))).toEqual([]);
  });

  it('names in the "Known gaps" section of docs/idp.md exactly the fixtures KNOWN_GAPS lists', () => {
    const docs = readFileSync(DOCS, 'utf8');
    const start = docs.indexOf('\n## Known gaps\n');
    expect(start, 'docs/idp.md has a "Known gaps" section').toBeGreaterThan(0);
    const end = docs.indexOf('\n## ', start + 1);
    const section = docs.slice(start, end < 0 ? undefined : end);
    const named = [...section.matchAll(/`([\w-]+\/[\w.-]+\.json)`/g)].map((m) => m[1]);
    expect(named.sort()).toEqual(Object.keys(KNOWN_GAPS).sort());
  });

  it('accepts a list of statuses, checking the body whenever the answer has one', async () => {
    const create: FixtureStep = {
      name: 'create',
      request: {
        method: 'POST',
        path: '/Users',
        body: {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: 'a@example.org',
        },
      },
      expect: { status: 201 },
      save: { user: 'body' },
    };
    const patch = (expect: FixtureStep['expect']): Fixture => ({
      description: 'a PATCH that answers 200 with the user',
      sources: ['RFC 7644 §3.5.2'],
      steps: [
        create,
        {
          name: 'patch',
          request: {
            method: 'PATCH',
            path: '/Users/{{user.id}}',
            body: {
              schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
              Operations: [{ op: 'replace', path: 'nickName', value: 'A' }],
            },
          },
          expect,
        },
      ],
    });
    await replay(patch({ status: [200, 204], body: { nickName: 'A' } }));
    await expect(replay(patch({ status: [201, 204] }))).rejects.toThrow('to include 200');
    await expect(replay(patch({ status: [200, 204], body: { nickName: 'B' } }))).rejects.toThrow(
      '$.nickName: expected "B", got "A"',
    );
  });

  it('matches partially, so a fixture fails when scimkit answers otherwise', () => {
    const user = { id: 'u1', active: false, emails: [{ value: 'a@example.org', type: 'work' }] };
    expect(
      mismatches(user, { active: false, emails: [{ type: 'work' }], password: '$absent' }),
    ).toEqual([]);
    expect(mismatches(user, { active: true })).toEqual(['$.active: expected true, got false']);
    expect(mismatches(user, { emails: [] })).toHaveLength(1);
    expect(mismatches(user, { id: '$absent', name: '$present' })).toHaveLength(2);
    expect(substitute({ path: '/Users/{{u.id}}', n: '{{u.n}}' }, { u: { id: 'x', n: 3 } })).toEqual(
      { path: '/Users/x', n: 3 },
    );
    expect(() => substitute('{{missing.id}}', {})).toThrow('unknown reference');
  });
});
