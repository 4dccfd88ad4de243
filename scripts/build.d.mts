/** Bundles src/cli/main.ts into `outdir` (default dist/cli): main.mjs, one module per command, and the chunks they share. */
export function build(esbuild: typeof import('esbuild'), outdir?: string): Promise<void>
