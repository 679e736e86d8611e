import { defineConfig } from 'vitest/config'

/**
 * The fast loop (`npm run test:unit`): tests of the pure core that start no process, open no
 * socket and drive no browser, so they need no dist/ and finish in under a minute on two
 * loaded cores (the slow pure ones, property runs and whole-catalog sweeps, stay out). Everything else (the CLI as a subprocess, real servers on loopback, Prism,
 * Python, Chromium, the corpora) is the `integration` project; `npm test` runs both.
 */
const UNIT = [
  'test/signing/!(cli|jsonl-stream|perp-known-answers|differential|body-fast-path).test.ts',
  'test/contract/!(edited-spec|typos|line-index|server-needs).test.ts',
  'test/vectors/replay-hash.test.ts',
  'test/diff/{catalog,composition,eip712,input,plain,self}.test.ts',
  'test/generate/emit{,ters}.test.ts',
  'test/explain/note.test.ts',
  'test/server/{auth-unit,book-model,matching,rate-limiter,units,wire,verify-batch,retain}.test.ts',
  'test/server/stores/memory.test.ts',
  'test/check-server/registry.test.ts',
  'test/architecture/{layers,spreads}.test.ts',
  'test/check-client/plan.test.ts',
  'test/check-explore/{commands,ledger,clock,race-invariants,fields}.test.ts',
  'test/client-runtime/client.test.ts',
]
const ALL = ['test/**/*.test.ts', 'src/**/*.test.ts', 'generators/**/*.test.ts']

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // In CI a JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.tmp/vitest.json' }]] : ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL,
          exclude: UNIT,
          // Tests that spawn bin/oec.js run the compiled CLI: build dist/ first when it is older than the sources.
          globalSetup: ['test/setup/build-dist.ts'],
        },
      },
    ],
  },
})
