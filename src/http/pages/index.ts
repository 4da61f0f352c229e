/**
 * Pages for people (docs/pages.md): the recipient page /sharing/<shareLink>, the dashboard /__sandbox/ui (GET /
 * leads there) and the assets both use. The dashboard acts through the control operations, as the control API does;
 * the recipient page through the door of a share link's holder (domain/recipient-acts.ts), as /api's recipient side.
 */
import { Hono } from 'hono';
import type { Control } from '../../control/control.js';
import type { Services } from '../../store/services.js';
import { serveAsset } from './assets.js';
import { type Connection, type DashboardDeps, dashboardRoutes } from './dashboard.js';
import { FAVICON_SVG } from './layout.js';
import { recipientPageRoutes } from './recipient.js';
import type { NotJournaled } from '../../journal/not-journaled.js';
import type { Renderer } from '../../render/renderer.js';

export interface PageDeps {
  services: Services;
  control: Control;
  /** The renderer (render/renderer.ts): its worker sanitises the recipient page's contract. */
  renderer: Renderer;
  scenarios: DashboardDeps['scenarios'];
  connection: Connection;
  maxBodyBytes: number;
}

/**
 * The dashboard polls itself every few seconds: journaling it would push the requests it shows out. The icon is
 * asked for by every browser tab.
 */
export const PAGES_NOT_JOURNALED: NotJournaled = {
  paths: ['/favicon.ico', '/__sandbox/ui'],
  under: ['/__sandbox/ui/'],
};

export function pageRoutes(deps: PageDeps): Hono {
  const app = new Hono();
  app.get('/', (c) => c.redirect('/__sandbox/ui', 302));
  app.get('/favicon.ico', (c) =>
    c.body(FAVICON_SVG, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' }),
  );
  app.get('/__sandbox/ui/assets/:file', serveAsset);
  app.route('/__sandbox/ui', dashboardRoutes(deps));
  app.route('/sharing', recipientPageRoutes(deps));
  return app;
}
