/** The bundle `npm ci` builds (dist/cli/main.mjs). */
export declare const BUNDLE: URL
/** Why the bundle would not be run: no bundle, or a source changed after it was built; null when it would. */
export declare function bundleNotRun(): string | null
