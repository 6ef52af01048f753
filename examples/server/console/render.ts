import { ACCOUNT_SCHEMA, type ScimUser } from '../../../src/index.js';
import { markup, type SafeHtml } from './html.js';
import type { MailboxEntry } from './mailbox.js';
import { utf8Bytes, type ClippedText } from './clip-text.js';
import type { EntryList, RequestEntry } from './request-entry.js';
import type { LoggedRequest } from './request-log.js';

/** The log filters a person chose: a status class and a user id (empty: all). */
export interface LogFilters {
  readonly status: string;
  readonly user: string;
}

/** Status classes the log can be filtered by. */
export const STATUS_FILTERS = ['2xx', '3xx', '4xx', '5xx'] as const;

/** Reads the filters from a console address, keeping only values the view knows. */
export function readFilters(url: URL): LogFilters {
  const status = url.searchParams.get('status') ?? '';
  return {
    status: (STATUS_FILTERS as readonly string[]).includes(status) ? status : '',
    user: (url.searchParams.get('user') ?? '').slice(0, 200),
  };
}

function concerns(entry: LoggedRequest, userId: string): boolean {
  if (entry.userId === userId) return true;
  const path = entry.path.split('?')[0] ?? '';
  return path.endsWith(`/Users/${userId}`);
}

/** The tenant's requests that pass the filters. */
export function filterLog(entries: readonly LoggedRequest[], filters: LogFilters) {
  return entries.filter(
    (entry) =>
      (filters.status === '' || `${String(entry.status).charAt(0)}xx` === filters.status) &&
      (filters.user === '' || concerns(entry, filters.user)),
  );
}

