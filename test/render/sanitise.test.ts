/**
 * The recipient page's sanitiser under deep nesting: sanitize-html is quadratic in nesting depth
 * (200,000 nested spans took 33 s), so the nesting is bounded first (core/html-nesting.ts), the text kept.
 */
import { describe, expect, it } from 'vitest';
import { MAX_HTML_DEPTH } from '../../src/core/html-nesting.js';
import { sanitiseContractHtml } from '../../src/render/sanitise.js';

describe('sanitising contract HTML', () => {
  it('keeps the text of 200,000 nested spans, nested at most MAX_HTML_DEPTH deep', async () => {
    const html = `${'<span>'.repeat(200_000)}the terms${'</span>'.repeat(200_000)}<p>after</p>`;
    const out = await sanitiseContractHtml(html);
    expect(out).toContain('the terms');
    expect(out).toContain('<p>after</p>');
    expect(out.match(/<span>/g)!.length).toBeLessThanOrEqual(MAX_HTML_DEPTH);
  });

  it('still removes scripts at any depth', async () => {
    const out = await sanitiseContractHtml(
      `${'<div>'.repeat(5000)}<script>alert(1)</script>ok${'</div>'.repeat(5000)}`,
    );
    expect(out).not.toContain('script');
    expect(out).toContain('ok');
  });
});
