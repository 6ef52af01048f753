// What each adapter returns and what its `context` option receives (vitest --typecheck).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Context } from 'hono';
import { describe, expectTypeOf, it } from 'vitest';
import type { AdapterOptions, Scim } from '../../src/index.js';
import { scimExpress } from '../../src/adapters/express/index.js';
import { scimFastify } from '../../src/adapters/fastify/index.js';
import { scimFetch } from '../../src/adapters/fetch/index.js';
import { scimHono } from '../../src/adapters/hono/index.js';
import { scimNode } from '../../src/adapters/node/index.js';

declare const scim: Scim;

describe('adapter types', () => {
  it('return what each framework mounts', () => {
    expectTypeOf(scimExpress(scim)).toEqualTypeOf<
      (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => void
    >();
    expectTypeOf(scimFastify(scim)).toEqualTypeOf<FastifyPluginAsync>();
    expectTypeOf(scimHono(scim)).toEqualTypeOf<(c: Context) => Promise<Response>>();
    expectTypeOf(scimFetch(scim)).toEqualTypeOf<
      (request: Request, env?: unknown) => Promise<Response>
    >();
    expectTypeOf(scimNode(scim)).toEqualTypeOf<
      (req: IncomingMessage, res: ServerResponse) => void
    >();
  });

  it("hand `context` the framework's own request", () => {
    expectTypeOf(scimExpress)
      .parameter(1)
      .toEqualTypeOf<AdapterOptions<ExpressRequest> | undefined>();
    expectTypeOf(scimFastify)
      .parameter(1)
      .toEqualTypeOf<AdapterOptions<FastifyRequest> | undefined>();
    scimHono(scim, { context: (c) => expectTypeOf(c).toEqualTypeOf<Context>() });
    scimNode(scim, { context: (req) => expectTypeOf(req).toEqualTypeOf<IncomingMessage>() });
    // @ts-expect-error: the body limit is a number of bytes
    scimFetch(scim, { maxBodyBytes: '1 MiB' });
  });
});
