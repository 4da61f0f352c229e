/**
 * The contract as shown (src/domain/shown-contract.ts, docs/documents.md "The contract as shown"): one tag reader,
 * read in one pass (a lazy regular expression once searched ahead from every unclosed tag, so 150,000 of them
 * kept the recipient page busy for over ten seconds; one regular expression per placeholder made `returnValue`
 * quadratic), and one rule for each shown value where three readings disagreed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Shown,
  type Signer,
  documentFills,
  filledHtml,
  pageHtml,
  replacePlaceholderTags,
  shownValue,
  stampContent,
  tagOf,
} from '../../src/domain/shown-contract.js';
import type { PlaceholderRecord } from '../../src/store/records.js';
import { FUZZ_RUNS, FUZZ_SEED } from '../support/fuzz-kit.js';

describe('placeholder tags', () => {
  it('replaces 150,000 unclosed tags, each once', () => {
    const html = '<placeholder7 class="x">'.repeat(150_000);
    const out = pageHtml(html, new Map());
    expect(out.match(/<span class="placeholder empty">placeholder 7<\/span>/g)).toHaveLength(150_000);
  });

  it('replaces 150,000 tags without a closing ">" as text, untouched', () => {
    const html = '<sign1 '.repeat(150_000);
    expect(replacePlaceholderTags(html, () => 'X')).toBe(html);
  });

  it('pairs each tag with its own closing tag, as the regular expression did', () => {
    const seen: string[] = [];
    const out = replacePlaceholderTags(
      '<p>A <placeholder1>one</placeholder1>, <SIGN2/> and <date3>x</date3 > <email4>open',
      (name, id) => {
        seen.push(`${name}${id}`);
        return `[${name}${id}]`;
      },
    );
    expect(out).toBe('<p>A [placeholder1], [sign2] and [date3] [email4]open');
    expect(seen).toEqual(['placeholder1', 'sign2', 'date3', 'email4']);
  });

  it('agrees with the lazy regular expression on any mix of tags and text', () => {
    const part = fc.constantFrom(
      '<placeholder1>',
      '</placeholder1>',
      '<sign2 a="b">',
      '</sign2>',
      '<date1>',
      'text ',
      '<b>',
      '>',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 30 }), (parts) => {
        const html = parts.join('');
        const regex = /<(placeholder|sign|date|fullname|email)(\d+)\b[^>]*>(?:[\s\S]*?<\/\1\2\s*>)?/gi;
        const expected = html.replace(regex, (_m, name: string, id: string) => `[${name.toLowerCase()}${id}]`);
        expect(replacePlaceholderTags(html, (name, id) => `[${name}${id}]`)).toBe(expected);
      }),
      { seed: FUZZ_SEED, numRuns: FUZZ_RUNS * 5 },
    );
  });
});

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function record(fields: Partial<PlaceholderRecord>): PlaceholderRecord {
  return {
    placeholderKey: 'p1',
    clientKey: 'c',
    id: '1',
    name: 'Price',
    value: '',
    type: '1',
    position: 1,
    isSpecial: false,
    insertion: [],
    createTime: 0,
    changeTime: 0,
    ...fields,
  } as PlaceholderRecord;
}

const signed: Signer = { state: 'signed', name: 'Ada Lovelace' };
const notYet: Signer = { state: 'notified', name: 'Ada Lovelace' };

/** The three places, as each shows one tag `<TAG>as written</TAG>` of the placeholder. */
function everywhere(p: PlaceholderRecord, signer: Signer | undefined) {
  const tag = tagOf(p);
  const shown = new Map([[tag, shownValue(p, signer)]]);
  const html = `<p><${tag} class="x">as written</${tag}></p>`;
  return {
    api: filledHtml(html, shown),
    page: pageHtml(html, shown),
    document: documentFills(shown).get(tag),
    stamp: stampContent(shown.get(tag)!),
  };
}

