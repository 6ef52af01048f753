import type { IncomingMessage, ServerResponse } from 'node:http';
import { ACCOUNT_SCHEMA, type Scim } from '../../src/index.js';
import type { ActivationLinks, LinkRefusal } from './activation-links.js';
import { readForm } from './read-form.js';

// No script, no outside resource, no framing, the form posts only here, and the token in the
// address goes to no other site nor into any cache.
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
};

const REFUSALS: Record<LinkRefusal, { status: number; text: string }> = {
  invalid: {
    status: 400,
    text: 'This activation link is not valid. Check that you opened the whole link from the email.',
  },
  expired: {
    status: 410,
    text: 'This activation link has expired. Ask your administrator to send a new invitation.',
  },
  gone: { status: 404, text: 'This account no longer exists.' },
  used: { status: 410, text: 'This link has already been used: your account is active.' },
  replaced: {
    status: 410,
    text: 'A newer invitation replaced this link. Use the link in the latest email.',
  },
  unavailable: {
    status: 410,
    text: 'This account cannot be activated now. Ask your administrator.',
  },
};

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(
  res: ServerResponse,
  status: number,
  body: string,
  extra: Record<string, string> = {},
) {
  res
    .writeHead(status, { ...HEADERS, ...extra })
    .end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Account activation</title>' +
        '<meta name="viewport" content="width=device-width"></head>' +
        `<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">${body}</body></html>\n`,
    );
}

/**
 * Serves `/activate`, the page the welcome email links to. A GET only shows the account and a
 * button (mail scanners open every link, so a GET changes nothing); the button's POST
 * activates the account. Refused links get a page that says why, with a 4xx status.
 */
export function activationPage(links: ActivationLinks, scim: Scim, print: (text: string) => void) {
  const refuse = (res: ServerResponse, refusal: LinkRefusal) => {
    const { status, text } = REFUSALS[refusal];
    page(res, status, `<h1>Account activation</h1><p>${escapeHtml(text)}</p>`);
  };
  const failed = (res: ServerResponse) => (error: unknown) => {
    print(`[error] activation page: ${error instanceof Error ? error.message : String(error)}`);
    if (!res.headersSent)
      page(res, 503, '<p>Activation is not available right now. Try again later.</p>');
  };

  async function show(url: URL, res: ServerResponse): Promise<void> {
    const token = url.searchParams.get('token');
    const checked = await links.check(token, scim.users);
    if (!checked.ok) return refuse(res, checked.refusal);
    page(
      res,
      200,
      `<h1>Activate your account</h1><p>Account: <b>${escapeHtml(checked.user.userName)}</b></p>` +
        '<form method="post" action="/activate">' +
        `<input type="hidden" name="token" value="${escapeHtml(token ?? '')}">` +
        '<button type="submit">Activate my account</button></form>',
    );
  }

  async function activate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A token is about 250 bytes.
    const form = await readForm(req, res, (status, extra) =>
      status === 415
        ? page(res, 415, '<p>Use the button on the activation page.</p>')
        : page(res, 413, '<p>The form is too large.</p>', extra),
    );
    if (!form) return;
    const checked = await links.check(form.get('token'), scim.users);
    if (!checked.ok) return refuse(res, checked.refusal);
    const user = await scim.users.activate(checked.tenant, checked.user.id);
    // Deactivated or deleted between the check and the write: activate() left it as it was.
    if (!user) return refuse(res, 'gone');
    if (user[ACCOUNT_SCHEMA].status !== 'Activated') return refuse(res, 'unavailable');
    page(
      res,
      200,
      `<h1>Account activated</h1><p>${escapeHtml(user.userName)} is ready to use.</p>`,
    );
  }

  return (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    if (req.method === 'GET' || req.method === 'HEAD') void show(url, res).catch(failed(res));
    else if (req.method === 'POST') void activate(req, res).catch(failed(res));
    else page(res, 405, '<p>Method not allowed.</p>', { allow: 'GET, HEAD, POST' });
  };
}
