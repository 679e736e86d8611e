/** What the per-operation comparers (operations, parameters, bodies, responses) share. */
import type { JsonObject } from '../contract/model.ts'
import type { Collector } from './collect.ts'
import type { DiffSpec } from './input.ts'
import type { Sameness } from './same.ts'
import type { SchemaMemo } from './schema/index.ts'

export interface OpRef {
  readonly method: string
  readonly path: string
  readonly pointer: string
  readonly node: JsonObject
  readonly pathItem: JsonObject
  /** Pointer of the path item, where path-level parameters live. */
  readonly itemPtr: string
}

/** What every per-operation comparer needs: the two documents and the memo they share. */
export interface OpContext {
  readonly base: DiffSpec
  readonly head: DiffSpec
  readonly c: Collector
  readonly memo: SchemaMemo
  readonly same: Sameness
  /** ISO date (YYYY-MM-DD) used to judge `x-sunset`. */
  readonly today: string
}
