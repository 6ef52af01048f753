import { request } from 'node:http';

/** One answer of the console, as its tests read it. */
export interface ConsoleReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** How a test sends one console request: from which loopback address, with which headers. */
export interface ConsoleSend {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly form?: Record<string, string>;
  /** The client's address, any of 127.0.0.0/8 (the console counts sign-ins per client). */
  readonly from?: string;
}

/** Sends one request to the console with `node:http`, which may pick its local address. */
export function consoleRequest(url: string, send: ConsoleSend = {}): Promise<ConsoleReply> {
  const body = send.form === undefined ? undefined : new URLSearchParams(send.form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: send.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          ...send.headers,
        },
        ...(send.from === undefined ? {} : { localAddress: send.from }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The `name=value` part of a `Set-Cookie` answer for the cookie `name`, or undefined. */
export function cookieOf(reply: ConsoleReply, name: string): string | undefined {
  const set = [reply.headers['set-cookie'] ?? []].flat();
  return set.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith(`${name}=`));
}

/** The anti-forgery token a page's forms carry. */
export function csrfOf(html: string): string {
  return /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
}

/** A signed-in console session: its cookie and the token its forms carry. */
export interface ConsoleSession {
  readonly cookie: string;
  readonly csrf: string;
}

/** The sign-in form as a browser has it: its cookie and the token it posts back. */
export async function signInForm(consoleUrl: string, from?: string) {
  const page = await consoleRequest(consoleUrl, from === undefined ? {} : { from });
  return { cookie: cookieOf(page, 'scimkit_console_sign_in') ?? '', csrf: csrfOf(page.text) };
}

/** Posts the sign-in form as a browser on the console's own page does. */
export async function postSignIn(
  consoleUrl: string,
  tenant: string,
  key: string,
  from?: string,
): Promise<ConsoleReply> {
  const form = await signInForm(consoleUrl, from);
  return consoleRequest(`${consoleUrl}/sign-in`, {
    headers: { cookie: form.cookie, 'sec-fetch-site': 'same-origin' },
    form: { csrf: form.csrf, tenant, key },
    ...(from === undefined ? {} : { from }),
  });
}

/** Signs in and returns the session, or throws when the console refused. */
export async function signIn(
  consoleUrl: string,
  tenant: string,
  key: string,
): Promise<ConsoleSession> {
  const reply = await postSignIn(consoleUrl, tenant, key);
  const cookie = cookieOf(reply, 'scimkit_console');
  if (reply.status !== 303 || cookie === undefined)
    throw new Error(`sign-in answered ${reply.status}: ${reply.text}`);
  const page = await consoleRequest(consoleUrl, { headers: { cookie } });
  return { cookie, csrf: csrfOf(page.text) };
}

/** Posts one of the console's forms within a session, as its own page does. */
export function postForm(
  url: string,
  session: ConsoleSession,
  form: Record<string, string>,
  headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' },
): Promise<ConsoleReply> {
  return consoleRequest(url, {
    headers: { cookie: session.cookie, ...headers },
    form: { csrf: session.csrf, ...form },
  });
}
