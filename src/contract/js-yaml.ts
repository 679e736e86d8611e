/**
 * js-yaml with the YAML 1.2 core schema (duplicate keys refused): several times faster than the
 * `yaml` package on a cold start, which every command pays for the spec and the rule catalog.
 * `yaml` stays where js-yaml cannot say where an error is (the line of a YAML error).
 */
import { createRequire } from 'node:module'

/** What js-yaml's loader shows a listener when it opens and closes each node. */
export interface CoreYamlState {
  /** 0-based line of the reading position. */
  readonly line: number
  readonly kind: 'scalar' | 'mapping' | 'sequence' | null
  readonly result: unknown
}

const jsyaml = createRequire(import.meta.url)('js-yaml') as {
  load(
    text: string,
    // js-yaml reads each with `|| null`: an undefined one is an absent one.
    options: {
      schema: unknown
      filename?: string | undefined
      listener?: ((event: 'open' | 'close', state: CoreYamlState) => void) | undefined
    },
  ): unknown
  readonly CORE_SCHEMA: unknown
}

/** Parses YAML (or JSON) text; throws js-yaml's error on invalid text. */
export function loadCoreYaml(text: string, filename?: string, listener?: (event: 'open' | 'close', state: CoreYamlState) => void): unknown {
  return jsyaml.load(text, {
    schema: jsyaml.CORE_SCHEMA,
    filename,
    listener,
  })
}
