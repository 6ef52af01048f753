// The provisioning console in a real browser: Debian's Chromium, headless, driven by
// playwright-core. Skipped, with the reason printed, only when no Chromium executable exists.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { testConfig } from '../examples/test-config.js';
import { CHROMIUM_CANDIDATES, findChromium, launchOptions } from './chromium.js';

const executablePath = findChromium();
if (!executablePath)
  console.warn(
    `test/browser: skipped, no Chromium executable at ${CHROMIUM_CANDIDATES.join(', ')} ` +
      '(apt-get install -y chromium, or set CHROMIUM_PATH)',
  );

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const HOSTILE = '<img src=x onerror="window.__xss=1">@example.org';
const WAIT = { timeout: 15_000 };

describe.skipIf(!executablePath)(
  'the provisioning console in Chromium',
  { timeout: 90_000 },
  () => {
    let running: RunningServer;
    let browser: Browser;
    let page: Page;

    const scim = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { authorization: 'Bearer k1', 'content-type': 'application/scim+json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    beforeAll(async () => {
      running = await startServer(
        // 'rfc' accepts any userName, so a hostile one reaches the page; the welcome email polls often.
        testConfig({
          keys: [
            { key: 'k1', tenant: 't1' },
            { key: 'k2', tenant: 't2' },
          ],
          userNameRule: 'rfc',
          mailDelivery: { pollIntervalMs: 100 },
        }),
        { print: () => undefined },
      );
      browser = await chromium.launch(launchOptions(executablePath ?? ''));
      page = await browser.newPage();
    });
    afterAll(async () => {
      await browser?.close();
      await running?.close();
    });

    it('refuses a wrong key and signs in with a good one, into its own tenant', async () => {
      await page.goto(running.consoleUrl);
      await page.fill('input[name=tenant]', 't1');
      await page.fill('input[name=key]', 'not-a-key');
      await page.click('button[type=submit]');
      await page.locator('.error', { hasText: 'do not match' }).waitFor(WAIT);
      await page.fill('input[name=tenant]', 't1');
      await page.fill('input[name=key]', 'k1');
      await page.click('button[type=submit]');
      await page.locator('#tenant', { hasText: 't1' }).waitFor(WAIT);
      expect(await page.textContent('#resource-types')).toContain('User');
    });

    it('follows a user from creation over SCIM to activation, and a PATCH with string booleans', async () => {
      const created = await scim('POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName: HOSTILE,
        // The welcome email goes here: the hostile userName is no address.
        emails: [{ value: 'ada@example.org', primary: true }],
        active: true,
        password: 'never-shown-1',
      });
      expect(created.status).toBe(201);
      const id = String(created.body.id);

      // The user appears, its hostile name as text: no element made of it, no script run.
      const row = page.locator(`#users tr[data-user-id="${id}"]`);
      await row.locator('.status', { hasText: 'Invited' }).waitFor(WAIT);
      expect(await row.locator('.user-name').textContent()).toBe(HOSTILE);
      expect(await page.locator('#users img, #log img').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

      // The welcome email is in the dev mailbox; its button opens the activation page.
      const open = page.locator(`#mailbox tr[data-user-id="${id}"] a.button`);
      await open.waitFor(WAIT);
      const [activation] = await Promise.all([page.waitForEvent('popup'), open.click()]);
      await activation.locator('button', { hasText: 'Activate my account' }).click();
      await activation.locator('h1', { hasText: 'Account activated' }).waitFor(WAIT);
      await activation.close();
      await row.locator('.status', { hasText: 'Activated' }).waitFor(WAIT);

      // Entra ID deactivates with a string boolean; the log names the rule that read it.
      const patched = await scim('PATCH', `/Users/${id}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      });
      expect(patched.status).toBe(200);
      await row.locator('.status', { hasText: 'Deactivated' }).waitFor(WAIT);
      const entry = page.locator('#log details.request').first();
      await entry.locator('summary', { hasText: 'PATCH' }).waitFor(WAIT);
      await entry.locator('summary').click();
      const normalisations = await entry.locator('.normalisations').textContent();
      expect(normalisations).toContain('stringBooleans');
      expect(normalisations).toContain('"False"');
      expect(await entry.locator('table.diff').textContent()).toMatch(/active\s*true\s*false/);

      // No secret reaches the page.
      expect(await page.content()).not.toContain('never-shown-1');
    });

    it('filters the log by status and by user', async () => {
      const other = await scim('POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName: 'b@example.org',
      });
      expect(other.status).toBe(201);
      expect((await scim('POST', '/Users', { schemas: [USER_SCHEMA] })).status).toBe(400);
      await page.locator('#log summary', { hasText: '400' }).waitFor(WAIT);

      await page.selectOption('select[name=status]', '4xx');
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('#log summary .code')).every((c) =>
          c.textContent?.startsWith('4'),
        ),
      );
      expect(await page.locator('#log details.request').count()).toBe(1);
      // The refused row says why, as the SCIM error answered it.
      const refusedRow = await page.locator('#log summary', { hasText: '400' }).textContent();
      expect(refusedRow).toContain('invalidValue');
      expect(refusedRow).toMatch(/userName/);

      await page.selectOption('select[name=status]', '');
      await page.selectOption('select[name=user]', String(other.body.id));
      await page.waitForFunction(
        () => document.querySelectorAll('#log details.request').length === 1,
      );
      expect(await page.locator('#log summary').first().textContent()).toContain('POST');
      expect(page.url()).toContain(`user=${String(other.body.id)}`);
    });

    it('answers a console request with a bearer key, and shows another tenant nothing', async () => {
      const signedOut = await fetch(running.consoleUrl);
      expect(await signedOut.text()).toContain('Sign in with your tenant id');
      const bearer = await fetch(running.consoleUrl, { headers: { authorization: 'Bearer k1' } });
      expect(await bearer.text()).toContain('b@example.org');
      const wrong = await fetch(`${running.consoleUrl}/live`, {
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.status).toBe(401);
      const other = await (
        await fetch(running.consoleUrl, { headers: { authorization: 'Bearer k2' } })
      ).text();
      expect(other).toContain('No users yet');
      expect(other).toContain('No SCIM request matches');
      expect(other).not.toContain('b@example.org');
    });
  },
);

describe.skipIf(!executablePath)('the setup page in Chromium', { timeout: 90_000 }, () => {
  let running: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // No SCIM_API_KEYS: the keys live in the key store, which the setup page manages.
    running = await startServer(testConfig({ keys: [] }), { print: () => undefined });
    browser = await chromium.launch(launchOptions(executablePath ?? ''));
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(running.consoleUrl).origin,
    });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it('signs in, issues a key shown once, copies it, and revokes it', async () => {
    await page.goto(running.consoleUrl);
    await page.fill('input[name=tenant]', 'dev');
    await page.fill('input[name=key]', running.devKey?.key ?? '');
    await page.click('button[type=submit]');
    await page.locator('#tenant', { hasText: 'dev' }).waitFor(WAIT);

    await page.click('#setup-link');
    await page.locator('#base-url', { hasText: '/api/v1/scim/v2' }).waitFor(WAIT);
    expect(await page.locator('details.idp summary').allTextContents()).toEqual([
      'Microsoft Entra ID',
      'Okta',
      'Google Workspace',
      'OneLogin',
      'JumpCloud',
    ]);

    await page.fill('#issue-key input[name=label]', 'entra');
    await page.click('#issue-key button[type=submit]');
    const secret = (await page.locator('#secret').textContent()) ?? '';
    expect(secret).toMatch(/^scimkit_[0-9a-f]{16}_/);
    await page.click('#new-secret button.copy');
    await page.locator('#new-secret button.copy', { hasText: 'Copied' }).waitFor(WAIT);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const users = () =>
      fetch(`${running.url}/Users`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await users()).status).toBe(200);

    // Shown once: the page as reloaded lists the key, never its secret.
    await page.goto(`${running.consoleUrl}/setup`);
    expect(await page.content()).not.toContain(secret);
    const id = secret.split('_')[1] ?? '';
    const row = page.locator(`tr[data-key-id="${id}"]`);
    expect(await row.textContent()).toContain('entra');
    await row.locator('button.revoke').click();
    await page.locator(`tr[data-key-id="${id}"] .key-status`, { hasText: 'revoked' }).waitFor(WAIT);
    expect((await users()).status).toBe(401);
  });
});
