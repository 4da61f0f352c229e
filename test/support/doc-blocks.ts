/**
 * The fenced code blocks of README.md and docs/*.md, for the test that runs them (test/docs/examples.test.ts):
 * each with its file, line, language, text and the HTML comment just above it, if any
 * (`<!-- example: skip: <why> -->` keeps a block out of the run, and the run lists it with its reason).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface DocBlock {
  /** The Markdown file, from the repo's root: `docs/documents.md`. */
  file: string;
  /** The line of the opening fence. */
  line: number;
  /** The fence's language, lower case (`sh`, `ts`, `json`, …), or '' for none. */
  lang: string;
  text: string;
  /** Why the block is not run, from an `<!-- example: skip: … -->` comment just above it. */
  skip?: string;
}

/** README.md and every docs/*.md, in name order. */
export function docFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

export function docBlocks(file: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([\w+-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(fence!); j++)
      body.push(lines[j]!.slice(indent!.length));
    let above = i - 1;
    while (above >= 0 && lines[above]!.trim() === '') above--;
    const skip = /<!--\s*example:\s*skip:\s*(.+?)\s*-->/.exec(lines[above] ?? '')?.[1];
    blocks.push({ file, line: i + 1, lang: lang!.toLowerCase(), text: body.join('\n'), ...(skip ? { skip } : {}) });
    i = j;
  }
  return blocks;
}
