import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { scimNode } from '../../src/adapters/node/index.js';
import { echoScim } from './echo-scim.js';

describe('scimNode: a host `context` function that throws', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  async function start(): Promise<string> {
    const listener = scimNode(echoScim(), {
      context: () => {
        throw new Error('the host failed');
      },
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('closes the connection, with or without a body, and the server keeps serving', async () => {
    const url = await start();
    await expect(fetch(`${url}/Users`)).rejects.toThrow();
    const post = fetch(`${url}/Users`, {
      method: 'POST',
      headers: { 'content-type': 'application/scim+json' },
      body: '{}',
    });
    await expect(post).rejects.toThrow();
    // Still listening: the failure stayed with its own request.
    await expect(fetch(`${url}/Users`)).rejects.toThrow();
    expect(server?.listening).toBe(true);
  });
});
