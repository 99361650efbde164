import { existsSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express, { Router } from 'express';
import helmet from 'helmet';

/**
 * The console's Content-Security-Policy: everything from this origin only, no inline script or
 * style, no third-party origin, no framing. `connect-src 'self'` covers the API and Socket.IO's
 * same-origin WebSocket.
 */
export const CONSOLE_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * The built console (`dist/apps/console`) at `/`: Vite's content-hashed files under `/assets/` are
 * cached for a year as `immutable`; `index.html` (also the answer for any other page path, the
 * router's) is revalidated every time, so a new release is seen at the next load. Paths under
 * `/api/` and `/internal/` never reach it. Without a build, `/` says how to make one.
 */
export function consoleRouter(dir: string): Router {
  const router = Router();
  router.use(helmet.contentSecurityPolicy(CONSOLE_CSP));
  // The console's files go gzipped to a browser that accepts it (the API's answers are the services' own).
  router.use(compression());
  const indexFile = path.join(dir, 'index.html');
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }));
  router.use(express.static(dir, { index: false, cacheControl: false, setHeaders: (res) => res.setHeader('cache-control', 'no-cache') }));
  // The router's pages: any GET of a path without an extension that is not the API's, nor the services' internal one (JSON 404).
  router.get(/^\/(?!api\/|api$|socket\.io|internal\/|internal$)[^.]*$/, (_req, res) => {
    if (!existsSync(indexFile)) {
      res.status(404).type('text/plain').send('The console is not built: run `npx nx build console` (npm start builds it).\n');
      return;
    }
    res.sendFile(indexFile, { cacheControl: false, headers: { 'cache-control': 'no-cache' } });
  });
  return router;
}