describe('one rule where the three readings disagreed (docs/documents.md, "The contract as shown")', () => {
  // Before: `filledHtml` (returnValue, recipient_contract) and the documents read the type from the key's `_N`
  // ending; the recipient page only from `specialType`, so it printed a signature's data URI as text.
  it('a special placeholder recorded without specialType takes its type from its key, everywhere', () => {
    const p = record({ placeholderKey: 'rk_4', isSpecial: true, recipientKey: 'rk', name: 'Signature', value: PNG });
    expect(shownValue(p, signed)).toEqual({ kind: 'image', src: PNG, signer: 'Ada Lovelace' });
    const shown = everywhere(p, signed);
    expect(shown.api).toBe(`<p><sign1 class="x"><img src="${PNG}" alt="signature"></sign1></p>`);
    expect(shown.page).toBe(`<p><img class="signature" alt="Signature of Ada Lovelace" src="${PNG}"></p>`);
    expect(shown.document).toMatchObject({ alt: 'Signature of Ada Lovelace', image: { format: 'png' } });
    expect(shown.stamp).toMatchObject({ kind: 'image', format: 'png' });
  });

  // Before: only `filledHtml` drew a table; the page and the documents printed its JSON.
  it('a table value shows as a table, everywhere', () => {
    const p = record({ isTable: true, value: JSON.stringify({ columns: ['Item', 'EUR'], rows: [['Desk', 120]] }) });
    const table =
      '<table><thead><tr><th>Item</th><th>EUR</th></tr></thead><tbody><tr><td>Desk</td><td>120</td></tr></tbody></table>';
    const shown = everywhere(p, undefined);
    expect(shown.api).toBe(`<p><placeholder1 class="x">${table}</placeholder1></p>`);
    expect(shown.page).toBe(`<p>${table}</p>`);
    expect(shown.document).toEqual({ table: { columns: ['Item', 'EUR'], rows: [['Desk', '120']] } });
    expect(shown.stamp).toEqual({ kind: 'text', text: 'Item | EUR / Desk | 120' });
  });

  it('a table value that is not table JSON shows as its text', () => {
    expect(shownValue(record({ isTable: true, value: '{"columns": 3}' }), undefined)).toEqual({
      kind: 'text',
      text: '{"columns": 3}',
      signature: false,
    });
  });

  // Before: only the PDF hid a recipient's name and signature until that recipient signed.
  it.each([
    ['full name', 2, 'fullname1', 'Full name', 'Ada Lovelace'],
    ['signature', 4, 'sign1', 'Signature', 'Ada L.'],
  ] as const)('a %s shows nowhere before its recipient signed, and everywhere after', (_n, type, tag, label, value) => {
    const p = record({
      placeholderKey: `rk_${type}`,
      isSpecial: true,
      specialType: type,
      recipientKey: 'rk',
      name: label,
      value,
    });
    const before = everywhere(p, notYet);
    expect(before.api).toBe(`<p><${tag} class="x">as written</${tag}></p>`);
    expect(before.page).toBe(`<p><span class="placeholder empty">${label}</span></p>`);
    expect(before.document).toBeUndefined();
    expect(before.stamp).toEqual({ kind: 'empty', label });
    const after = everywhere(p, { ...signed, state: 'approved' });
    expect(after.api).toBe(`<p><${tag} class="x">${value}</${tag}></p>`);
    expect(after.page).toContain(`>${value}</span>`);
    expect(after.document).toBe(value);
  });

  // Before: the API answered a date signed as ISO, the page and the documents in the time format for people.
  it('a date signed shows in the time format for people, everywhere', () => {
    const p = record({
      placeholderKey: 'rk_1',
      isSpecial: true,
      specialType: 1,
      recipientKey: 'rk',
      value: '2026-11-21T09:00:00.000Z',
    });
    const shown = everywhere(p, notYet);
    expect(shown.api).toBe('<p><date1 class="x">2026-11-21 09:00:00 UTC</date1></p>');
    expect(shown.page).toBe('<p><span class="placeholder">2026-11-21 09:00:00 UTC</span></p>');
    expect(shown.document).toBe('2026-11-21 09:00:00 UTC');
  });

  it.each([
    ['an empty value', record({}), { kind: 'empty', label: 'Price' }],
    [
      'an ordinary value, escaped where written',
      record({ value: '<b>&' }),
      { kind: 'text', text: '<b>&', signature: false },
    ],
    [
      'a typed signature',
      record({ placeholderKey: 'rk_4', isSpecial: true, specialType: 4, recipientKey: 'rk', value: 'Ada' }),
      { kind: 'text', text: 'Ada', signature: true },
    ],
  ] as [string, PlaceholderRecord, Shown][])('%s', (_name, p, expected) => {
    expect(shownValue(p, signed)).toEqual(expected);
  });

  it('an SVG signature (the generated one) is an image on the page, the signer named in the documents', () => {
    const svg = 'data:image/svg+xml;base64,PHN2Zy8+';
    const p = record({ placeholderKey: 'rk_4', isSpecial: true, specialType: 4, recipientKey: 'rk', value: svg });
    const shown = everywhere(p, signed);
    expect(shown.page).toContain(`src="${svg}"`);
    expect(shown.document).toBe('Signed: Ada Lovelace');
    expect(shown.stamp).toEqual({ kind: 'script', text: 'Ada Lovelace' });
  });
});

describe('the filled contract under many tags', () => {
  it('fills 15,000 unclosed tags of two placeholders in one pass, each tag once', () => {
    const html = '<placeholder1 class="placeholderClass" contenteditable="false">'.repeat(15_000);
    const shown = new Map<string, Shown>([
      ['placeholder1', { kind: 'text', text: 'one', signature: false }],
      ['placeholder2', { kind: 'text', text: 'two', signature: false }],
    ]);
    const out = filledHtml(html, shown);
    expect(out.match(/contenteditable="false">one<\/placeholder1>/g)).toHaveLength(15_000);
  });

  it('refuses with a 422 a filled contract past 10,000,000 characters, naming the limit', () => {
    const html = '<placeholder1>'.repeat(120_000);
    const shown = new Map<string, Shown>([['placeholder1', { kind: 'text', text: 'v'.repeat(100), signature: false }]]);
    for (const write of [filledHtml, pageHtml]) {
      expect(() => write(html, shown)).toThrow(/more than 10000000 characters long \(the limit\)/);
    }
  });

  it('fills each repeat of a tag from its own text: attributes, case and self-closing as written', () => {
    const html =
      '<placeholder1 class="a">,<placeholder1 class="b">,<PLACEHOLDER1 class="a">,<placeholder1/>,<placeholder1 class="a">';
    const shown = new Map<string, Shown>([['placeholder1', { kind: 'text', text: '1 & 2', signature: false }]]);
    const filled = (attributes: string) => `<placeholder1${attributes}>1 &amp; 2</placeholder1>`;
    expect(filledHtml(html, shown)).toBe(
      [' class="a"', ' class="b"', ' class="a"', '', ' class="a"'].map(filled).join(','),
    );
  });

  it('keeps a tag of no placeholder as written in the API, and names it on the page', () => {
    expect(filledHtml('<placeholder9>x</placeholder9>', new Map())).toBe('<placeholder9>x</placeholder9>');
    expect(pageHtml('<placeholder9>x</placeholder9>', new Map())).toBe(
      '<span class="placeholder empty">placeholder 9</span>',
    );
  });
});
