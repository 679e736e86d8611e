/**
 * The vitest configuration Stryker runs (`npm run mutation`, see docs/mutation.md): only the fast,
 * in-process unit and property tests of the mutation scope. No globalSetup (the main config's
 * rebuilds dist/, which a mutated sandbox must not do), and no test that spawns the CLI, builds
 * dist/, launches Chromium, packs the tarball or runs the whole conformance suite: those would
 * only exercise the unmutated dist/ and cost minutes per dry run.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      // Signing core, wire and lossless bodies.
      'test/signing/body.test.ts',
      'test/signing/msgpack.test.ts',
      'test/signing/native.test.ts',
      'test/signing/options.test.ts',
      'test/signing/differential.test.ts',
      'test/signing/verify.test.ts',
      'test/signing/seed-structs.test.ts',
      'test/signing/perp-known-answers.test.ts',
      'test/signing/wire.test.ts',
      'test/signing/signature.test.ts',
      'test/signing/protocol.test.ts',
      'test/signing/validation.test.ts',
      'test/signing/body-messages.test.ts',
      'test/signing/msgpack-edges.test.ts',
      'test/signing/eip712-caches.test.ts',
      'test/signing/body-fast-path.test.ts',
      'test/signing/protocol-fast-path.test.ts',
      'test/signing/options-fields.test.ts',
      'test/vectors/vectors.test.ts',
      // Server: authentication, nonces, rate limits (in-process servers on loopback).
      'test/server/auth.test.ts',
      'test/server/limits.test.ts',
      'test/server/seams.test.ts',
      'test/server/units.test.ts',
      'test/server/wire.test.ts',
      'test/server/perp.test.ts',
      'test/server/ws.test.ts',
      'test/server/stores/memory.test.ts',
      'test/server/auth-unit.test.ts',
      'test/server/rate-limiter.test.ts',
      // Diff: catalog and EIP-712 rules.
      'test/diff/rules.test.ts',
      'test/diff/plain.test.ts',
      'test/diff/catalog.test.ts',
      'test/diff/eip712.test.ts',
      // Generators: error and typed-data emitters.
      'test/generate/emit.test.ts',
      'test/generate/emitters.test.ts',
    ],
    // The few tests in those files that run the compiled CLI skip on this (test/helpers/mutation.ts).
    env: { OEC_MUTATION: '1' },
    // One module cache for all files: Stryker switches mutants at run time (mutant schemata), so
    // re-importing viem, ethers and ts-morph for every mutant run (most of its cost) buys nothing.
    // The files leave no global state behind (the crypto backend is reset after each).
    isolate: false,
    // ...but the project's own modules are re-evaluated for each file: they memoise results.
    setupFiles: ['test/setup/mutation-fresh-modules.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
