#!/usr/bin/env node
// The `decision-memory` command. It runs the bundle `npm ci` builds (dist/cli/main.mjs, see
// scripts/build.mjs) when that is newer than every source; otherwise (no build, or a source
// changed since, while developing) the TypeScript sources themselves, through tsx's loader.
// main.ts loads only the module of the command that runs.
import { readdirSync, statSync } from 'node:fs'

const BUNDLE = new URL('../dist/cli/main.mjs', import.meta.url)
const SOURCES = new URL('../src/', import.meta.url)

function bundleIsCurrent() {
  let built
  try {
    built = statSync(BUNDLE).mtimeMs
  } catch {
    return false
  }
  for (const file of readdirSync(SOURCES, { recursive: true })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.suite.ts')) continue
    if (statSync(new URL(file, SOURCES)).mtimeMs > built) return false
  }
  return true
}

let main
if (bundleIsCurrent()) {
  ;({ main } = await import(BUNDLE.href))
} else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/cli/main.ts'))
}
const code = await main(process.argv.slice(2))
// -1: the command keeps running (serve, mcp) and exits on its own.
if (code !== -1) process.exitCode = code
