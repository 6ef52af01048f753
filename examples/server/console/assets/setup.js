/* global document, navigator, Element */
// The setup page's only script: its Copy buttons put the text of an element on the clipboard
// (the base URL, or a key just issued). Without it the text can still be selected and copied.
'use strict';
(function () {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button.copy') : null;
    if (!(button instanceof Element)) return;
    const source = document.getElementById(button.getAttribute('data-copy') || '');
    if (!source) return;
    navigator.clipboard.writeText(source.textContent || '').then(
      () => {
        button.textContent = 'Copied';
      },
      () => {
        button.textContent = 'Select and copy';
      },
    );
  });
})();
