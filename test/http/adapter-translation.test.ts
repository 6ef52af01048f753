import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Echo, echoScim } from './echo-scim.js';
import { MOUNT, type RunningServer, targets } from './harness.js';

const MiB = 1024 * 1024;

describe.each(targets)('$name adapter translates requests and responses exactly', (target) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await target.start(echoScim(), { context: () => ({ tenantHint: 'from-host' }) });
  });
  afterAll(() => server.close());

  async function echo(path: string, init?: RequestInit): Promise<Echo> {
    const response = await fetch(server.url + path, init);
    expect(response.status).toBe(200);
    return (await response.json()) as Echo;
  }

  it('passes method, full path, raw query, headers, baseUrl and context', async () => {
    const query = 'filter=userName%20eq%20%22ada%40example.org%22&startIndex=1&count=2';
    const seen = await echo(`/Users?${query}`, {
      headers: {
        authorization: 'Bearer s3cret',
        'X-Custom': 'Value',
        accept: 'application/scim+json',
      },
    });
    expect(seen).toMatchObject({
      method: 'GET',
      path: `${MOUNT}/Users`,
      query,
      baseUrl: server.origin,
      context: { tenantHint: 'from-host' },
      bodyKind: 'undefined',
    });
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer s3cret',
      'x-custom': 'Value',
      accept: 'application/scim+json',
      host: server.origin.slice('http://'.length),
    });
  });

  it('keeps a trailing slash, percent-encoding and an empty query as sent', async () => {
    expect(await echo('/Users/')).toMatchObject({ path: `${MOUNT}/Users/`, query: '' });
    expect(await echo('/Users/a%20b%2Fc')).toMatchObject({ path: `${MOUNT}/Users/a%20b%2Fc` });
  });

  it('routes the mount point itself to the core', async () => {
    expect(await echo('')).toMatchObject({ path: MOUNT });
    expect(await echo('/')).toMatchObject({ path: `${MOUNT}/` });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('passes a %s body as raw bytes', async (method) => {
    const text =
      '{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"zoë@example.org"}';
    const seen = await echo('/Users/42', {
      method,
      headers: { 'content-type': 'application/scim+json' },
      body: text,
    });
    expect(seen).toMatchObject({
      method,
      bodyKind: 'bytes',
      bodyText: text,
      bodyBytes: Buffer.byteLength(text),
    });
    expect(seen.headers['content-type']).toBe('application/scim+json');
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml'])(
    'hands a %s body over unparsed, so the core decides',
    async (contentType) => {
      const text = '{"not": "parsed" ,  "spacing":"kept"}';
      const seen = await echo('/Users', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: text,
      });
      expect(seen).toMatchObject({ bodyKind: 'bytes', bodyText: text });
      expect(seen.headers['content-type']).toBe(contentType);
    },
  );

  it('hands malformed JSON over as it came', async () => {
    const text = '{"userName": ';
    const seen = await echo('/Users', {
      method: 'POST',
      headers: { 'content-type': 'application/scim+json' },
      body: text,
    });
    expect(seen.bodyText).toBe(text);
  });

  it('passes a body sent without a content-type', async () => {
    const seen = await echo('/Users', { method: 'POST', body: new TextEncoder().encode('{}') });
    expect(seen).toMatchObject({ bodyKind: 'bytes', bodyText: '{}' });
  });

  it('reads a chunked body sent without a content-length', async () => {
    const parts = ['{"userName":', '"chunked@example.org"}'];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const seen = await echo('/Users', {
      method: 'POST',
      headers: { 'content-type': 'application/scim+json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(seen.headers['transfer-encoding']).toBe('chunked');
    expect(seen.bodyText).toBe(parts.join(''));
  });

  it('reports an empty body as no body', async () => {
    const seen = await echo('/Users/42', {
      method: 'DELETE',
      headers: { 'content-type': 'application/scim+json' },
      body: '',
    });
    expect(seen).toMatchObject({ method: 'DELETE', bodyKind: 'undefined' });
  });

  it('stops reading a body over 1 MiB just past the limit, and the server stays usable', async () => {
    const big = `{"userName":"${'a'.repeat(2 * MiB)}"}`;
    const seen = await echo('/Users', {
      method: 'POST',
      headers: { 'content-type': 'application/scim+json' },
      body: big,
    });
    expect(seen.bodyKind).toBe('bytes');
    expect(seen.bodyBytes).toBeGreaterThan(MiB);
    expect(seen.bodyBytes).toBeLessThan(big.length);
    expect(seen.bodyEnd).toBe('cut');
    expect(await echo('/Users')).toMatchObject({ method: 'GET', path: `${MOUNT}/Users` });
  });

  it('passes a body of exactly 1 MiB whole', async () => {
    const body = 'b'.repeat(MiB);
    const seen = await echo('/Users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(seen.bodyBytes).toBe(MiB);
  });

  it('writes status, headers and body of the response exactly', async () => {
    const body = '{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"id":"42"}';
    const response = await fetch(`${server.url}/Users`, {
      headers: {
        'x-respond': JSON.stringify({
          status: 201,
          headers: {
            'content-type': 'application/scim+json',
            location: 'http://x/Users/42',
            etag: 'W/"1"',
          },
          body,
        }),
      },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/scim+json');
    expect(response.headers.get('location')).toBe('http://x/Users/42');
    expect(response.headers.get('etag')).toBe('W/"1"');
    expect(await response.text()).toBe(body);
  });

  it('sends a body with its length in bytes, not in chunks', async () => {
    const body = '{"displayName":"Zoë Ångström 🙂"}';
    const respond = JSON.stringify({
      status: 200,
      headers: { 'content-type': 'application/scim+json' },
      body,
    });
    // A header carries Latin-1 only: escape the rest inside the JSON.
    const ascii = respond.replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const response = await fetch(`${server.url}/Users`, { headers: { 'x-respond': ascii } });
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(await response.text()).toBe(body);
  });

  it.each([204, 304])('writes a %i with no body', async (status) => {
    const response = await fetch(`${server.url}/Users/42`, {
      headers: { 'x-respond': JSON.stringify({ status, headers: { etag: 'W/"7"' } }) },
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('etag')).toBe('W/"7"');
    expect(response.headers.get('content-type')).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('answers HEAD with the status and headers of the response and no body', async () => {
    const response = await fetch(`${server.url}/Users`, {
      method: 'HEAD',
      headers: {
        'x-respond': JSON.stringify({
          status: 405,
          headers: { allow: 'GET, POST' },
          body: '{"status":"405"}',
        }),
      },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(await response.text()).toBe('');
  });
});
