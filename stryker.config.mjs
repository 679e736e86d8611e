// @ts-check
/**
 * Mutation testing (`npm run mutation`, docs/mutation.md): StrykerJS with its vitest runner over
 * the modules where a bug costs users most. The tests it runs are vitest.mutation.config.ts's.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  mutate: [
    // The signing core: EIP-712 options messages, perp actions, signatures, hashing, keys.
    'src/signing/*.ts',
    '!src/signing/index.ts',
    // The wire and lossless body code is src/signing/wire.ts and src/signing/body.ts (above).
    // The server's authentication, nonce and rate-limit code.
    'src/server/auth.ts',
    'src/server/stores.ts',
    'src/server/limits.ts',
    // The diff's error-code catalog and EIP-712 rules.
    'src/diff/catalog.ts',
    'src/diff/signing.ts',
    // The generators' error and typed-data emitters.
    'generators/emit-errors.ts',
    'generators/emit-typed-data.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 10_000,
  timeoutFactor: 2,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // The sandbox needs no build output nor earlier reports.
  ignorePatterns: ['dist', 'reports', '.tmp', 'bench/.out', 'coverage'],
  // Vitest strips types without checking them, so no '// @ts-nocheck' is needed (it would also
  // change src/contract/generated, which a test compares byte for byte with the generator's output).
  disableTypeChecks: false,
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
}
