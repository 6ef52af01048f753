// The console's events page in a real browser: Debian's Chromium, headless, driven by
// playwright-core. The library's `scim.events` is stood in for by the fake of the example
// tests; webhooks go to a receiver on 127.0.0.1 that refuses the first attempt.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { generateWebhookSecret } from '../../src/index.js';
import {
  fakeDirectoryEvents,
  type FakeDirectoryEvents,
} from '../examples/fake-directory-events.js';
import { testConfig } from '../examples/test-config.js';
import { findChromium, launchOptions } from './chromium.js';

const executablePath = findChromium();
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const WAIT = { timeout: 15_000 };

describe.skipIf(!executablePath)('the events page in Chromium', { timeout: 90_000 }, () => {
  let receiver: Server;
  let refuseFirst = true;
  let running: RunningServer;
  let events: FakeDirectoryEvents;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (refuseFirst) {
          refuseFirst = false;
          return void res.writeHead(500).end('not yet');
        }
        res.writeHead(204).end();
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    running = await startServer(
      testConfig({ webhook: { url, secrets: [generateWebhookSecret()] } }),
      { print: () => undefined, events: (scim) => (events = fakeDirectoryEvents(scim)) },
    );
    browser = await chromium.launch(launchOptions(executablePath ?? ''));
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await running?.close();
    receiver?.closeAllConnections();
    receiver?.close();
  });

  it('shows a user.created event after a user is created, with its failed and delivered attempts', async () => {
    await page.goto(running.consoleUrl);
    await page.fill('input[name=tenant]', 't1');
    await page.fill('input[name=key]', 'k1');
    await page.click('button[type=submit]');
    await page.locator('#tenant', { hasText: 't1' }).waitFor(WAIT);
    await page.click('#events-link');
    await page.locator('#events', { hasText: 'No event yet' }).waitFor(WAIT);
    expect(await page.textContent('#webhooks')).toBe('on');

    const created = await fetch(`${running.url}/Users`, {
      method: 'POST',
      headers: { authorization: 'Bearer k1', 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: [USER_SCHEMA], userName: 'ada@example.org' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await events.idle();

    await page.reload();
    const row = page.locator('#events tr[data-event-type="user.created"]');
    await row.waitFor(WAIT);
    expect(await row.locator('.resource-id').textContent()).toBe(id);
    expect(await row.locator('.name').textContent()).toBe('ada@example.org');
    const attempts = row.locator('li.attempt');
    expect(await attempts.evaluateAll((items) => items.map((li) => li.dataset.status))).toEqual([
      'ok',
      'failed',
    ]);
    expect(await attempts.nth(1).locator('.error').textContent()).toContain(
      'answered 500: not yet',
    );
  });
});
