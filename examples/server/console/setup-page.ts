import type { IssuedApiKey, ListedApiKey } from '../../../src/index.js';
import { markup, type SafeHtml } from './html.js';
import { IDP_SETUPS, type IdpField } from './idp-setup.js';
import { signOutForm } from './render.js';

/** What the setup page shows. */
export interface SetupView {
  readonly tenant: string;
  /** The SCIM base URL clients reach this server at. */
  readonly baseUrl: string;
  /** The session's anti-forgery token, carried by every form. */
  readonly csrf: string;
  /** The tenant's keys, or undefined when the server's keys are not managed here. */
  readonly keys: readonly ListedApiKey[] | undefined;
  /** Whether this session may issue, rotate and revoke keys. */
  readonly canManage: boolean;
  /** A key just issued or rotated: its secret is shown this once. */
  readonly issued?: IssuedApiKey | undefined;
  /** What went wrong with the last action, for the person to fix. */
  readonly problem?: string | undefined;
}

const when = (date: Date | null, none: string) =>
  date === null
    ? markup`<span class="empty">${none}</span>`
    : markup`<time>${date.toISOString()}</time>`;

const copyButton = (target: string) =>
  markup`<button type="button" class="copy" data-copy="${target}">Copy</button>`;

const hidden = (csrf: string) => markup`<input type="hidden" name="csrf" value="${csrf}" />`;

function secretBox(issued: IssuedApiKey): SafeHtml {
  return markup`<div id="new-secret" class="new-secret" data-key-id="${issued.id}">
    <p>
      The new key <code>${issued.id}</code>. Copy it now: it is shown this once, and only its hash
      is kept.
    </p>
    <p><code id="secret">${issued.secret}</code> ${copyButton('secret')}</p>
  </div>`;
}

function issueForm(csrf: string): SafeHtml {
  return markup`<form id="issue-key" class="issue" method="post" action="/console/keys/issue">
    ${hidden(csrf)}
    <label>Label <input name="label" maxlength="200" placeholder="entra" /></label>
    <label
      >Scopes
      <select name="scope">
        <option value="write">scim:read, scim:write</option>
        <option value="read">scim:read only</option>
      </select></label
    >
    <label
      >Expires
      <select name="expires">
        <option value="">never</option>
        <option value="30">in 30 days</option>
        <option value="90">in 90 days</option>
        <option value="365">in 365 days</option>
      </select></label
    >
    <button type="submit">Issue a key</button>
  </form>`;
}

function keyActions(key: ListedApiKey, csrf: string): SafeHtml | string {
  if (key.status !== 'active') return '';
  const action = (verb: 'rotate' | 'revoke', label: string) =>
    markup`<form method="post" action="/console/keys/${verb}">
      ${hidden(csrf)}<input type="hidden" name="id" value="${key.id}" />
      <button type="submit" class="${verb}">${label}</button>
    </form>`;
  return markup`${action('rotate', 'Rotate')}${action('revoke', 'Revoke')}`;
}

function keyTable(keys: readonly ListedApiKey[], csrf: string, canManage: boolean): SafeHtml {
  if (keys.length === 0) return markup`<p class="empty">No key yet.</p>`;
  return markup`<table>
    <thead>
      <tr>
        <th>id</th>
        <th>label</th>
        <th>prefix</th>
        <th>scopes</th>
        <th>created</th>
        <th>expires</th>
        <th>last used</th>
        <th>status</th>
        ${canManage ? markup`<th></th>` : ''}
      </tr>
    </thead>
    <tbody>
      ${keys.map(
        (key) =>
          markup`<tr data-key-id="${key.id}">
            <td><code>${key.id}</code></td>
            <td>${key.label ?? ''}</td>
            <td><code>scimkit_${key.id}_…</code></td>
            <td>${key.scopes.join(', ')}</td>
            <td>${when(key.createdAt, '—')}</td>
            <td>${when(key.expiresAt, 'never')}</td>
            <td>${when(key.lastUsedAt, 'never')}</td>
            <td class="key-status status-${key.status}">${key.status}</td>
            ${canManage ? markup`<td class="actions">${keyActions(key, csrf)}</td>` : ''}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function keysSection(view: SetupView): SafeHtml {
  if (view.keys === undefined)
    return markup`<p class="note">
      This server takes its keys from <code>SCIM_API_KEYS</code>: they are issued and revoked
      there, not here. Without <code>SCIM_API_KEYS</code> the server keeps its keys in its
      database and this page manages them.
    </p>`;
  return markup`${view.issued ? secretBox(view.issued) : ''}
    ${
      view.canManage
        ? issueForm(view.csrf)
        : markup`<p class="note">To issue, rotate or revoke keys, sign in with the form using a key that has scim:write.</p>`
    }
    <p class="note">
      Rotate issues a successor and lets the old key work 24 more hours, time to update the
      IdP. Revoke stops a key at once.
    </p>
    ${keyTable(view.keys, view.csrf, view.canManage)}`;
}

function fieldValue(field: IdpField, baseUrl: string): SafeHtml {
  const { value } = field;
  if ('base' in value) return markup`<code class="base-url">${baseUrl}</code>`;
  if ('key' in value) return markup`an API key of this tenant (issue one above)`;
  return markup`<code>${value.text}</code>`;
}

/** The steps for every IdP of {@link IDP_SETUPS}, with this server's values filled in. */
export function idpSection(baseUrl: string): SafeHtml {
  return markup`${IDP_SETUPS.map(
    (idp) =>
      markup`<details class="idp" id="idp-${idp.id}">
        <summary>${idp.name}</summary>
        <ol>
          <li>
            Open ${idp.where.map((step, i) => markup`${i === 0 ? '' : ' → '}<b>${step}</b>`)}.
          </li>
          ${idp.fields.map(
            (field) =>
              markup`<li class="field" data-label="${field.label}">
                Set <b>${field.label}</b> to ${fieldValue(field, baseUrl)}.
              </li>`,
          )}
          ${idp.then.map((step) => markup`<li>${step}</li>`)}
        </ol>
      </details>`,
  )}`;
}

/** The setup page: the SCIM base URL, the tenant's API keys, and how to connect each IdP. */
export function setupPage(view: SetupView): SafeHtml {
  return markup`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>scimkit console · setup · ${view.tenant}</title>
        <meta name="viewport" content="width=device-width" />
        <link rel="stylesheet" href="/console/assets/console.css" />
      </head>
      <body class="setup">
        <header>
          <h1>Connect an identity provider</h1>
          <span>tenant <b id="tenant">${view.tenant}</b></span>
          <a href="/console">Console</a>
          ${signOutForm(view.csrf)}
        </header>
        <main>
          ${view.problem ? markup`<p class="error" id="problem">${view.problem}</p>` : ''}
          <section>
            <h2>SCIM base URL</h2>
            <p><code id="base-url">${view.baseUrl}</code> ${copyButton('base-url')}</p>
          </section>
          <section>
            <h2>API keys</h2>
            <div id="keys">${keysSection(view)}</div>
          </section>
          <section>
            <h2>Step by step</h2>
            <div id="idps">${idpSection(view.baseUrl)}</div>
          </section>
        </main>
        <script src="/console/assets/setup.js"></script>
      </body>
    </html> `;
}
