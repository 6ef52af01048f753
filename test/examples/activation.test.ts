import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../examples/server/config.js';
import type { MailLogLine } from '../../examples/server/log-mailer.js';
import { startServer } from '../../examples/server/server.js';
import { testConfig } from './test-config.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ACCOUNT = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const auth = { authorization: 'Bearer k1', 'content-type': 'application/scim+json' };

/** A running example server on the memory store with its mail log and printed lines. */
async function serve(dir: string, extra: Partial<ServerConfig> = {}) {
  const mailLog = join(dir, `mail-${Math.random().toString(36).slice(2)}.jsonl`);
  const printed: string[] = [];
  const running = await startServer(testConfig({ mailLog, ...extra }), {
    print: (text) => printed.push(text),
  });
  const mails = (): MailLogLine[] =>
    existsSync(mailLog)
      ? readFileSync(mailLog, 'utf8')
          .split('\n')
          .slice(0, -1)
          .map((line) => JSON.parse(line) as MailLogLine)
      : [];
  /** Waits for the user's `count`-th email and returns its activation link. */
  const link = async (userId: string, count = 1): Promise<string> => {
    const mine = () => mails().filter((m) => m.userId === userId);
    await expect.poll(() => mine().length, { timeout: 5000 }).toBe(count);
    return mine()[count - 1]!.activationLink;
  };
  const create = async (userName: string): Promise<string> => {
    const response = await fetch(`${running.url}/Users`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ schemas: [USER_SCHEMA], userName, active: true }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const status = async (id: string): Promise<string | undefined> => {
    const response = await fetch(`${running.url}/Users/${id}`, { headers: auth });
    return ((await response.json()) as Record<string, { status?: string }>)[ACCOUNT]?.status;
  };
  const setActive = async (id: string, active: boolean) => {
    const response = await fetch(`${running.url}/Users/${id}`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify({
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'active', value: active }],
      }),
    });
    expect(response.status).toBe(200);
  };
  return { running, printed, mails, link, create, status, setActive };
}

/** Posts the activation form the page's button sends. */
function post(link: string, body: string | URLSearchParams = tokenForm(link)) {
  return fetch(new URL('/activate', link), { method: 'POST', body });
}

function tokenForm(link: string): URLSearchParams {
  return new URLSearchParams({ token: new URL(link).searchParams.get('token') ?? '' });
}

