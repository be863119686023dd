import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The gateway serves the built UI at /ui/ (server/doors/http/staticUi.ts); the renderer imports the
 * pure PDU planner from ../server/pdu for its character counter, so the build root is this
 * folder and the output lands in dist/ui beside the compiled core.
 */
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: '../dist/ui',
    emptyOutDir: true,
    // The CSP forbids inline scripts; Vite's module preload polyfill would be one.
    modulePreload: { polyfill: false },
    // One ~540 kB bundle (React and the PDU planner's alphabet tables) loaded over loopback
    // from the gateway itself: splitting it would add requests and save nothing.
    chunkSizeWarningLimit: 800,
  },
});
