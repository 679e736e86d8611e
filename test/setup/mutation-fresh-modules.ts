/**
 * Setup file of vitest.mutation.config.ts only. The files share one worker and its module cache
 * (`isolate: false`, which keeps viem, ethers and ts-morph loaded between mutant runs), but the
 * project's own modules must start fresh for each test file: they memoise (compiled structs,
 * domain separators, string hashes, the shipped contract's signing core), and a value computed
 * before a mutant was switched on would hide that mutant. Resetting the registry re-evaluates
 * the sources (cheap) while node_modules stay loaded.
 */
import { vi } from 'vitest'

vi.resetModules()
