// Shutdown under load: every request that has reached the example server when it is told to
// close is answered (the last on each connection with `Connection: close`), no client sees a
// reset, and every write it acknowledged is there after a restart, on every store.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { StoreConfig } from '../../examples/server/config.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { discard, exampleStores } from './example-stores.js';
import { testConfig } from './test-config.js';

/** Clients on fresh connections, on keep-alive connections, and pipelining three requests. */
const FRESH = 12;
const KEPT_ALIVE = 8;
const PIPELINED = 2;

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A raw client connection: what it received, parsed into answers, and how it ended. */
class RawClient {
  readonly socket: Socket;
  #received = Buffer.alloc(0);
  error: (Error & { code?: string }) | undefined;
  readonly closed: Promise<void>;

  constructor(url: URL) {
    this.socket = connect(Number(url.port), url.hostname);
    this.socket.on(
      'data',
      (chunk: Buffer) => (this.#received = Buffer.concat([this.#received, chunk])),
    );
    this.socket.on('error', (error) => (this.error = error));
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  /** The complete answers received so far (each framed by its Content-Length). */
  replies(): Reply[] {
    const replies: Reply[] = [];
    let rest = this.#received;
    for (;;) {
      const end = rest.indexOf('\r\n\r\n');
      if (end < 0) return replies;
      const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (rest.length < end + 4 + length) return replies;
      replies.push({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.subarray(end + 4, end + 4 + length).toString('utf8'),
      });
      rest = rest.subarray(end + 4 + length);
    }
  }
}

function post(url: URL, userName: string): string {
  const body = JSON.stringify({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    active: false,
  });
  return (
    `POST ${url.pathname}/Users HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer k1\r\n` +
    `content-type: application/scim+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function userNames(running: RunningServer): Promise<Set<string>> {
  const response = await fetch(`${running.url}/Users?count=100`, {
    headers: { authorization: 'Bearer k1' },
  });
  const list = (await response.json()) as { Resources: { userName: string }[] };
  return new Set(list.Resources.map((u) => u.userName));
}

describe.each(exampleStores('graceful_close'))('shutdown on $name', (store) => {
  it.skipIf(store.skip)(
    'answers every request that has arrived, resets none, and keeps every acknowledged write',
    async () => {
      const config: StoreConfig = store.config();
      // The memory store lives in the process: hand the same one to both servers.
      const memory = config.kind === 'memory' ? new MemoryUserStore() : undefined;
      const start = () =>
        startServer(testConfig({ store: config }), {
          print: () => undefined,
          ...(memory ? { store: memory } : {}),
        });
      const running = await start();
      const url = new URL(running.url);
      let accepted = 0;
      running.server.on('connection', () => accepted++);
      try {
        const clients = Array.from(
          { length: FRESH + KEPT_ALIVE + PIPELINED },
          () => new RawClient(url),
        );
        await until(() => accepted === clients.length, 'the connections');
        const kept = clients.slice(FRESH, FRESH + KEPT_ALIVE);
        const pipelining = clients.slice(FRESH + KEPT_ALIVE);
        // The keep-alive clients have had one answer already and kept the connection.
        kept.forEach((client, i) => client.socket.write(post(url, `first-${i}@example.org`)));
        await until(() => kept.every((c) => c.replies().length === 1), 'the first answers');
        const sent = new Map<RawClient, string[]>();
        clients.forEach((client, i) => {
          const count = pipelining.includes(client) ? 3 : 1;
          const names = Array.from({ length: count }, (_, j) => `late-${i}-${j}@example.org`);
          client.socket.write(names.map((name) => post(url, name)).join(''));
          sent.set(client, names);
        });
        // Closed before the server has read a byte of these requests: they wait in its socket
        // buffers, as they do when the event loop is busy at SIGTERM.
        await running.close();
        await Promise.all(clients.map((c) => c.closed));

        const acknowledged: string[] = [];
        for (const client of clients) {
          expect(client.error?.code).toBeUndefined();
          const replies = client.replies().slice(kept.includes(client) ? 1 : 0);
          const names = sent.get(client) ?? [];
          expect(replies.map((r) => r.status)).toEqual(names.map(() => 201));
          expect(replies.at(-1)?.headers.connection, `client ${clients.indexOf(client)}`).toBe(
            'close',
          );
          acknowledged.push(...names);
        }
        expect(acknowledged).toHaveLength(FRESH + KEPT_ALIVE + 3 * PIPELINED);

        const again = await start();
        try {
          const names = await userNames(again);
          for (const name of acknowledged) expect(names).toContain(name);
        } finally {
          await again.close();
        }
      } finally {
        if (running.server.listening) await running.close();
        await discard(config);
      }
    },
    120_000,
  );
});