/** The users table, with each account's status. */
export function usersSection(users: readonly ScimUser[], total: number): SafeHtml {
  if (users.length === 0) return markup`<p class="empty">No users yet. Create one over SCIM.</p>`;
  return markup`<table>
      <thead>
        <tr>
          <th>userName</th>
          <th>active</th>
          <th>account status</th>
          <th>id</th>
        </tr>
      </thead>
      <tbody>
        ${users.map(
          (user) =>
            markup`<tr data-user-id="${user.id}">
              <td class="user-name">${user.userName}</td>
              <td>${String(user.active ?? false)}</td>
              <td class="status status-${user[ACCOUNT_SCHEMA].status}">${user[ACCOUNT_SCHEMA].status}</td>
              <td><code>${user.id}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${total > users.length ? markup`<p class="note">Showing ${users.length} of ${total} users.</p>` : ''}`;
}

/** The dev mailbox: each welcome email and a button that opens its activation link. */
export function mailboxSection(mails: readonly MailboxEntry[]): SafeHtml {
  if (mails.length === 0) return markup`<p class="empty">No welcome email sent yet.</p>`;
  return markup`<table>
    <thead>
      <tr>
        <th>to</th>
        <th>sent</th>
        <th>activation link</th>
      </tr>
    </thead>
    <tbody>
      ${mails.map(
        (mail) =>
          markup`<tr class="mail" data-user-id="${mail.userId}">
            <td>${mail.to}</td>
            <td><time>${mail.at}</time></td>
            <td>
              <a
                class="button"
                href="${mail.activationLink}"
                target="_blank"
                rel="noopener noreferrer"
                >Open activation link</a
              >
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A clipped text as shown: the text, and when clipped how much of how much. */
function clippedView(value: ClippedText, className: string): SafeHtml {
  return markup`<pre class="${className}">${value.text}</pre>${
    value.clipped
      ? markup`<p class="note clipped">… ${value.bytes.toLocaleString('en')} bytes, first ${kib(utf8Bytes(value.text))} shown</p>`
      : ''
  }`;
}

// Sizes as people read them: "16 KiB", "1,234 bytes".
const kib = (bytes: number): string =>
  bytes >= 1024 && bytes % 1024 === 0
    ? `${bytes / 1024} KiB`
    : `${bytes.toLocaleString('en')} bytes`;

const code = (value: ClippedText | undefined, absent: string): SafeHtml =>
  value === undefined
    ? markup`<code>${absent}</code>`
    : markup`<code>${value.text}${value.clipped ? ' …' : ''}</code>`;

function more(list: EntryList): SafeHtml | string {
  const left = list.total - list.lines.length;
  return left > 0 ? markup`<p class="note">and ${left} more not kept.</p>` : '';
}

function entryView(entry: RequestEntry): SafeHtml {
  const { normalisations, rulesFired, changes } = entry;
  return markup`<details
    class="request status-${String(entry.status).charAt(0)}xx"
    data-seq="${entry.seq}"
  >
    <summary>
      <time>${entry.at}</time> <b class="method">${entry.method}</b>
      <span class="path">${entry.path}</span> <b class="code">${entry.status}</b>
      <span class="latency">${entry.latencyMs.toFixed(1)} ms</span>
      ${entry.error === undefined ? '' : markup`<span class="error">${entry.error.scimType === '' ? '' : markup`<code>${entry.error.scimType}</code> `}${entry.error.detail}</span>`}
      ${normalisations.total > 0 ? markup`<span class="badge">${normalisations.total} normalised</span>` : ''}
    </summary>
    <h4>Body as received</h4>
    ${entry.body === undefined ? markup`<p class="empty">No body.</p>` : clippedView(entry.body, 'body')}
    <h4>Normalisations</h4>
    ${
      normalisations.total === 0
        ? markup`<p class="empty">None.</p>`
        : markup`<ul class="normalisations">
            ${normalisations.lines.map(
              (n) =>
                markup`<li>
                  <code>${n.name}</code> at <code>${n.path}</code>:
                  ${code(n.from, '—')} → ${code(n.to, '—')}
                </li>`,
            )}
          </ul>${more(normalisations)}`
    }
    <h4>Rules fired</h4>
    ${
      rulesFired.total === 0
        ? markup`<p class="empty">None: read as plain RFC 7644.</p>`
        : markup`<ul class="rules-fired">
            ${rulesFired.lines.map(
              (r) =>
                markup`<li>
                  <code>${r.name}</code> at <code>${r.path}</code>:
                  ${code(r.from, '—')} →
                  ${code(r.to, '(removed)')}
                </li>`,
            )}
          </ul>${more(rulesFired)}`
    }
    <h4>Changes</h4>
    ${
      changes.total === 0
        ? markup`<p class="empty">${entry.wroteUser ? 'No attribute changed.' : 'No user written.'}</p>`
        : markup`<table class="diff">
            <thead>
              <tr>
                <th>attribute</th>
                <th>before</th>
                <th>after</th>
              </tr>
            </thead>
            <tbody>
              ${changes.lines.map(
                (c) =>
                  markup`<tr>
                    <td><code>${c.path}</code></td>
                    <td>${code(c.from, '—')}</td>
                    <td>${code(c.to, '—')}</td>
                  </tr>`,
              )}
            </tbody>
          </table>${more(changes)}`
    }
  </details>`;
}

/**
 * The request log, newest first, as filtered, within `pageBytes` of HTML: the rows that do not
 * fit are left out and counted, so that a page's size never depends on what clients sent.
 */
export function logSection(
  entries: readonly LoggedRequest[],
  filters: LogFilters,
  pageBytes: number,
): SafeHtml {
  const shown = filterLog(entries, filters);
  if (shown.length === 0) return markup`<p class="empty">No SCIM request matches.</p>`;
  const rows: SafeHtml[] = [];
  let bytes = 0;
  for (const entry of shown) {
    const row = entryView(entry.view());
    bytes += utf8Bytes(row.text);
    if (bytes > pageBytes) break;
    rows.push(row);
  }
  const left = shown.length - rows.length;
  return markup`${rows}${
    left > 0
      ? markup`<p class="note page-limit">${left} older requests not shown: this page shows at most ${kib(pageBytes)} of log.</p>`
      : ''
  }`;
}

/** The filter form of the request log. */
export function filterForm(users: readonly ScimUser[], filters: LogFilters): SafeHtml {
  const option = (value: string, label: string, selected: boolean) =>
    markup`<option value="${value}" ${selected ? markup` selected` : ''}>${label}</option>`;
  return markup`<form class="filters" method="get" action="/console">
    <label
      >Status
      <select name="status">
        ${option('', 'all', filters.status === '')}${STATUS_FILTERS.map((s) =>
          option(s, s, filters.status === s),
        )}
      </select></label
    >
    <label
      >User
      <select name="user">
        ${option('', 'all', filters.user === '')}${users.map((u) =>
          option(u.id, u.userName, filters.user === u.id),
        )}
      </select></label
    >
    <noscript><button type="submit">Filter</button></noscript>
  </form>`;
}

/** The whole page around the sections. */
export function consolePage(parts: {
  readonly tenant: string;
  /** The session's anti-forgery token (empty for a request signed in with a bearer key). */
  readonly csrf: string;
  readonly resourceTypes: readonly string[];
  readonly stamp: string;
  readonly filters: SafeHtml;
  readonly users: SafeHtml;
  readonly mailbox: SafeHtml;
  readonly log: SafeHtml;
  readonly history: number;
}): SafeHtml {
  return markup`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>scimkit console · ${parts.tenant}</title>
        <meta name="viewport" content="width=device-width" />
        <link rel="stylesheet" href="/console/assets/console.css" />
      </head>
      <body data-stamp="${parts.stamp}">
        <header>
          <h1>Provisioning console</h1>
          <span>tenant <b id="tenant">${parts.tenant}</b></span>
          <a href="/console/setup" id="setup-link">Setup</a>
          <a href="/console/events" id="events-link">Events</a>
          ${signOutForm(parts.csrf)}
        </header>
        <main>
          <section>
            <h2>Resource types</h2>
            <p id="resource-types">${parts.resourceTypes.join(', ')}</p>
          </section>
          <section>
            <h2>Users</h2>
            <div id="users">${parts.users}</div>
          </section>
          <section>
            <h2>Dev mailbox</h2>
            <div id="mailbox">${parts.mailbox}</div>
          </section>
          <section class="log">
            <h2>SCIM requests <small>newest first, last ${parts.history} kept</small></h2>
            ${parts.filters}
            <div id="log">${parts.log}</div>
          </section>
        </main>
        <script src="/console/assets/console.js"></script>
      </body>
    </html> `;
}

/** The sign-out button; its form carries the session's anti-forgery token. */
export function signOutForm(csrf: string): SafeHtml {
  return markup`<form method="post" action="/console/sign-out">
    <input type="hidden" name="csrf" value="${csrf}" />
    <button type="submit">Sign out</button>
  </form>`;
}

/**
 * The sign-in page. `csrf` is the token its form posts back, the same value as the cookie the
 * page is sent with (a page of another site can neither read nor set that cookie).
 */
export function signInPage(csrf: string, message?: string, tenant = ''): SafeHtml {
  return markup`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>scimkit console · sign in</title>
        <meta name="viewport" content="width=device-width" />
        <link rel="stylesheet" href="/console/assets/console.css" />
      </head>
      <body>
        <main class="sign-in">
          <h1>Provisioning console</h1>
          <p>Sign in with your tenant id and one of its SCIM API keys.</p>
          ${message ? markup`<p class="error">${message}</p>` : ''}
          <form method="post" action="/console/sign-in">
            <input type="hidden" name="csrf" value="${csrf}" />
            <label
              >Tenant
              <input name="tenant" value="${tenant}" autocomplete="organization" required
            /></label>
            <label>API key <input type="password" name="key" autocomplete="off" required /></label>
            <button type="submit">Sign in</button>
          </form>
        </main>
      </body>
    </html> `;
}
