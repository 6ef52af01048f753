// The client side of test/e2e/durable-events.test.ts: the writes it sends, a signed-webhook
// receiver on loopback, and full reads of the event feed. Every loop is bounded in count.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { KEY, USER_SCHEMA } from './harness.js';

const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' };
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A feed event as the tests read it. */
export interface FeedEvent {
  readonly id: string;
  readonly type: string;
  readonly cursor: string;
  readonly data: { readonly id: string; readonly userId?: string; readonly resource?: unknown };
}

/** Sends one SCIM request; resolves to the status and the parsed body (if any). */
export async function send(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: HEADERS,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** The body of a create of an active user (who is invited: the example server has a mailer). */
export const userBody = (i: number) => ({
  schemas: [USER_SCHEMA],
  userName: `done-${i}@example.org`,
  active: true,
});

/** The body of a create of the group with these members. */
export const groupBody = (displayName: string, members: readonly string[]) => ({
  schemas: [GROUP_SCHEMA],
  displayName,
  members: members.map((value) => ({ value })),
});

/** The body of a PATCH that deactivates a user. */
export const deactivation = {
  schemas: [PATCH_OP],
  Operations: [{ op: 'replace', path: 'active', value: false }],
};

/**
 * Runs `jobs` with `atOnce` workers. A job that throws once `stopped()` is true counts as
 * unanswered; one never started, as unsent. Resolves to each job's outcome, in `jobs` order.
 */
export async function runPool(
  jobs: readonly (() => Promise<void>)[],
  atOnce: number,
  stopped: () => boolean,
): Promise<('acknowledged' | 'unanswered' | 'unsent')[]> {
  const outcome: ('acknowledged' | 'unanswered' | 'unsent')[] = jobs.map(() => 'unsent');
  let next = 0;
  const worker = async () => {
    while (!stopped() && next < jobs.length) {
      const at = next++;
      outcome[at] = 'unanswered';
      try {
        await jobs[at]!();
        outcome[at] = 'acknowledged';
      } catch (error) {
        if (!stopped()) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
  return outcome;
}

/** A webhook endpoint on 127.0.0.1 that verifies each delivery's signature and keeps it. */
export async function signedReceiver(secret: string): Promise<{
  readonly url: string;
  /** Each verified delivery's event, in arrival order (repeats included). */
  readonly received: FeedEvent[];
  /** Deliveries whose signature did not verify, with the verifier's message. */
  readonly refused: string[];
  close(): void;
}> {
  const verifier = new Webhook(secret);
  const received: FeedEvent[] = [];
  const refused: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      try {
        received.push(verifier.verify(body, headerRecord(req.headers)) as FeedEvent);
        res.writeHead(204).end();
      } catch (error) {
        refused.push(String(error));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, refused, close: () => server.close() };
}

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (typeof value === 'string') record[name] = value;
  return record;
}

/** One page of the feed after `after` (from the oldest without it). */
export async function feedPage(
  origin: string,
  after: string | null,
  limit: number,
): Promise<{ data: FeedEvent[]; next: string | null }> {
  const query = after === null ? '' : `&after=${after}`;
  const response = await fetch(`${origin}/api/v1/events?limit=${limit}${query}`, {
    headers: HEADERS,
    signal: AbortSignal.timeout(15_000),
  });
  if (response.status !== 200)
    throw new Error(`the feed answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { data: FeedEvent[]; next: string | null };
}

/** Every event after `after`, page by page, with the `next` of each page that had events. */
export async function readFeed(
  origin: string,
  after: string | null = null,
  limit = 500,
): Promise<{ events: FeedEvent[]; nexts: string[] }> {
  const events: FeedEvent[] = [];
  const nexts: string[] = [];
  for (let page = 0; page < 200; page++) {
    const answer = await feedPage(origin, after, limit);
    if (answer.data.length === 0) return { events, nexts };
    events.push(...answer.data);
    after = answer.next;
    nexts.push(after ?? '');
  }
  throw new Error('the feed did not end');
}

/** Waits until `done()` holds, checking every 100 ms, at most `ms`. */
export async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  for (let waited = 0; waited < ms && !(await done()); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
}
