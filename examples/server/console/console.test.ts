import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestCompletedEvent } from '../../../src/index.js';
import { testConfig } from '../../../test/examples/test-config.js';
import { postSignIn } from '../../../test/examples/console-client.js';
import { startServer, type RunningServer } from '../server.js';
import { diffResources } from './diff.js';
import { markup } from './html.js';
import { DevMailbox } from './mailbox.js';
import { REQUEST_HISTORY, RequestLog } from './request-log.js';

const event = (tenant: string | undefined, status = 200) =>
  ({
    type: 'request.completed',
    tenant,
    status,
    method: 'GET',
    path: '/x',
    at: '',
    latencyMs: 1,
    body: undefined,
    bodyBytes: 0,
    error: undefined,
    before: undefined,
    after: undefined,
    normalisations: [],
    rulesFired: [],
  }) as RequestCompletedEvent;

describe('console pieces', () => {
  it('html escapes every interpolated value but its own fragments', () => {
    const name = '<img src=x onerror="alert(1)">&\'';
    expect(markup`<td>${name}</td>${markup`<b>${1}</b>`}`.text).toBe(
      '<td>&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#38;&#39;</td><b>1</b>',
    );
  });

  it('keeps the last requests per tenant, newest first, and none without a tenant', () => {
    const log = new RequestLog();
    expect(log.record(event(undefined, 401))).toBe(false);
    for (let i = 0; i < REQUEST_HISTORY + 5; i++) log.record(event('a', 200 + (i % 2)));
    log.record(event('b', 404));
    expect(log.list('a')).toHaveLength(REQUEST_HISTORY);
    expect(log.list('a')[0]!.seq).toBeGreaterThan(log.list('a')[1]!.seq);
    expect(log.list('b').map((e) => e.status)).toEqual([404]);
    expect(log.list('nobody')).toEqual([]);
  });

  it('replaces a retried email in the mailbox with its new link', () => {
    const mailbox = new DevMailbox();
    const mail = { tenant: 't', userId: 'u', to: 'a@x', key: 'k', at: '' };
    mailbox.record({ ...mail, activationLink: 'first' });
    mailbox.record({ ...mail, activationLink: 'second' });
    expect(mailbox.list('t').map((m) => m.activationLink)).toEqual(['second']);
    expect(mailbox.changes).toBe(2);
  });

  it('diffs attributes and sub-attributes, not meta', () => {
    expect(
      diffResources(
        { active: true, name: { givenName: 'A' }, meta: { version: '1' } },
        { active: false, name: { givenName: 'A' }, meta: { version: '2' } },
      ),
    ).toEqual([{ path: 'active', before: true, after: false }]);
  });
});

describe('console over HTTP', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testConfig({ userNameRule: 'rfc' }), { print: () => undefined });
  });
  afterAll(() => running.close());

  it('signs in with an API key into an HttpOnly, SameSite=Strict cookie with a random id', async () => {
    expect((await postSignIn(running.consoleUrl, 't1', 'wrong')).status).toBe(401);
    const first = await postSignIn(running.consoleUrl, 't1', 'k1');
    const second = await postSignIn(running.consoleUrl, 't1', 'k1');
    expect(first.status).toBe(303);
    const cookie = ([first.headers['set-cookie']].flat()[0] ?? '') as string;
    expect(cookie).toMatch(
      /^scimkit_console=[\w-]{43}; Path=\/console; HttpOnly; SameSite=Strict$/,
    );
    expect(second.headers['set-cookie']).not.toEqual(first.headers['set-cookie']);
    const page = await fetch(running.consoleUrl, { headers: { cookie: cookie.split(';')[0]! } });
    expect(await page.text()).toContain('<b id="tenant">t1</b>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('renders a hostile userName and request body as text', async () => {
    const userName = '<img src=x onerror=alert(1)>';
    const created = await fetch(`${running.url}/Users`, {
      method: 'POST',
      headers: { authorization: 'Bearer k1', 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName,
        password: 'sekret-9',
      }),
    });
    expect(created.status).toBe(201);
    const page = await (
      await fetch(running.consoleUrl, { headers: { authorization: 'Bearer k1' } })
    ).text();
    expect(page).not.toContain('<img');
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(page).not.toContain('sekret-9');
    expect(page).toContain('[redacted]');
  });

  it('shows a GET with its query, and a refused request with the SCIM error it was answered', async () => {
    const auth = { authorization: 'Bearer k1' };
    const listed = await fetch(`${running.url}/Users?count=7&startIndex=2`, { headers: auth });
    expect(listed.status).toBe(200);
    const refused = await fetch(
      `${running.url}/Users?filter=${encodeURIComponent('userName zz')}`,
      {
        headers: auth,
      },
    );
    expect(refused.status).toBe(400);
    const { detail } = (await refused.json()) as { detail: string };
    const page = await (await fetch(running.consoleUrl, { headers: auth })).text();
    expect(page).toContain('/Users?count=7&#38;startIndex=2</span>');
    const row = /<summary>(?:(?!<\/summary>)[\s\S])*?\/Users\?filter=[\s\S]*?<\/summary>/.exec(
      page,
    )?.[0];
    expect(row).toContain('<code>invalidFilter</code>');
    expect(row).toContain(markup`${detail}`.text);
  });

  it('lists the dialect rules a request fired', async () => {
    const headers = { authorization: 'Bearer k1', 'content-type': 'application/scim+json' };
    const created = await fetch(`${running.url}/Users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'rules@example.org',
      }),
    });
    const { id } = (await created.json()) as { id: string };
    const patched = await fetch(`${running.url}/Users/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', path: 'title', value: null }],
      }),
    });
    expect(patched.status).toBe(200);
    const page = await (
      await fetch(running.consoleUrl, { headers: { authorization: 'Bearer k1' } })
    ).text();
    const fired = /<ul class="rules-fired">([\s\S]*?)<\/ul>/.exec(page)?.[1] ?? '';
    expect(fired).toContain('<code>opAnyCase</code> at <code>Operations[0].op</code>');
    expect(fired).toContain('<code>nullClears</code> at <code>Operations[0].value</code>');
    expect(fired).toContain('(removed)');
  });

  it('answers the live poll with 204 when nothing changed, and 401 when signed out', async () => {
    const auth = { authorization: 'Bearer k1' };
    const live = await fetch(`${running.consoleUrl}/live`, { headers: auth });
    const { stamp } = (await live.json()) as { stamp: string };
    const again = await fetch(`${running.consoleUrl}/live?stamp=${stamp}`, { headers: auth });
    expect(again.status).toBe(204);
    expect((await fetch(`${running.consoleUrl}/live`)).status).toBe(401);
    expect((await fetch(`${running.consoleUrl}/nope`, { headers: auth })).status).toBe(404);
    expect(
      (await fetch(`${running.consoleUrl}/assets/console.js`)).headers.get('content-type'),
    ).toMatch(/javascript/);
  });
});
