/** Shared by the generate tests: temp dirs, a foreign spec, and one tsc run over a fixture project. */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { parseDocument } from 'yaml'
import { ROOT } from '../helpers/cli.ts'

export const SPEC = join(ROOT, 'spec/openapi.yaml')

export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(os.tmpdir(), `oec-gen-${prefix}-`))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Applies a text edit to a copy of the shipped spec, failing loudly when the anchor is gone. */
export function editedSpec(dir: string, name: string, edits: readonly [from: string, to: string][]): string {
  let text = readFileSync(SPEC, 'utf8')
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`spec edit anchor not found: ${from}`)
    text = text.replace(from, to)
  }
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

/**
 * Another repository's spec: its own catalog key (x-acme-error-codes), its own domain name and
 * one extra code, written as JSON to show the loader's format does not matter.
 */
export function acmeSpec(dir: string): string {
  const doc = parseDocument(readFileSync(SPEC, 'utf8'))
  const catalog = doc.get('x-service-error-codes') as { toJSON(): unknown[] }
  const entries = catalog.toJSON() as Record<string, unknown>[]
  entries.push({ ...entries[0], code: 'acme_only', description: 'Only Acme returns this.', http_status: [418], retryable: true })
  doc.delete('x-service-error-codes')
  doc.set('x-acme-error-codes', entries)
  doc.setIn(['x-eip712', 'domains', 'options', 'name'], 'Acme')
  doc.setIn(['info', 'title'], 'Acme Options API')
  // Names that collide with what the other files export: they must be renamed, not clash.
  doc.setIn(['components', 'schemas', 'ErrorCode'], { type: 'string', description: 'Collides with errors.ts.' })
  doc.setIn(['components', 'schemas', 'order-status'], { type: 'string', enum: ['open'] })
  const path = join(dir, 'acme-openapi.json')
  writeFileSync(path, JSON.stringify(doc.toJS(), null, 2))
  return path
}

/** A fresh project with only viem and typescript in node_modules (symlinked: no network). */
export function freshProject(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  for (const pkg of ['viem', 'typescript']) symlinkSync(join(ROOT, 'node_modules', pkg), join(dir, 'node_modules', pkg), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2))
}

/** tsconfig.json of a consumer project as strict as they come; `lib` as the fixture needs it. */
export function writeStrictTsconfig(dir: string, include: readonly string[], lib?: readonly string[]): void {
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    ...(lib ? { lib } : {}),
    types: [],
    skipLibCheck: true,
    isolatedModules: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include }))
}

export interface Diagnostic {
  readonly file: string
  readonly line: number
  readonly code: string
  readonly message: string
}

/** Runs the real tsc of the project and parses `file(line,col): error TSnnnn: message` lines. */
export function runTsc(dir: string, args: readonly string[]): Promise<{ code: number | null; diagnostics: Diagnostic[]; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), ...args], { cwd: dir })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const diagnostics = [...output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/gm)].map((m) => ({
        file: m[1]!.replace(/\\/g, '/'),
        line: Number(m[2]),
        code: m[3]!,
        message: m[4]!,
      }))
      resolve({ code, diagnostics, output })
    })
  })
}
