import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { writeCompressedTwins } from './scripts/compressed-twins.js';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
const web = (file: string) => fileURLToPath(new URL(`./src/web/${file}`, import.meta.url));

/** After the browser build is written: a .br and a .gz twin of each larger file, sent by the server as is. */
function compressedTwins(): Plugin {
  return {
    name: 'compressed-twins',
    apply: 'build',
    async writeBundle({ dir }) {
      if (!dir) return;
      const written = await writeCompressedTwins(dir);
      this.info(`wrote ${written} compressed twins (.br, .gz)`);
    },
  };
}

/*
 * Two builds:
 * - `vite build`: the browser files, two pages: index.html (the SPA: logins, admin, agent) and
 *   public.html (the template the server renders / and /satta-results/{name} into, with its own small
 *   entry that hydrates them without the router). The manifest lets scripts/check-public-budget.ts
 *   weigh what the public page loads. Each larger file gets a .br and a .gz twin (compressedTwins), which
 *   the server sends instead of compressing the file for every request.
 * - `vite build --ssr`: src/web/entry-server.tsx into dist/ssr, imported by the server to render.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [compressedTwins()])],
  build: isSsrBuild
    ? {
        outDir: '../../dist/ssr',
        emptyOutDir: true,
        sourcemap: true,
        rolldownOptions: { input: web('entry-server.tsx') },
      }
    : {
        outDir: '../../dist/web',
        emptyOutDir: true,
        sourcemap: true,
        manifest: true,
        // Hashed file names let the server cache assets for a year.
        assetsDir: 'assets',
        rolldownOptions: {
          input: { index: web('index.html'), public: web('public.html') },
          // React is shared by both pages and changes least: one well-named chunk that stays cached.
          output: {
            codeSplitting: {
              groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
            },
          },
        },
      },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
}));
