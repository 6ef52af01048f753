// The console's setup page: the SCIM base URL, the tenant's keys (issue, rotate, revoke) and
// the IdP steps, over HTTP on every store the example server runs on.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDP_SETUPS } from '../../examples/server/console/idp-setup.js';
import { runKeyAction } from '../../examples/server/console/key-actions.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { MemoryKeyStore } from '../../src/index.js';
import { consoleRequest, postForm, signIn, type ConsoleSession } from './console-client.js';
import { discard, exampleStores } from './example-stores.js';
import { testConfig } from './test-config.js';

const PUBLIC_URL = 'https://scim.example.org/hr';

describe('the setup page agrees with docs/idp.md', () => {
  const doc = readFileSync(new URL('../../docs/idp.md', import.meta.url), 'utf8');
  const section = (name: string) => {
    const start = doc.indexOf(`\n## ${name}\n`);
    const end = doc.indexOf('\n## ', start + 1);
    return doc
      .slice(start, end)
      .replace(/\*\*|`/g, '')
      .replace(/\s+/g, ' ');
  };

  it.each(IDP_SETUPS.map((idp) => [idp.name, idp] as const))(
    'names the places, fields and values of %s as the doc does',
    (name, idp) => {
      const text = section(name);
      expect(text).toContain('Connect.');
      for (const step of idp.where) expect(text).toContain(step);
      for (const field of idp.fields) {
        expect(text).toContain(field.label);
        if ('text' in field.value) expect(text).toContain(field.value.text);
      }
    },
  );

  it('covers the five IdPs the doc connects', () => {
    const documented = [...doc.matchAll(/\n## (.+)\n\n\*\*Connect\.\*\*/g)].map((m) => m[1]);
    expect(IDP_SETUPS.map((idp) => idp.name).sort()).toEqual(documented.sort());
  });
});

describe('key actions stay inside the tenant', () => {
  it("refuses to rotate or revoke another tenant's key, and changes nothing", async () => {
    const keys = new MemoryKeyStore();
    const theirs = await keys.issue('other');
    for (const verb of ['rotate', 'revoke'] as const) {
      const result = await runKeyAction(keys, 'mine', verb, new URLSearchParams({ id: theirs.id }));
      expect(result.problem).toContain('no key with the id');
    }
    expect(await keys.verify(theirs.secret)).not.toBeNull();
    expect(await keys.list('other')).toHaveLength(1);
  });
});

describe('the setup page with SCIM_API_KEYS', () => {
  it('shows the base URL and the steps, and leaves the keys to SCIM_API_KEYS', async () => {
    const running = await startServer(testConfig(), { print: () => undefined });
    try {
      const session = await signIn(running.consoleUrl, 't1', 'k1');
      const page = await consoleRequest(`${running.consoleUrl}/setup`, {
        headers: { cookie: session.cookie },
      });
      expect(page.text).toContain(`<code id="base-url">${running.url}</code>`);
      expect(page.text).toContain('takes its keys from <code>SCIM_API_KEYS</code>');
      expect(page.text).not.toContain('id="issue-key"');
      const refused = await postForm(`${running.consoleUrl}/keys/issue`, session, {});
      expect(refused.status).toBe(403);
    } finally {
      await running.close();
    }
  });
});

describe.each(exampleStores('console_setup'))('the setup page on $name', (store) => {
  let running: RunningServer;
  let config: ReturnType<typeof store.config> | undefined;
  let admin: ConsoleSession;
  const setupUrl = () => `${running.consoleUrl}/setup`;
  const scimStatus = async (key: string) =>
    (await fetch(`${running.url}/Users`, { headers: { authorization: `Bearer ${key}` } })).status;

  beforeAll(async () => {
    if (store.skip) return;
    config = store.config();
    // No SCIM_API_KEYS: the keys live in the store's database, with a development key.
    running = await startServer(testConfig({ keys: [], store: config, publicUrl: PUBLIC_URL }), {
      print: () => undefined,
    });
    admin = await signIn(running.consoleUrl, 'dev', running.devKey?.key ?? '');
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    if (config) await discard(config);
  });

  it.skipIf(store.skip)(
    'shows the base URL from the public URL and each IdP step with it',
    async () => {
      const page = await consoleRequest(setupUrl(), { headers: { cookie: admin.cookie } });
      expect(page.status).toBe(200);
      const base = `${PUBLIC_URL}/api/v1/scim/v2`;
      expect(page.text).toContain(`<code id="base-url">${base}</code>`);
      for (const idp of IDP_SETUPS) {
        const block = new RegExp(`id="idp-${idp.id}"[\\s\\S]*?</details>`).exec(page.text)?.[0];
        expect(block).toContain(`<code class="base-url">${base}</code>`);
        for (const field of idp.fields) expect(block).toContain(`<b>${field.label}</b>`);
      }
      expect(page.text).toContain('development key');
    },
  );

  it.skipIf(store.skip)(
    'issues a key shown once, lists it, and a revoked key stops working',
    async () => {
      const issued = await postForm(`${setupUrl().replace('/setup', '')}/keys/issue`, admin, {
        label: 'entra production',
        scope: 'write',
        expires: '90',
      });
      expect(issued.status).toBe(200);
      const secret = /<code id="secret">(scimkit_[^<]+)<\/code>/.exec(issued.text)?.[1] ?? '';
      expect(secret).toMatch(/^scimkit_[0-9a-f]{16}_/);
      const id = secret.split('_')[1] ?? '';
      expect(await scimStatus(secret)).toBe(200);

      const listed = await consoleRequest(setupUrl(), { headers: { cookie: admin.cookie } });
      expect(listed.text).not.toContain(secret);
      const row = new RegExp(`<tr data-key-id="${id}">[\\s\\S]*?</tr>`).exec(listed.text)?.[0];
      expect(row).toContain('entra production');
      expect(row).toContain(`scimkit_${id}_…`);
      expect(row).toContain('scim:read, scim:write');
      expect(row).toMatch(/<time>\d{4}-\d\d-\d\dT/);
      expect(row).toContain('active');

      const revoked = await postForm(`${running.consoleUrl}/keys/revoke`, admin, { id });
      expect(revoked.status).toBe(303);
      expect(await scimStatus(secret)).toBe(401);
      const after = await consoleRequest(setupUrl(), { headers: { cookie: admin.cookie } });
      expect(new RegExp(`<tr data-key-id="${id}">[\\s\\S]*?</tr>`).exec(after.text)?.[0]).toContain(
        'revoked',
      );
    },
  );

  it.skipIf(store.skip)(
    'rotates a key: the successor works and the old key keeps working for the overlap',
    async () => {
      const first = await postForm(`${running.consoleUrl}/keys/issue`, admin, { label: 'okta' });
      const old = /<code id="secret">([^<]+)<\/code>/.exec(first.text)?.[1] ?? '';
      const rotated = await postForm(`${running.consoleUrl}/keys/rotate`, admin, {
        id: old.split('_')[1] ?? '',
      });
      expect(rotated.status).toBe(200);
      const next = /<code id="secret">([^<]+)<\/code>/.exec(rotated.text)?.[1] ?? '';
      expect(next).not.toBe(old);
      expect(await scimStatus(next)).toBe(200);
      expect(await scimStatus(old)).toBe(200);
    },
  );

  it.skipIf(store.skip)(
    'ends the console sessions of a revoked key, and gives a read-only key no key actions',
    async () => {
      const issued = await postForm(`${running.consoleUrl}/keys/issue`, admin, { scope: 'read' });
      const secret = /<code id="secret">([^<]+)<\/code>/.exec(issued.text)?.[1] ?? '';
      const reader = await signIn(running.consoleUrl, 'dev', secret);
      const page = await consoleRequest(setupUrl(), { headers: { cookie: reader.cookie } });
      expect(page.text).not.toContain('id="issue-key"');
      const refused = await postForm(`${running.consoleUrl}/keys/issue`, reader, {});
      expect(refused.status).toBe(403);

      await postForm(`${running.consoleUrl}/keys/revoke`, admin, { id: secret.split('_')[1]! });
      const after = await consoleRequest(running.consoleUrl, {
        headers: { cookie: reader.cookie },
      });
      expect(after.text).toContain('name="key"');
      expect(after.text).not.toContain('id="tenant"');
    },
  );

  it.skipIf(store.skip)('refuses a bad form with a reason and issues nothing', async () => {
    const before = await consoleRequest(setupUrl(), { headers: { cookie: admin.cookie } });
    const rows = (text: string) => text.match(/<tr data-key-id=/g)?.length ?? 0;
    for (const form of [
      { scope: 'admin' },
      { expires: '7' },
      { label: 'x'.repeat(201) },
      { label: 'nul\u0000byte' },
    ]) {
      const reply = await postForm(`${running.consoleUrl}/keys/issue`, admin, form);
      expect(reply.status).toBe(400);
      expect(reply.text).toMatch(/<p class="error" id="problem">\S/);
    }
    const unknown = await postForm(`${running.consoleUrl}/keys/revoke`, admin, { id: 'nope' });
    expect(unknown.status).toBe(400);
    const forged = await postForm(
      `${running.consoleUrl}/keys/issue`,
      admin,
      {},
      { origin: 'https://attacker.example' },
    );
    expect(forged.status).toBe(403);
    const after = await consoleRequest(setupUrl(), { headers: { cookie: admin.cookie } });
    expect(rows(after.text)).toBe(rows(before.text));
  });
});
