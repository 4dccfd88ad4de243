#!/usr/bin/env node
// The `decision-memory` command. The sources are TypeScript, run through tsx's loader so that a
// fresh clone needs only `npm ci`.
import { register } from 'tsx/esm/api'

register()
const args = process.argv.slice(2)
// The guard runs before every Bash command of an agent: it loads only its own small module, not
// the whole CLI (the service's dependencies take most of a second to load).
const main = args[0] === 'guard' ? (await import('../src/cli/guard.ts')).guardMain : (await import('../src/cli/main.ts')).main
const code = await main(args)
// -1: the command keeps running (serve) and exits on its own.
if (code !== -1) process.exitCode = code
