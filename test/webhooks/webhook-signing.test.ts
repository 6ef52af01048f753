// The Standard Webhooks signatures, checked with the reference verifier a receiver would use
// (the `standardwebhooks` package), not with our own code.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  checkWebhookEndpoint,
  generateWebhookSecret,
  ScimConfigError,
  webhookSigner,
} from '../../src/index.js';

const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({ id: '01jd0000000000000000000000', type: 'user.deactivated' });
const message = (extra: Partial<{ id: string; timestamp: number; body: string }> = {}) => ({
  id: '01jd0000000000000000000000',
  timestamp: now(),
  body,
  ...extra,
});
const secretOf = (byte: number, length = 32) =>
  `whsec_${Buffer.alloc(length, byte).toString('base64')}`;

describe('webhookSigner', () => {
  it('signs id.timestamp.body as the reference library does, and its verifier accepts it', async () => {
    const secret = generateWebhookSecret();
    const signed = message();
    const headers = await webhookSigner([secret]).sign(signed);
    expect(headers['webhook-id']).toBe(signed.id);
    expect(headers['webhook-timestamp']).toBe(String(signed.timestamp));
    expect(headers['webhook-signature']).toBe(
      new Webhook(secret).sign(signed.id, new Date(signed.timestamp * 1000), body),
    );
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('signs with both secrets during a rotation: either one verifies, a third does not', async () => {
    const next = secretOf(1);
    const previous = secretOf(2);
    const headers = await webhookSigner([next, previous]).sign(message());
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secretOf(3)).verify(body, { ...headers })).toThrow(
      WebhookVerificationError,
    );
  });

  it('is refused once the body, the id or the timestamp is changed', async () => {
    const secret = secretOf(7);
    const headers = await webhookSigner([secret]).sign(message());
    const verifier = new Webhook(secret);
    const tampered = body.replace('deactivated', 'reactivated');
    expect(() => verifier.verify(tampered, { ...headers })).toThrow(WebhookVerificationError);
    expect(() =>
      verifier.verify(body, { ...headers, 'webhook-id': '01jd0000000000000000000001' }),
    ).toThrow(WebhookVerificationError);
    expect(() =>
      verifier.verify(body, {
        ...headers,
        'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1),
      }),
    ).toThrow(WebhookVerificationError);
  });

  it('refuses, at start, secrets that are missing, too many, or not whsec_ base64 of 24 to 64 bytes', () => {
    const bad: unknown[] = [
      [],
      [secretOf(1), secretOf(2), secretOf(3)],
      ['s3cret-without-prefix'],
      ['whsec_not base64!'],
      [secretOf(1, 16)],
      [secretOf(1, 65)],
    ];
    for (const secrets of bad)
      expect(() => webhookSigner(secrets as string[]), JSON.stringify(secrets)).toThrow(
        ScimConfigError,
      );
    expect(() => webhookSigner([secretOf(1, 24)])).not.toThrow();
    expect(() => webhookSigner([secretOf(1, 64)])).not.toThrow();
  });

  it('refuses a message id with a dot or a space, which would make the signed text ambiguous', async () => {
    const signer = webhookSigner([secretOf(1)]);
    await expect(signer.sign(message({ id: 'a.b' }))).rejects.toThrow(/no "\."/);
    await expect(signer.sign(message({ id: 'a b' }))).rejects.toThrow(/no "\."/);
    await expect(signer.sign(message({ timestamp: 1.5 }))).rejects.toThrow(/whole number/);
  });

  it('makes a new random secret each time, which the reference verifier accepts', async () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateWebhookSecret()).not.toBe(a);
    const headers = await webhookSigner([a]).sign(message());
    expect(new Webhook(a).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });
});

describe('checkWebhookEndpoint', () => {
  const secrets = [secretOf(9)];
  it('accepts https anywhere and plain http on loopback only', () => {
    for (const url of [
      'https://app.example.org/hooks/scim?tenant=a',
      'http://127.0.0.1:8080/hooks',
      'http://127.9.9.9/',
      'http://[::1]:9000/hooks',
      'http://localhost/hooks',
    ])
      expect(checkWebhookEndpoint({ url, secrets }).url.href).toBe(new URL(url).href);
  });

  it('refuses plain http elsewhere, other schemes, credentials and fragments, naming the URL', () => {
    for (const url of [
      'http://app.example.org/hooks',
      'http://127.0.0.1.nip.io/hooks',
      'http://10.0.0.1/hooks',
      'ftp://app.example.org/',
      'https://user:pass@app.example.org/',
      'https://app.example.org/#x',
      '/relative/path',
    ])
      expect(() => checkWebhookEndpoint({ url, secrets }, 'SCIMKIT_WEBHOOK_URL'), url).toThrow(
        ScimConfigError,
      );
    expect(() => checkWebhookEndpoint({ url: 'http://app.example.org/', secrets })).toThrow(
      /must be https:.*got http:\/\/app\.example\.org/,
    );
  });
});
