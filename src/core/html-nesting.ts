/**
 * Contract HTML with its nesting bounded, in one pass (docs/documents.md, work limits): elements opened deeper than
 * `maxDepth` lose their tags (their text stays). HTML parsers keep a stack of open elements and the sanitiser walks
 * it on every tag, so 100,000 nested `<b>` cost them minutes; bounded first, they read any input in linear time.
 *
 * The reading is a parser's in brief: void elements (`<br>`, `<img>`) hold nothing; a `<p>`, `<li>`, `<tr>`, `<td>`
 * (…) closes the open one of its kind, as HTML implies; a closing tag closes up to its element, or is dropped with
 * the opening tag it belonged to when that one was dropped.
 */
/** How deep contract HTML may nest before its deeper tags are dropped (docs/documents.md, work limits). */
export const MAX_HTML_DEPTH = 100;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** Opening one of these closes an open element of the listed kinds at the top of the stack. */
const IMPLIED_CLOSE: Record<string, readonly string[]> = {
  p: ['p'],
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  tr: ['tr', 'td', 'th'],
  td: ['td', 'th'],
  th: ['td', 'th'],
  option: ['option'],
};

export function limitNesting(html: string, maxDepth = MAX_HTML_DEPTH): string {
  const stack: string[] = [];
  const open = new Map<string, number>();
  const dropped = new Map<string, number>();
  const out: string[] = [];
  let last = 0;
  const pop = () => {
    const name = stack.pop()!;
    open.set(name, open.get(name)! - 1);
  };
  const skip = (start: number, end: number) => {
    out.push(html.slice(last, start));
    last = end;
  };
  // A tag runs to the next ">": only the text up to the last ">" can hold one, so no match attempt scans in vain.
  const tag = /<(\/?)([A-Za-z][^\s/>]*)[^>]*>/g;
  const head = html.slice(0, html.lastIndexOf('>') + 1);
  for (let m = tag.exec(head); m; m = tag.exec(head)) {
    const name = m[2]!.toLowerCase();
    if (m[1]) {
      if ((open.get(name) ?? 0) > 0) while (stack.length && stack[stack.length - 1] !== name) pop();
      if (stack.length && stack[stack.length - 1] === name) pop();
      else if ((dropped.get(name) ?? 0) > 0) {
        dropped.set(name, dropped.get(name)! - 1);
        skip(m.index, tag.lastIndex);
      }
      continue;
    }
    if (VOID.has(name) || m[0].endsWith('/>')) continue;
    const closes = IMPLIED_CLOSE[name];
    if (closes && stack.length && closes.includes(stack[stack.length - 1]!)) pop();
    if (stack.length >= maxDepth) {
      dropped.set(name, (dropped.get(name) ?? 0) + 1);
      skip(m.index, tag.lastIndex);
      continue;
    }
    stack.push(name);
    open.set(name, (open.get(name) ?? 0) + 1);
  }
  if (last === 0) return html;
  out.push(html.slice(last));
  return out.join('');
}
