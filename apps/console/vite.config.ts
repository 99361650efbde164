import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npx nx serve console`: Vite with hot reload on :5173, the API, the console session and Socket.IO
// proxied to the running gateway (`npm start`, or GATEWAY_URL).
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  cacheDir: '../../node_modules/.vite/apps/console',
  plugins: [react()],
  server: {
    port: 5173,
    host: '127.0.0.1',
    proxy: { '/api': { target: gateway }, '/socket.io': { target: gateway, ws: true } },
  },
  build: {
    outDir: '../../dist/apps/console',
    emptyOutDir: true,
    // No inline script anywhere: the gateway's CSP allows scripts from its own origin only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
