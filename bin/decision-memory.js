#!/usr/bin/env node
// The `decision-memory` command. The sources are TypeScript, run through tsx's loader so that a
// fresh clone needs only `npm ci`. main.ts loads only the module of the command that runs.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
const code = await main(process.argv.slice(2))
// -1: the command keeps running (serve, mcp) and exits on its own.
if (code !== -1) process.exitCode = code
