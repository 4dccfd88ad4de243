#!/usr/bin/env node
// The `decision-memory` command: the bundle `npm ci` builds, or the TypeScript sources through
// tsx's loader when it is missing or older than a source (bundle.js). main.ts loads only the
// module of the command that runs.
import { BUNDLE, bundleNotRun } from './bundle.js'

// A SIGTERM or SIGINT sent to `serve` while its code loads (a supervisor's stop, sent at once) is
// held, not left to its default action (exit 143 or 130, no clean stop): main reads them, and
// holds them itself too (src/cli/stop-signals.ts). Left in place: one caught but not yet told of
// when its listener was removed would be lost. Other commands keep the default.
const early = []
const hold = (signal) => early.push(signal)
if (process.argv[2] === 'serve') {
  process.on('SIGTERM', hold)
  process.on('SIGINT', hold)
}

let main
if (bundleNotRun() === null) {
  ;({ main } = await import(BUNDLE.href))
} else {
  // tsx caches what it compiles in the temporary folder, and stops with a stack trace where it
  // cannot make its folder there (a read-only /tmp: a container's root, systemd's
  // ProtectSystem=strict): the sources then run without the cache.
  const { accessSync, constants } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  try {
    accessSync(tmpdir(), constants.W_OK)
  } catch {
    process.env.TSX_DISABLE_CACHE = '1'
  }
  // tsx's esbuild reads the current folder as it loads, and a shell left in a folder removed since
  // stopped it there with a stack trace. The hook and the guard take their folder from the payload:
  // loaded from this checkout, they run as under the bundle (a version before this ended them with
  // exit 1, the hook's event lost, a --fail-closed guard's deny not given). Another command says the
  // folder is gone, as main.ts does under the bundle where it reads it: tsx's source maps read the
  // folder again as each package loads, so the command cannot be run without one.
  try {
    process.cwd()
  } catch (error) {
    if (error.syscall !== 'uv_cwd') throw error
    const name = process.argv[2]
    if (name !== 'hook' && name !== 'guard') {
      process.stderr.write('decision-memory: the folder this runs in is gone (removed since the shell entered it): run it in a folder that exists\n')
      process.exit(1)
    }
    const { fileURLToPath } = await import('node:url')
    process.chdir(fileURLToPath(new URL('..', import.meta.url)))
  }
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/cli/main.ts'))
}
const code = await main(process.argv.slice(2), early)
// -1: the command keeps running (serve, mcp) and exits on its own.
if (code !== -1) process.exitCode = code
