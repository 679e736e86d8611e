/**
 * Settings a team would otherwise repeat on every command line: `oec.config.{json,yaml,yml,js,mjs,cjs}`
 * or the `oec` key of package.json (found by lilconfig from the working directory up), and
 * `OEC_<OPTION>` environment variables. Done once for every command, from commander's own option
 * definitions: any option of any command can come from either, parsed and validated by the
 * option's own parser. Precedence: a flag, then the environment, then the config file, then the
 * option's default.
 *
 * The file holds option names (camelCase or kebab-case) at the top level, applying to every
 * command that has the option, and per-command sections keyed by the command's path
 * (`"check server": {"workers": 4}`), which win over the top level.
 */
import { createRequire } from 'node:module'
import { closest } from 'fastest-levenshtein'
import { lilconfig, type LilconfigResult } from 'lilconfig'
import { InputError } from '../errors.ts'
import type { Command, Option } from './program.ts'
import type { SettingsIndex } from './summary.ts'

const NAME = 'oec'
const SEARCH_PLACES = [
  'package.json',
  `${NAME}.config.json`,
  `${NAME}.config.yaml`,
  `${NAME}.config.yml`,
  `${NAME}.config.js`,
  `${NAME}.config.mjs`,
  `${NAME}.config.cjs`,
]

/** Options never taken from the environment or a file: they are questions, not settings. */
const NEVER = new Set(['help', 'version'])

export interface LoadedConfig {
  readonly file: string
  readonly values: Readonly<Record<string, unknown>>
}

/** The nearest config file from `cwd` up, or undefined when there is none. */
export async function findConfig(cwd: string = process.cwd()): Promise<LoadedConfig | undefined> {
  const yaml = (filepath: string, content: string) => {
    try {
      // Loaded only for a YAML config file: the package costs every command's start-up ~70 ms.
      const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml')
      return parse(content) as unknown
    } catch (err) {
      throw new InputError(`${filepath}: not YAML (${(err as Error).message.split('\n')[0]})`)
    }
  }
  let found: LilconfigResult
  try {
    found = await lilconfig(NAME, { searchPlaces: SEARCH_PLACES, loaders: { '.yaml': yaml, '.yml': yaml } }).search(cwd)
  } catch (err) {
    if (err instanceof InputError) throw err
    throw new InputError(`cannot read the oec config file: ${(err as Error).message.split('\n')[0]}`)
  }
  if (!found || found.isEmpty) return undefined
  const values = (found.config as { default?: unknown })?.default ?? found.config
  if (values === null || typeof values !== 'object' || Array.isArray(values))
    throw new InputError(`${found.filepath}: the oec config must be an object of option names, not ${JSON.stringify(values)}`)
  return { file: found.filepath, values: values as Record<string, unknown> }
}

/**
 * The instrument list has one name in every file and variable: `symbols` (`check server` takes
 * it as its repeatable `--symbol`, `serve` as `--symbols`, the `--config` JSON files as
 * `"symbols"`). The names it had before are refused with that hint rather than ignored.
 */
const SETTING_NAMES: Readonly<Record<string, string>> = { symbol: 'symbols' }
const OLD_NAMES: Readonly<Record<string, string>> = {
  symbol: 'symbols',
  instruments: 'symbols',
}
/** Repeatable options whose values may hold a comma (a header value): lists split on newlines only. */
const COMMA_IN_VALUE = new Set(['header'])

/** The name an option's setting goes by in a file or variable (camelCase). */
const settingName = (attribute: string) => SETTING_NAMES[attribute] ?? attribute

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** `domainName` → `OEC_DOMAIN_NAME`: the variable of an option, from its setting name. */
export function envName(option: Option): string {
  return `OEC_${settingName(option.attributeName())
    .replace(/[A-Z]/g, (c) => `_${c}`)
    .toUpperCase()}`
}

/**
 * Every key of the config file must mean something: an option some command has (top level), a
 * command section (`check server:`), or an option of that command inside its section. A misspelt
 * key used to be ignored, so `targt:` quietly tested the embedded server and printed PASSED.
 */
export function checkConfigKeys(config: LoadedConfig, index: SettingsIndex): void {
  const sections = Object.keys(index)
  const everyOption = new Set(Object.values(index).flatMap((names) => names.map(settingName)))
  const refuse = (key: string, where: string, known: Iterable<string>, what: string) => {
    const old = OLD_NAMES[camel(key)]
    if (old !== undefined) throw new InputError(`${config.file}: ${where}"${key}" is an old name: the instrument list is "${old}"`)
    const names = [...known]
    const near = names.length ? closest(key, names) : undefined
    throw new InputError(`${config.file}: ${where}unknown ${what} "${key}"${near ? ` (did you mean "${near}"?)` : ''}`)
  }
  for (const [key, value] of Object.entries(config.values)) {
    if (OLD_NAMES[camel(key)] !== undefined) refuse(key, '', [], 'key')
    if (sections.includes(key)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new InputError(`${config.file}: "${key}" must be an object of option names`)
      const own = new Set(index[key]!.map(settingName))
      for (const inner of Object.keys(value))
        if (!own.has(camel(inner)) || OLD_NAMES[camel(inner)] !== undefined)
          refuse(inner, `in "${key}": `, [...own].map(kebab), `option of oec ${key}`)
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      refuse(key, '', sections, 'section')
    } else if (!everyOption.has(camel(key))) {
      refuse(key, '', [...everyOption].map(kebab), 'key')
    }
  }
}

