import { html, type SafeHtml } from './html.ts';

/**
 * The only script of Innkeep's pages, served at /assets/innkeep.js: it shows the copy buttons, which the
 * markup keeps `hidden` so that a page without scripts shows no button that cannot work. A button names
 * the element holding the text in `data-copy`; its `.copy-status` sibling (a live region) says what
 * happened. Where the clipboard is refused (a plain-http page, a denied permission), the text is selected
 * for the person to copy by hand.
 */
export const innkeepScript = `'use strict';
for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy);
  const status = button.parentElement.querySelector('.copy-status');
  if (source === null) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.textContent);
      if (status !== null) status.textContent = 'Copied.';
    } catch {
      window.getSelection().selectAllChildren(source);
      if (status !== null) status.textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
    }
  });
}
`;

/**
 * A copy button for the text of the element with id `sourceId`, with the live region that reports the
 * copy. Hidden until {@link innkeepScript} shows it; a page using it sets `enhanced` in `renderPage`.
 */
export function copyButton(sourceId: string, label: string): SafeHtml {
  return html`<p class="copy"><button class="secondary" type="button" data-copy="${sourceId}" hidden>${label}</button> <span class="copy-status hint" role="status"></span></p>`;
}
