import { scimErrors } from '../../errors/index.js';
import type { Handler } from './context.js';

/** Answers 501 for an RFC 7644 endpoint scimkit does not serve yet. */
export const notImplemented: Handler = async ({ request }) => {
  throw scimErrors.notImplemented(
    `${request.method.toUpperCase()} ${request.path} is not implemented by this server.`,
  );
};
