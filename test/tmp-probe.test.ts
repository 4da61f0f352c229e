import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { threadRenderer } from '../src/render/thread.js';
it('probe', async () => {
  const r = threadRenderer(new URL('../dist/render/worker.js', import.meta.url));
  const bytes = readFileSync(process.env.PROBE_FILE!);
  const t0 = performance.now();
  const results = await Promise.allSettled(Array.from({ length: 20 }, () => r.inspectPdf(new Uint8Array(bytes))));
  console.log(
    performance.now() - t0,
    results.map((x) => (x.status === 'fulfilled' ? 'ok' : String(x.reason).slice(0, 200))),
  );
  await r.close();
}, 120000);
