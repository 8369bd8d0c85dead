import { defineConfig } from 'vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import tailwindcss from '@tailwindcss/vite'
import { nitro } from 'nitro/vite'
import { fileURLToPath } from 'node:url'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  server: { port: 3000 },
  resolve: { alias: { '~': here('./app'), '#content': here('./content') } },
  plugins: [
    tailwindcss(),
    tanstackStart({ srcDirectory: 'app' }),
    // PGlite loads its WebAssembly and data files from its own package folder, so it ships unbundled.
    nitro({ traceDeps: ['@electric-sql/pglite*'] }),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    react(),
    lingui(),
  ],
})
