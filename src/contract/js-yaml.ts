/**
 * js-yaml with the YAML 1.2 core schema (duplicate keys refused): several times faster than the
 * `yaml` package on a cold start, which every command pays for the spec and the rule catalog.
 * `yaml` stays where positions matter (the line of an error or a finding).
 */
import { createRequire } from 'node:module'

const jsyaml = createRequire(import.meta.url)('js-yaml') as {
  load(text: string, options: { schema: unknown; filename?: string }): unknown
  readonly CORE_SCHEMA: unknown
}

/** Parses YAML (or JSON) text; throws js-yaml's error on invalid text. */
export function loadCoreYaml(text: string, filename?: string): unknown {
  return jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA, ...(filename !== undefined ? { filename } : {}) })
}
