// Markup that is escaped by construction, for report.html and junit.xml: a page is built only from
// `markup` templates, and every value put into one is escaped (xml.ts) unless it is itself markup built
// the same way, or a list of such. A field read from a report (a shard's status, a finding's severity)
// can only ever be text: no writer has to remember to escape it, and none can forget.
//
// Not a library: html-template-tag returns plain strings (a nested template is escaped again unless each
// site opts out with `$${}`, a per-field choice again); escape-html-template-tag does what this does but
// is little used (a few thousand downloads a month). This is twenty lines over xmlEscape.
import { xmlEscape } from './xml.js';

const TEXT = Symbol('markup');

/** A piece of markup: only `markup` templates make one. */
export interface Markup {
  readonly [TEXT]: string;
}

/** What a template takes: markup as it is; text and numbers escaped; `false`, null and undefined as nothing; lists joined. */
export type MarkupValue = Markup | string | number | false | null | undefined | readonly MarkupValue[];

const isMarkup = (value: object): value is Markup => TEXT in value;

function render(value: MarkupValue): string {
  if (value === false || value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'object' && isMarkup(value)) return value[TEXT];
  return xmlEscape(String(value));
}

/** The tag: the template's own text is markup, every value in it is escaped unless it is markup. */
export function markup(strings: TemplateStringsArray, ...values: readonly MarkupValue[]): Markup {
  let text = strings[0];
  for (let i = 0; i < values.length; i++) text += render(values[i]) + strings[i + 1];
  return { [TEXT]: text };
}

/** The text of a finished document. */
export const serialize = (page: Markup): string => page[TEXT];