/** `OEC_SYMBOL`, `OEC_INSTRUMENTS`: a variable under an old name is refused with the new one. */
export function checkEnvNames(env: NodeJS.ProcessEnv = process.env): void {
  for (const [old, now] of Object.entries(OLD_NAMES)) {
    const variable = `OEC_${old.toUpperCase()}`
    if (env[variable] !== undefined && env[variable] !== '')
      throw new InputError(`${variable} is an old name: the instrument list is OEC_${now.toUpperCase()}`)
  }
}

/** `check server`: the command's path below the program. */
function pathOf(cmd: Command): string {
  const names: string[] = []
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name())
  return names.join(' ')
}

const camel = (key: string) => key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

/**
 * Fills every option of `cmd` that no flag set: from `env`, else from the config file. Called
 * from a preAction hook, once commander has parsed the flags (so a flag always wins, and a
 * repeatable flag replaces the configured list instead of adding to it).
 */
export function applySettings(cmd: Command, config: LoadedConfig | undefined, env: NodeJS.ProcessEnv = process.env): void {
  const path = pathOf(cmd)
  const section = config?.values[path]
  if (section !== undefined && (section === null || typeof section !== 'object' || Array.isArray(section)))
    throw new InputError(`${config!.file}: "${path}" must be an object of option names`)
  const scoped = Object.fromEntries(Object.entries((section ?? {}) as Record<string, unknown>).map(([k, v]) => [camel(k), v]))
  const top = Object.fromEntries(Object.entries(config?.values ?? {}).map(([k, v]) => [camel(k), v]))
  const known = new Set(cmd.options.map((o) => settingName(o.attributeName())))
  for (const key of Object.keys(scoped))
    if (!known.has(key)) throw new InputError(`${config!.file}: "${path}" has no option "${key}" (see oec ${path} --help)`)
  for (const option of cmd.options) {
    const attribute = option.attributeName()
    const key = settingName(attribute)
    if (NEVER.has(attribute) || cmd.getOptionValueSource(attribute) === 'cli') continue
    const variable = envName(option)
    if (env[variable] !== undefined && env[variable] !== '') {
      cmd.setOptionValueWithSource(attribute, parseSetting(option, env[variable], variable), 'env')
    } else if (key in scoped || key in top) {
      const value = key in scoped ? scoped[key] : top[key]
      cmd.setOptionValueWithSource(attribute, parseSetting(option, value, `${config!.file}: ${key}`), 'config')
    }
  }
}

/**
 * A setting through the option's own parser (so an int option checks its range, a choice its
 * choices). A repeatable option takes a list: a file's array, or in a variable a JSON array, one
 * item a line, or (where an item cannot hold a comma) commas. A flag takes true/false.
 */
function parseSetting(option: Option, raw: unknown, where: string): unknown {
  const takesValue = option.required || option.optional
  if (!takesValue) {
    const b =
      typeof raw === 'boolean' ? raw : /^(1|true|yes)$/i.test(String(raw)) ? true : /^(0|false|no)$/i.test(String(raw)) ? false : undefined
    if (b === undefined) throw new InputError(`${where} takes true or false, not ${JSON.stringify(raw)}`)
    // A negatable flag (--no-preflight) stores the attribute itself: preflight=false means skip.
    return b
  }
  const repeatable = Array.isArray(option.defaultValue) || option.variadic
  const items = Array.isArray(raw) ? raw : repeatable && typeof raw === 'string' ? listItems(raw, option, where) : [raw]
  if (!repeatable && items.length !== 1) throw new InputError(`${where} takes one value, not a list`)
  const parse = option.parseArg as ((value: string, previous: unknown) => unknown) | undefined
  try {
    if (!repeatable) {
      const text = scalarText(items[0], where)
      return parse ? parse(text, undefined) : text
    }
    let acc: unknown = []
    for (const item of items) {
      const text = scalarText(item, where)
      acc = parse ? parse(text, acc) : [...(acc as unknown[]), text]
    }
    return acc
  } catch (err) {
    if (err instanceof InputError) throw err
    throw new InputError(`${where}: ${(err as Error).message.replace(/^error: /, '')}`)
  }
}

/** A list from one variable: `["a","b"]`, lines, or commas (not for items that may hold one). */
function listItems(raw: string, option: Option, where: string): unknown[] {
  const text = raw.trim()
  if (text.startsWith('[')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new InputError(`${where}: starts with "[" but is not a JSON array`)
    }
    if (!Array.isArray(parsed)) throw new InputError(`${where}: starts with "[" but is not a JSON array`)
    return parsed
  }
  const separator = text.includes('\n') || COMMA_IN_VALUE.has(option.attributeName()) ? '\n' : ','
  return text
    .split(separator)
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

function scalarText(value: unknown, where: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value)
  throw new InputError(`${where} takes a string or a number, not ${JSON.stringify(value)}`)
}
