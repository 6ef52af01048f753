// Regenerates the console screenshots in docs/console/ (`npm run docs:screenshots`): starts the
// example server on 127.0.0.1 (memory store), plays an IdP's first minutes over SCIM, and
// photographs the console in headless Chromium. Needs Chromium (apt-get install -y chromium).
import { mkdir } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';
import { startServer } from '../examples/server/server.js';
import { findChromium, launchOptions, CHROMIUM_CANDIDATES } from '../test/browser/chromium.js';

const OUT = new URL('../docs/console/', import.meta.url);
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const WAIT = { timeout: 20_000 };

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium at ${CHROMIUM_CANDIDATES.join(', ')}.`);
  await mkdir(OUT, { recursive: true });
  const running = await startServer(
    {
      host: '127.0.0.1',
      port: 0,
      keys: [{ key: 'district-key', tenant: 'district-42' }],
      generatedKey: false,
      mailLog: undefined,
      activationSecret: 'screenshots',
      mailDelivery: { pollIntervalMs: 100 },
    },
    { print: () => undefined },
  );
  const browser = await chromium.launch(launchOptions(executablePath));
  try {
    const scim = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { authorization: 'Bearer district-key', 'content-type': 'application/scim+json' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { id: string };
    };
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(running.consoleUrl);
    await page.screenshot({ path: new URL('sign-in.png', OUT).pathname });
    await page.fill('input[name=tenant]', 'district-42');
    await page.fill('input[name=key]', 'district-key');
    await page.click('button[type=submit]');

    // What Entra ID sends: string booleans, a bare manager id, an attribute in another case.
    const ada = await scim('POST', '/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      userName: 'ada@example.org',
      active: 'True',
      DisplayName: 'Ada Lovelace',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      password: 'not-in-any-log',
    });
    const grace = await scim('POST', '/Users', {
      schemas: [USER],
      userName: 'grace@example.org',
      active: true,
      name: { givenName: 'Grace', familyName: 'Hopper' },
    });
    await scim('POST', '/Users', { schemas: [USER], userName: 'grace@example.org' });
    const open = page.locator(`#mailbox tr[data-user-id="${ada.id}"] a.button`);
    await open.waitFor(WAIT);
    const [activation] = await Promise.all([page.waitForEvent('popup'), open.click()]);
    await activation.setViewportSize({ width: 700, height: 400 });
    await activation.screenshot({ path: new URL('activation.png', OUT).pathname });
    await activation.locator('button').click();
    await activation.locator('h1', { hasText: 'Account activated' }).waitFor(WAIT);
    await activation.close();
    await scim('PATCH', `/Users/${grace.id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'active', value: 'False' },
        {
          op: 'Add',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager',
          value: ada.id,
        },
      ],
    });
    const entry = page.locator('#log details.request').first();
    await entry.locator('summary', { hasText: 'PATCH' }).waitFor(WAIT);
    await page
      .locator(`#users tr[data-user-id="${ada.id}"] .status`, { hasText: 'Activated' })
      .waitFor(WAIT);
    await entry.locator('summary').click();
    await page.screenshot({ path: new URL('console.png', OUT).pathname, fullPage: true });
    await entry.screenshot({ path: new URL('request.png', OUT).pathname });
    await setupScreenshot(browser);
    console.log(
      `Wrote sign-in.png, activation.png, console.png, request.png and setup.png to ${OUT.pathname}`,
    );
  } finally {
    await browser.close();
    await running.close();
  }
}

// The setup page needs a server whose keys live in its key store: no fixed keys, so it issues
// a development key for tenant `dev`, and the page issues one more for Entra ID.
async function setupScreenshot(browser: Browser): Promise<void> {
  const running = await startServer(
    {
      host: '127.0.0.1',
      port: 0,
      keys: [],
      generatedKey: true,
      mailLog: undefined,
      activationSecret: 'screenshots',
      publicUrl: 'https://scim.example.org',
    },
    { print: () => undefined },
  );
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(running.consoleUrl);
    await page.fill('input[name=tenant]', 'dev');
    await page.fill('input[name=key]', running.devKey?.key ?? '');
    await page.click('button[type=submit]');
    await page.click('#setup-link');
    await page.fill('#issue-key input[name=label]', 'entra');
    await page.click('#issue-key button[type=submit]');
    await page.locator('#secret').waitFor(WAIT);
    await page.locator('#idp-entra summary').click();
    await page.screenshot({ path: new URL('setup.png', OUT).pathname, fullPage: true });
  } finally {
    await running.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
