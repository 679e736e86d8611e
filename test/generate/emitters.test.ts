/**
 * The error and typed-data emitters, byte for byte: in-process generation of the shipped spec
 * equals the checked-in src/contract/generated copy (which the CLI's `generate --check` also
 * guards), plus the branches the shipped spec does not reach.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { solidityType } from '../../generators/emit-typed-data.ts'
import { generateFiles } from '../../src/generate/index.ts'
import { SPEC, tempDir } from './helpers.ts'

const checkedIn = (name: string) => readFileSync(new URL(`../../src/contract/generated/${name}`, import.meta.url), 'utf8')

describe('errors.ts and typed-data.ts', () => {
  it('equal the checked-in generated copies', async () => {
    const files = await generateFiles()
    for (const name of ['errors.ts', 'typed-data.ts']) {
      expect(files.find((f) => f.name === name)?.text, name).toBe(checkedIn(name))
    }
  })
})

describe('solidityType (EIP-712 type → the TypeScript type viem takes)', () => {
  it('addresses and bytes are 0x templates; bytes1..bytes32 only', () => {
    for (const t of ['address', 'bytes', 'bytes1', 'bytes9', 'bytes10', 'bytes19', 'bytes20', 'bytes29', 'bytes30', 'bytes32']) {
      expect(solidityType(t), t).toEqual({ kind: 'template', prefix: '0x' })
    }
    for (const t of ['bytes0', 'bytes33', 'bytes40', 'xbytes1', 'bytes1x', 'addresses']) expect(solidityType(t), t).toBeUndefined()
  })

  it('string and bool; integers up to 48 bits are numbers, wider ones bigints, odd widths refused', () => {
    expect(solidityType('string')).toEqual({ kind: 'keyword', name: 'string' })
    expect(solidityType('bool')).toEqual({ kind: 'keyword', name: 'boolean' })
    const num = { kind: 'keyword', name: 'number' }
    const big = { kind: 'keyword', name: 'bigint' }
    expect(solidityType('uint8')).toEqual(num)
    expect(solidityType('int48')).toEqual(num)
    expect(solidityType('uint56')).toEqual(big)
    expect(solidityType('uint256')).toEqual(big)
    expect(solidityType('uint')).toEqual(big)
    expect(solidityType('int')).toEqual(big)
    for (const t of ['uint0', 'uint7', 'uint12', 'uint264', 'uint512', 'xuint8', 'uint8x', 'Struct'])
      expect(solidityType(t), t).toBeUndefined()
  })

  it('arrays, fixed or dynamic, nested, of any supported type; an array of an unsupported type is unsupported', () => {
    expect(solidityType('uint64[]')).toEqual({ kind: 'array', items: { kind: 'keyword', name: 'bigint' } })
    expect(solidityType('address[3]')).toEqual({ kind: 'array', items: { kind: 'template', prefix: '0x' } })
    expect(solidityType('bool[2][]')).toEqual({ kind: 'array', items: { kind: 'array', items: { kind: 'keyword', name: 'boolean' } } })
    expect(solidityType('Struct[]')).toBeUndefined()
    expect(solidityType('[]')).toBeUndefined()
  })
})

describe('emitter branches the shipped spec does not reach', () => {
  const tmp = tempDir('emitters')
  afterAll(() => tmp.cleanup())
  let n = 0
  /** The shipped spec as JSON after `edit`. */
  const specWith = (edit: (doc: Record<string, any>) => void): string => {
    const doc = parse(readFileSync(SPEC, 'utf8')) as Record<string, any>
    edit(doc)
    const path = join(tmp.dir, `spec-${n++}.json`)
    writeFileSync(path, JSON.stringify(doc))
    return path
  }
  const refusal = (options: Parameters<typeof generateFiles>[0]) =>
    generateFiles(options).then(
      () => 'no error',
      (e: unknown) => (e as Error).message,
    )
  const fileOf = async (path: string, name: string) => (await generateFiles({ spec: path })).find((f) => f.name === name)!.text

  it('a duplicate code on one surface is refused at the duplicate', async () => {
    const path = specWith((d) => d['x-service-error-codes'].push({ ...d['x-service-error-codes'][1] }))
    const last = parse(readFileSync(SPEC, 'utf8'))['x-service-error-codes'].length
    expect(await refusal({ spec: path })).toMatch(
      new RegExp(`duplicate error code "invalid_json" in x-service-error-codes at #/x-service-error-codes/${last}/code$`),
    )
  })

  it('a catalog with no HTTP codes: an empty object and guards that answer undefined and false', async () => {
    const path = specWith((d) => {
      d['x-service-error-codes'] = d['x-service-error-codes'].filter((e: { surface: string }) => e.surface !== 'http')
    })
    const errors = await fileOf(path, 'errors.ts')
    expect(errors).toContain('export const errorCatalog = {} as const;')
    expect(errors).toContain('return undefined;')
    expect(errors).toContain('return false;')
    expect(errors).not.toContain('httpStatus : undefined')
  })

  it('a reserved, deprecated code carries reserved: true and @deprecated; a code without HTTP status has no "(HTTP" note', async () => {
    const path = specWith((d) => {
      Object.assign(d['x-service-error-codes'][1], { reserved: true, deprecated: true, http_status: [] })
    })
    const errors = await fileOf(path, 'errors.ts')
    const start = errors.indexOf('  /**\n   * The body is not JSON.')
    const block = errors.slice(start, errors.indexOf('  },\n', start) + 5)
    expect(block).toMatch(/^ {2}\/\*\*\n {3}\* The body is not JSON\.\n {3}\* @remarks Assumed [^\n]+\n {3}\* @deprecated\n {3}\*\/\n/)
    expect(block).toContain("    code: 'invalid_json',\n    surface: 'http',\n    httpStatus: [],\n")
    expect(block).toContain('    deprecated: true,\n    legacyError: null,\n    reserved: true,\n    assumed: true,\n  },\n')
  })

  it('--domain-name needs an options domain; a message in an unknown domain is refused', async () => {
    const noOptions = specWith((d) => {
      const ext = d['x-eip712']
      ext.domains = { perps: ext.domains.perps }
      ext.messages = { Agent: ext.messages.Agent }
      for (const s of Object.values(d.components.schemas) as Record<string, unknown>[]) delete s['x-eip712-signed']
    })
    expect(await refusal({ spec: noOptions, domainName: 'X' })).toBe(
      `--domain-name: ${noOptions} has no x-eip712.domains.options to rename`,
    )
    const lost = specWith((d) => (d['x-eip712'].messages.CancelOrder.domain = 'spot'))
    expect(await refusal({ spec: lost })).toMatch(
      /message CancelOrder names an unknown domain "spot" at #\/x-eip712\/messages\/CancelOrder\/domain$/,
    )
  })

  it('--domain-name renames the options domain only', async () => {
    const files = await generateFiles({ domainName: 'Renamed' })
    const td = files.find((f) => f.name === 'typed-data.ts')!.text
    expect(td).toContain("name: 'Renamed'")
    expect(td).toContain("name: 'Exchange'")
    expect(td).not.toContain("name: 'Service'")
    expect(td).toContain('Domain `options`: "Renamed", version "1", chainId 999.')
  })
})
