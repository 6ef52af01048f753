/* global process, TextDecoder */
// A stand-in for the core that does only the kit floors' work (the token compared, the body
// decoded and parsed, a fixed object serialised), for the `*-stub.mjs` servers: an adapter on
// it costs its framework and the adapter's own translation, without the core
// (`node --import tsx bench/kit/instructions.ts --servers hono-stub,fastify-stub,node-stub`).
const AUTH = `Bearer ${process.env.SCIM_TOKEN ?? 'bench-token'}`;
const FIXED = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: '2819c223-7f76-453a-919d-413861904646',
  userName: 'bjensen@example.com',
  active: true,
};
const decoder = new TextDecoder();
const answer = (status, value) => ({
  status,
  headers: { 'content-type': 'application/scim+json' },
  body: JSON.stringify(value),
});
export const stubScim = {
  maxBodyBytes: 1 << 20,
  bodyTimeoutMs: 10_000,
  begin(head) {
    if (head.headers.authorization !== AUTH) return answer(401, { status: '401' });
    const status = head.method === 'POST' ? 201 : 200;
    return (body) => {
      if (body !== undefined) JSON.parse(decoder.decode(body));
      return Promise.resolve(answer(status, FIXED));
    };
  },
};