describe('activation links', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-activation-'));
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve(dir);
  });
  afterAll(async () => {
    await server.running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows a page on GET, safe for mail scanners, and activates only on the POST of its button', async () => {
    const id = await server.create('scanned@example.org');
    const link = await server.link(id);
    // A link scanner opens the link, twice, and may follow HEAD too: nothing changes.
    for (const method of ['GET', 'GET', 'HEAD']) {
      const page = await fetch(link, { method });
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      if (method === 'GET') {
        const html = await page.text();
        expect(html).toContain('<form method="post" action="/activate">');
        expect(html).toContain('scanned@example.org');
      }
    }
    expect(await server.status(id)).toBe('Invited');

    const done = await post(link);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Account activated');
    expect(await server.status(id)).toBe('Activated');
  });

  it('works once: after activation the link is refused on GET and POST', async () => {
    const id = await server.create('once@example.org');
    const link = await server.link(id);
    expect((await post(link)).status).toBe(200);
    for (const response of [await fetch(link), await post(link)]) {
      expect(response.status).toBe(410);
      expect(await response.text()).toContain('already been used');
    }
  });

  it('dies on deactivation; a reactivation sends a new invitation whose link alone works', async () => {
    const id = await server.create('returning@example.org');
    const old = await server.link(id);
    await server.setActive(id, false);
    expect((await fetch(old)).status).toBe(410);
    await server.setActive(id, true);
    expect(await server.status(id)).toBe('Invited');
    const fresh = await server.link(id, 2);
    expect(fresh).not.toBe(old);
    const refused = await post(old);
    expect(refused.status).toBe(410);
    expect(await refused.text()).toContain('newer invitation');
    expect(await server.status(id)).toBe('Invited');
    expect((await post(fresh)).status).toBe(200);
    expect(await server.status(id)).toBe('Activated');
  });

  it('sends one invitation to a user created inactive and made active later', async () => {
    const response = await fetch(`${server.running.url}/Users`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ schemas: [USER_SCHEMA], userName: 'later@example.org' }),
    });
    const { id } = (await response.json()) as { id: string };
    await server.setActive(id, true);
    const link = await server.link(id);
    await new Promise((resolve) => setTimeout(resolve, 200)); // room for a second email
    expect(server.mails().filter((m) => m.userId === id)).toHaveLength(1);
    expect((await post(link)).status).toBe(200);
  });

  it('is replaced by a resent invitation: only the newest email activates', async () => {
    const id = await server.create('resent@example.org');
    const first = await server.link(id);
    expect(await server.running.scim.users.resendInvitation('t1', id)).toBe(true);
    const second = await server.link(id, 2);
    expect((await post(first)).status).toBe(410);
    expect((await post(second)).status).toBe(200);
  });

  it('refuses forged, truncated, foreign and missing tokens with a 400 page', async () => {
    const id = await server.create('forged@example.org');
    const link = await server.link(id);
    const token = new URL(link).searchParams.get('token')!;
    const [payload = '', signature = ''] = token.split('.');
    const other = Buffer.from(
      JSON.stringify({ t: 't1', u: id, i: 'welcome-x', e: Date.now() + 1e9 }),
    ).toString('base64url');
    for (const bad of [
      `${payload}.${signature.slice(1)}`,
      `${other}.${signature}`,
      token.slice(0, 40),
      '',
      '.',
      '%%%',
    ]) {
      const url = new URL(link);
      url.searchParams.set('token', bad);
      const page = await fetch(url);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('not valid');
      expect((await post(link, new URLSearchParams({ token: bad }))).status).toBe(400);
    }
    const origin = new URL(link).origin;
    expect((await fetch(`${origin}/activate`)).status).toBe(400);
    expect(await server.status(id)).toBe('Invited');
  });

  it('answers a wrong form with a 4xx, never a 500, and activates nothing', async () => {
    const id = await server.create('wrong-form@example.org');
    const link = await server.link(id);
    const target = new URL('/activate', link);
    const json = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(link).searchParams.get('token') }),
    });
    expect(json.status).toBe(415);
    // The server answers 413 and closes the connection rather than read the rest.
    const huge = await post(link, new URLSearchParams({ token: 'x'.repeat(10_000) }));
    expect(huge.status).toBe(413);
    const put = await fetch(target, { method: 'PUT', body: tokenForm(link) });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await server.status(id)).toBe('Invited');
  });

  it('prints no usable link in the log, only where the developer finds the email', async () => {
    const id = await server.create('quiet@example.org');
    const link = await server.link(id);
    const token = new URL(link).searchParams.get('token')!;
    // The mailer appends to the mail log, then prints: the line may follow the link a moment.
    const mine = () => server.printed.filter((line) => line.includes('quiet@example.org'));
    await expect.poll(() => mine().length, { timeout: 5000 }).toBe(1);
    const lines = mine();
    expect(lines[0]).toContain('its activation link is in');
    expect(lines[0]).toContain('/activate?token=…');
    expect(server.printed.join('\n')).not.toContain(token);
    expect(server.printed.join('\n')).not.toContain(token.split('.')[1]);
  });
});

describe('activation link lifetime', () => {
  it('expires: an old link gets a 410 page and activates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scimkit-activation-'));
    const server = await serve(dir, { activationLinkTtlMs: 1 });
    try {
      const id = await server.create('late@example.org');
      const link = await server.link(id);
      const page = await fetch(link);
      expect(page.status).toBe(410);
      expect(await page.text()).toContain('expired');
      expect((await post(link)).status).toBe(410);
      expect(await server.status(id)).toBe('Invited');
    } finally {
      await server.running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
