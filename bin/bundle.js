// Which code the `decision-memory` command runs: the bundle `npm ci` builds (dist/cli/main.mjs,
// see scripts/build.mjs) when it is newer than every source; otherwise (no build, or a source
// changed since, while developing) the TypeScript sources, through tsx's loader. The benchmark
// asks the same question, so that it never measures the sources for the bundle.
import { readdirSync, statSync } from 'node:fs'

export const BUNDLE = new URL('../dist/cli/main.mjs', import.meta.url)
const SOURCES = new URL('../src/', import.meta.url)

/** Why the bundle would not be run: no bundle, or a source changed after it was built; null when it would. */
export function bundleNotRun() {
  let built
  try {
    built = statSync(BUNDLE).mtimeMs
  } catch {
    return 'there is no bundle (`npm run build`; npm ci runs it)'
  }
  for (const file of readdirSync(SOURCES, { recursive: true })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.suite.ts')) continue
    if (statSync(new URL(file, SOURCES)).mtimeMs > built) return `src/${file} changed after the bundle was built`
  }
  return null
}
