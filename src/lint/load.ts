/**
 * Loading for lint, which must not stop at a broken extension: the loader refuses a layer it
 * cannot read (right for `serve` or `sign`), but a linter is where one goes to find out what is
 * wrong with it. A layer that does not load becomes a `layer-invalid` finding and is left out,
 * so OpenAPI validity and the other layers' rules still run.
 */
import { contractFromSource, LAYER_NAMES, layerKey, type Contract, type LoadOptions } from '../contract/load.ts'
import { readSpecFile, type SpecSource } from '../contract/source.ts'
import { InputError } from '../errors.ts'
import type { LintFinding } from './findings.ts'
import { LINT_RULES } from './registry.ts'

export interface LintLoad {
  readonly contract: Contract
  /** One finding per extension that is present but could not be read. */
  readonly broken: readonly LintFinding[]
}

function without(source: SpecSource, keys: readonly string[]): SpecSource {
  const doc = { ...source.doc }
  for (const k of keys) delete doc[k]
  return { ...source, doc }
}

export function loadForLint(path: string, options: LoadOptions = {}): LintLoad {
  // A lint usually reports something on a third party's spec: index the lines in the one parse.
  const source = readSpecFile(path, { indexLines: true })
  try {
    return { contract: contractFromSource(source, options), broken: [] }
  } catch (err) {
    if (!(err instanceof InputError)) throw err
    const present = LAYER_NAMES.map((l) => layerKey(l, options.service)).filter((k) => k in source.doc)
    // Not a layer's fault (not OpenAPI, a catalog under another service word...): refuse as before.
    try {
      contractFromSource(without(source, present), options)
    } catch {
      throw err
    }
    const broken: LintFinding[] = []
    for (const key of present) {
      try {
        contractFromSource(
          without(
            source,
            present.filter((k) => k !== key),
          ),
          options,
        )
      } catch (e) {
        if (!(e instanceof InputError)) throw e
        const why = e.message.startsWith(`${source.file}: `) ? e.message.slice(source.file.length + 2) : e.message
        broken.push({
          rule: 'layer-invalid',
          severity: LINT_RULES['layer-invalid'].level,
          pointer: `/${key}`,
          message: `${key} cannot be read (${why}); its rules were skipped`,
        })
      }
    }
    if (broken.length === 0) throw err
    return {
      contract: contractFromSource(
        without(
          source,
          broken.map((b) => b.pointer.slice(1)),
        ),
        options,
      ),
      broken,
    }
  }
}
