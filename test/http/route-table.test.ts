/**
 * Every route of the sandbox fits Hono's RegExpRouter. One ambiguous route (a `:param` beside static routes at the
 * same place) makes Hono's SmartRouter fall back to its TrieRouter for every request of the sandbox, which costs
 * allocations on every request (docs/benchmarks.md, "Performance devices"). This test names the route that did it.
 */
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { describe, expect, it } from 'vitest';
import { DEMO, testSandbox } from '../support/helpers.js';

function fits(routes: readonly { method: string; path: string }[]): boolean {
  try {
    const router = new RegExpRouter<number>();
    for (const [i, route] of routes.entries()) router.add(route.method, route.path, i);
    router.match('GET', '/');
    return true;
  } catch {
    return false;
  }
}

describe('the route table', () => {
  it('is served by the RegExpRouter, with no route it cannot take', async () => {
    const { sandbox, close } = await testSandbox();
    const routes = sandbox.app.routes.map((route) => `${route.method} ${route.path}`);
    // The first route that no longer fits, with every route before it (RegExpRouter builds once, on its first match).
    const all = sandbox.app.routes;
    const refused = fits(all) ? [] : routes.filter((_, i) => !fits(all.slice(0, i + 1)) && fits(all.slice(0, i)));
    expect(refused).toEqual([]);
    await sandbox.app.request('/__sandbox/health');
    expect(sandbox.app.router.name).toBe('SmartRouter + RegExpRouter');
    await close();
  });

  it('still names an unknown recipient verb in a 400, under a tenant too', async () => {
    const { request, close } = await testSandbox();
    for (const prefix of ['', `/platforms/${DEMO.apiKey}`]) {
      const res = await request(`/__sandbox${prefix}/recipients/someone/dance`, { method: 'POST' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'Unknown verb "dance"; a recipient can view, sign, approve, lock' });
    }
    expect((await request('/__sandbox/recipients/someone', { method: 'POST' })).status).toBe(404);
    await close();
  });
});
