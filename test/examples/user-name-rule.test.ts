// The example server keeps the contract's email rule unless
// SCIMKIT_USERNAME_RULE=rfc.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../examples/server/config.js';
import { startServer } from '../../examples/server/server.js';
import { testConfig } from './test-config.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** The status a POST of `userName` gets from an example server started with `config`. */
async function postStatus(config: ReturnType<typeof testConfig>, userName: string) {
  const running = await startServer(config, { print: () => undefined });
  try {
    const reply = await fetch(`${running.url}/Users`, {
      method: 'POST',
      headers: { authorization: 'Bearer k1', 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: [USER_SCHEMA], userName }),
    });
    const body = (await reply.json()) as { detail?: string };
    return { status: reply.status, detail: body.detail };
  } finally {
    await running.close();
  }
}

describe('example server userName rule', () => {
  it('reads SCIMKIT_USERNAME_RULE: email by default, rfc when asked, nothing else', () => {
    expect(readConfig({}).userNameRule).toBe('email');
    expect(readConfig({ SCIMKIT_USERNAME_RULE: 'email' }).userNameRule).toBe('email');
    expect(readConfig({ SCIMKIT_USERNAME_RULE: ' rfc ' }).userNameRule).toBe('rfc');
    expect(() => readConfig({ SCIMKIT_USERNAME_RULE: 'RFC7643' })).toThrow(
      'SCIMKIT_USERNAME_RULE: "RFC7643" is not one of email, rfc.',
    );
  });

  it('refuses a userName that is not an email by default, and takes it with the RFC rule', async () => {
    expect(await postStatus(testConfig(), 'jdoe')).toEqual({
      status: 400,
      detail: '"userName" must be an email address (userNameRule "email"); got "jdoe".',
    });
    expect((await postStatus(testConfig({ userNameRule: 'rfc' }), 'jdoe')).status).toBe(201);
  });
});
