import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'generators/**/*.test.ts'],
    // Tests that spawn bin/oec.js run the compiled CLI: build dist/ first when it is older than the sources.
    globalSetup: ['test/setup/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // In CI a JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.tmp/vitest.json' }]] : ['default'],
  },
})
