import { escapeHtml } from '../activation-page.js';

/** HTML text that is already safe: built by {@link markup}, never from client text directly. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = SafeHtml | string | number | boolean | undefined | null | readonly Part[];

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return '';
  if (part instanceof SafeHtml) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/**
 * Builds HTML from a template: every interpolated value is escaped unless it is itself
 * `SafeHtml` (made by this tag), so client text (a userName, a request body) is only ever
 * text. Named `markup`, not `html`, so that prettier leaves the templates as written.
 */
export function markup(strings: TemplateStringsArray, ...parts: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  parts.forEach((part, i) => {
    out += render(part) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}
