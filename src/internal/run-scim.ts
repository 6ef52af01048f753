import type { Scim } from '../core/scim.js';
import type { ScimRequestHead, ScimResponse } from '../core/types.js';
import type { BodyRead } from './body-collector.js';

/**
 * Runs one request through the core's two phases: {@link Scim.begin} on the head, then, only
 * if the core admits it, `read` for the body and the body phase. The core decides every answer;
 * this only sequences the calls. Never rejects.
 *
 * @param context - the host's `context` option, handed to the core to call with `request`.
 * @param read - reads the body; `undefined` when the framework request has none.
 */
export async function runScim<R>(
  scim: Scim,
  head: ScimRequestHead,
  context: ((request: R) => unknown) | undefined,
  request: R,
  read: (() => Promise<BodyRead>) | undefined,
): Promise<ScimResponse> {
  const admission = await scim.begin(
    head,
    context === undefined ? undefined : () => context(request),
  );
  if (typeof admission !== 'function') return admission;
  if (read === undefined) return admission(undefined);
  const { body, end } = await read();
  return admission(body, end);
}
