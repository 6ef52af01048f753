/* global document, location, history, fetch, setTimeout, URLSearchParams, FormData, Element, HTMLElement, HTMLDetailsElement */
// The console's only script: keeps the page current by polling /console/live, and applies the
// log filters without a reload. The server renders (and escapes) every fragment it sends.
'use strict';
(function () {
  const POLL_MS = 1000;
  let stamp = document.body.dataset.stamp || '';

  /** @param {boolean} withStamp */
  function query(withStamp) {
    /** @type {HTMLFormElement | null} */
    const form = document.querySelector('form.filters');
    const params = new URLSearchParams();
    if (form) for (const [name, value] of new FormData(form)) params.append(name, String(value));
    if (withStamp) params.set('stamp', stamp);
    return params;
  }

  /**
   * @param {string} id
   * @param {string} fragment
   */
  function replace(id, fragment) {
    const element = document.getElementById(id);
    if (!element) return;
    // Requests opened by the reader stay open when the log is redrawn.
    const open = new Set(
      Array.from(element.querySelectorAll('details[open]'), (d) =>
        d instanceof HTMLElement ? d.dataset.seq : undefined,
      ),
    );
    element.innerHTML = fragment;
    for (const details of element.querySelectorAll('details[data-seq]'))
      if (details instanceof HTMLDetailsElement)
        if (open.has(details.dataset.seq)) details.open = true;
  }

  /** @param {boolean} force */
  async function refresh(force) {
    const response = await fetch('/console/live?' + query(!force), { credentials: 'same-origin' });
    if (response.status === 401) return location.reload();
    if (response.status !== 200) return;
    const parts = await response.json();
    stamp = parts.stamp;
    document.body.dataset.stamp = stamp;
    replace('users', parts.users);
    replace('mailbox', parts.mailbox);
    replace('log', parts.log);
    const form = document.querySelector('form.filters');
    if (form && !form.contains(document.activeElement)) {
      const wrapper = document.createElement('div');
      wrapper.innerHTML = parts.filters;
      const fresh = wrapper.querySelector('form.filters');
      if (fresh) form.replaceWith(fresh);
    }
  }

  document.addEventListener('change', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('form.filters')) return;
    history.replaceState(null, '', '/console?' + query(false));
    refresh(true).catch(() => {});
  });

  async function poll() {
    try {
      await refresh(false);
    } catch {
      // The server restarts or the network drops: try again on the next tick.
    }
    setTimeout(poll, POLL_MS);
  }
  setTimeout(poll, POLL_MS);
})();
