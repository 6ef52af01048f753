import type { LoggedEvent } from '../../../src/contracts/event-log.js';
import type { DeliveryAttempt } from '../events/directory-events.js';
import { markup, type SafeHtml } from './html.js';
import { signOutForm } from './render.js';

/** Events per page of the events view. */
export const EVENTS_PER_PAGE = 25;

/** One event on the page and its delivery attempts, newest first (undefined: not recorded). */
export interface EventRow {
  readonly event: LoggedEvent;
  readonly attempts: readonly DeliveryAttempt[] | undefined;
}

/** What the events page shows. */
export interface EventsView {
  readonly tenant: string;
  readonly csrf: string;
  /** The page's events, newest first. */
  readonly rows: readonly EventRow[];
  /** 0 for the newest page. */
  readonly page: number;
  readonly pages: number;
  /** The events the console keeps per tenant: older ones are in the feed only. */
  readonly keep: number;
  /** False while the console has not read the tenant's whole log yet. */
  readonly caughtUp: boolean;
  readonly read: number;
  /** Whether the server sends webhooks. */
  readonly webhooks: boolean;
  /** Whether the store keeps no event log at all. */
  readonly noLog: boolean;
}

/** What an event is about, in a few words: the resource, or the group and its member. */
function subject(event: LoggedEvent): SafeHtml {
  const { data } = event;
  if (data.groupId !== undefined && data.userId !== undefined)
    return markup`group <code>${data.groupId}</code>, ${data.memberType ?? 'member'} <code>${data.userId}</code>`;
  const name = data.resource?.userName ?? data.resource?.displayName;
  return markup`${data.resourceType} <code class="resource-id">${data.id}</code>${
    typeof name === 'string' ? markup` <span class="name">${name}</span>` : ''
  }`;
}

function attemptsCell(row: EventRow, webhooks: boolean): SafeHtml {
  if (row.attempts === undefined)
    return markup`<span class="empty">This store records no delivery attempts.</span>`;
  if (row.attempts.length === 0)
    return markup`<span class="empty">${webhooks ? 'None yet.' : 'None: no subscriber.'}</span>`;
  return markup`<ul class="attempts">
    ${row.attempts.map(
      (a) =>
        markup`<li class="attempt attempt-${a.status}" data-status="${a.status}">
          <b>${a.status}</b> #${a.attempt} <span class="subscriber">${a.subscriber}</span>
          <time>${a.at}</time>${a.error ? markup` <span class="error">${a.error}</span>` : ''}
        </li>`,
    )}
  </ul>`;
}

function pager(view: EventsView): SafeHtml {
  const link = (page: number, label: string, rel: string) =>
    markup`<a href="/console/events${page === 0 ? '' : `?page=${page}`}" rel="${rel}">${label}</a>`;
  return markup`<nav class="pager">
    ${view.page > 0 ? link(view.page - 1, '← Newer', 'prev') : ''}
    <span>page ${view.page + 1} of ${Math.max(view.pages, 1)}</span>
    ${view.page + 1 < view.pages ? link(view.page + 1, 'Older →', 'next') : ''}
  </nav>`;
}

function eventsTable(view: EventsView): SafeHtml {
  if (view.noLog) return markup`<p class="empty">This server's store keeps no event log.</p>`;
  if (view.rows.length === 0) return markup`<p class="empty">No event yet.</p>`;
  return markup`<table class="events">
      <thead>
        <tr>
          <th>occurred</th>
          <th>type</th>
          <th>about</th>
          <th>delivery attempts</th>
        </tr>
      </thead>
      <tbody>
        ${view.rows.map(
          (row) =>
            markup`<tr data-event-id="${row.event.id}" data-event-type="${row.event.type}">
              <td><time>${row.event.occurredAt}</time></td>
              <td class="type"><code>${row.event.type}</code></td>
              <td class="subject">${subject(row.event)}</td>
              <td>${attemptsCell(row, view.webhooks)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${pager(view)}`;
}

/** The tenant's events page: its newest events, paged, each with its delivery attempts. */
export function eventsPage(view: EventsView): SafeHtml {
  return markup`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>scimkit console · events · ${view.tenant}</title>
        <meta name="viewport" content="width=device-width" />
        <link rel="stylesheet" href="/console/assets/console.css" />
      </head>
      <body>
        <header>
          <h1>Directory events</h1>
          <span>tenant <b id="tenant">${view.tenant}</b></span>
          <a href="/console">Console</a>
          ${signOutForm(view.csrf)}
        </header>
        <main>
          <section>
            <p>
              Newest first; the console keeps the last ${view.keep}, the feed
              <code>GET /api/v1/events</code> has them all. Webhooks are
              <b id="webhooks">${view.webhooks ? 'on' : 'off'}</b>.
            </p>
            ${
              view.caughtUp
                ? ''
                : markup`<p class="note" id="catching-up">Still reading the log (${view.read.toLocaleString('en')} events so far): reload for the newest.</p>`
            }
            <div id="events">${eventsTable(view)}</div>
          </section>
        </main>
      </body>
    </html> `;
}
