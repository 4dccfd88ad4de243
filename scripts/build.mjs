// `npm run build` (and `npm ci`, through `prepare`): bundles the sources into dist/cli/main.mjs,
// the module bin/decision-memory.js runs when it is newer than every source. Compiling the
// TypeScript on the fly (tsx's loader) costs each start of the command about 300 ms and the
// service 20 MB of memory for the loader's own thread. Packages stay outside the bundle (they
// are loaded from node_modules as usual). The bundle sits two folders down, as the sources do,
// so that the paths they resolve against their own module (policies/, package.json) still hold.
//
// Without esbuild (an install that left it out), nothing is built and the command runs the
// sources through tsx: the build never fails an install.
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
let esbuild
try {
  esbuild = await import('esbuild')
} catch {
  process.stderr.write('build: esbuild is not installed; the command will run the TypeScript sources through tsx\n')
  process.exit(0)
}
rmSync(`${root}dist`, { recursive: true, force: true })
await esbuild.build({
  entryPoints: [`${root}src/cli/main.ts`],
  outfile: `${root}dist/cli/main.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
})
