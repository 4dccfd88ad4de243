// `npm run build` (and `npm ci`, through `prepare`): bundles the sources into dist/cli/, whose
// main.mjs bin/decision-memory.js runs when it is newer than every source. Compiling the
// TypeScript on the fly (tsx's loader) costs each start of the command about 0.6 s of CPU (about
// 1 s against the bundle's 0.3 to start) and the service about 30 MB of memory (README, Development). Most packages are bundled with it (below).
// The bundle sits two folders down, as the sources do,
// so that the paths they resolve against their own module (policies/, package.json) still hold.
//
// Split, not one file: main.ts imports each command's module only when that command runs, but
// one file has every package any command imports (hono, level, pino, the MCP SDK, ...) as a
// static import at its top, loaded on every start. Split, each command's module is a file of its
// own (hook-HASH.mjs), the code two share a chunk (chunk-HASH.mjs), and a command loads only the
// packages it uses: the hook, which starts on every AskUserQuestion, about half the CPU it took.
//
// Without esbuild (an install that left it out), nothing is built and the command runs the
// sources through tsx: the build never fails an install.
import { rmSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))

/** Bundles src/cli/main.ts into `outdir`: main.mjs, one module per command, and the chunks they share. */
export async function build(esbuild, outdir = `${root}dist/cli`) {
  await esbuild.build({
    entryPoints: [`${root}src/cli/main.ts`],
    outdir,
    outExtension: { '.js': '.mjs' },
    // ESM only: a chunk is imported by the modules that share it. Names are the module's and a
    // hash of its content, so that a build of the same sources writes the same files.
    splitting: true,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The packages the commands' code imports are bundled too: loaded from node_modules, each
    // start of a command resolved, read and compiled about 140 modules apart (zod's alone are 110),
    // 200 ms of the 550 a hook or guard call took, which Claude Code waits for on every question
    // and every Bash command. Left outside: LevelDB's (a native binary found beside its package),
    // pino (its transports run files of their own in worker threads), node-cron (its background
    // tasks fork a file of its own), swagger-ui-dist (/docs serves its files by their path), yaml
    // (loaded by require, only for a YAML policy), and the tools of development.
    external: ['level', 'classic-level', 'memory-level', 'pino', 'node-cron', 'swagger-ui-dist', 'yaml', 'tsx', 'esbuild'],
    // A package written as CommonJS (ajv, under the MCP SDK) requires Node's modules, which an ES
    // module bundle can do only through a require made for it.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'warning',
  })
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let esbuild
  try {
    esbuild = await import('esbuild')
  } catch {
    process.stderr.write('build: esbuild is not installed; the command will run the TypeScript sources through tsx\n')
    process.exit(0)
  }
  rmSync(`${root}dist`, { recursive: true, force: true })
  await build(esbuild)
}
