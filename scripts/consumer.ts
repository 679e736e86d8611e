/**
 * `npm run test:consumer`: the package as a user gets it. One `npm pack` (its `prepack` builds),
 * one install of the tarball into a temporary project, then every way a user meets the package:
 * a plain Node ESM script, strict TypeScript under `nodenext` and `bundler` resolution, the `oec`
 * binary, and publint and arethetypeswrong on the tarball. Any step failing exits 1.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const APP_FIXTURE = join(ROOT, 'test', 'consumer', 'app')
const keep = process.argv.includes('--keep')
const started = performance.now()

function run(label: string, cmd: string, args: readonly string[], options: SpawnSyncOptions = {}): string {
  const t = performance.now()
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options })
  const ms = Math.round(performance.now() - t)
  const out = `${String(r.stdout ?? '')}${String(r.stderr ?? '')}`
  if (r.status !== 0) {
    process.stderr.write(`consumer: ${label} failed (exit ${r.status ?? r.signal}) after ${ms} ms\n$ ${cmd} ${args.join(' ')}\n${out}\n`)
    process.exit(1)
  }
  console.log(`  ok  ${label} (${ms} ms)`)
  return String(r.stdout ?? '')
}

/** The version the repository's own lockfile installed, so the consumer's install is served from the npm cache. */
function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
}

/**
 * The README's TypeScript example, as a new user pastes it: it compiles in a `"type": "module"`
 * project, and fails with TS1309 (top-level await) in the `"type": "commonjs"` one `npm init -y`
 * writes, which is what the README warns about.
 */
function readmeExample(app: string, tsc: string): void {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const example = /```ts\n(import [^\n]*from 'order-entry-conformance'\n[\s\S]*?)```/.exec(readme)?.[1]
  if (!example) {
    process.stderr.write('consumer: README.md has no ```ts example importing order-entry-conformance\n')
    process.exit(1)
  }
  writeFileSync(join(app, 'readme-example.ts'), example)
  const args = [tsc, '--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', '--noEmit', 'readme-example.ts']
  run('tsc: the README example in a "type": "module" project', process.execPath, args, { cwd: app })
  const pkgPath = join(app, 'package.json')
  const pkg = readFileSync(pkgPath, 'utf8')
  writeFileSync(pkgPath, pkg.replace('"type": "module"', '"type": "commonjs"'))
  const cjs = spawnSync(process.execPath, args, { cwd: app, encoding: 'utf8' })
  writeFileSync(pkgPath, pkg)
  if (cjs.status === 0 || !cjs.stdout.includes('TS1309')) {
    process.stderr.write(
      `consumer: the README example under "type": "commonjs" did not fail with TS1309 as README.md says:\n${cjs.stdout}\n`,
    )
    process.exit(1)
  }
  console.log('  ok  tsc: the README example under "type": "commonjs" fails with TS1309, as README.md says')
}

const work = mkdtempSync(join(tmpdir(), 'oec-consumer-'))
try {
  const packed = JSON.parse(
    run('npm pack (prepack builds dist/)', 'npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT }),
  ) as {
    filename: string
    size: number
    unpackedSize: number
    entryCount: number
  }[]
  const tarball = join(work, packed[0]!.filename)
  const { size, unpackedSize, entryCount } = packed[0]!

  const app = join(work, 'app')
  cpSync(APP_FIXTURE, app, { recursive: true })
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'oec-consumer', private: true, type: 'module' }, null, 2)}\n`)
  const npmQuiet = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error']
  run(
    'npm install <tarball> typescript @types/node',
    'npm',
    ['install', ...npmQuiet, tarball, `typescript@${installedVersion('typescript')}`, `@types/node@${installedVersion('@types/node')}`],
    {
      cwd: app,
    },
  )

  const installed = join(app, 'node_modules', 'order-entry-conformance')
  for (const absent of ['src', 'test', 'bench', '.ci', 'scripts', 'tsconfig.json']) {
    if (existsSync(join(installed, absent))) {
      process.stderr.write(`consumer: the tarball ships ${absent}, which a user does not need\n`)
      process.exit(1)
    }
  }

  const esm = run('node consumer.mjs (import, startServer, sign, verify, POST /order)', process.execPath, ['consumer.mjs'], { cwd: app })
  if (!esm.includes('ACKED')) {
    process.stderr.write(`consumer: consumer.mjs did not report an ACKED order:\n${esm}\n`)
    process.exit(1)
  }
  const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc')
  run('tsc strict, module nodenext', process.execPath, [tsc, '-p', 'nodenext'], { cwd: app })
  readmeExample(app, tsc)
  run('tsc strict, moduleResolution bundler', process.execPath, [tsc, '-p', 'bundler'], { cwd: app })
  run('npx oec check server', 'npx', ['--no-install', 'oec', 'check', 'server'], { cwd: app })
  run('npx oec generate --out x', 'npx', ['--no-install', 'oec', 'generate', '--out', 'x'], { cwd: app })
  if (!existsSync(join(app, 'x', 'types.ts'))) {
    process.stderr.write('consumer: oec generate --out x wrote no x/types.ts\n')
    process.exit(1)
  }
  // The generated signing client in the consumer's project: strict nodenext, then run against oec serve.
  run('npm install viem', 'npm', ['install', ...npmQuiet, `viem@${installedVersion('viem')}`], { cwd: app })
  run('npx oec generate --out gen', 'npx', ['--no-install', 'oec', 'generate', '--out', 'gen'], { cwd: app })
  run(
    'tsc strict nodenext: generated client (wrong field, number decimal, no nonce source do not compile)',
    process.execPath,
    [tsc, '-p', 'client'],
    { cwd: app },
  )
  run(
    'tsc strict nodenext, lib ES2022 alone (no DOM, no @types/node): the generated client compiles',
    process.execPath,
    [tsc, '-p', 'client-es2022'],
    {
      cwd: app,
    },
  )
  run('tsc emit of the client app', process.execPath, [tsc, '-p', 'client', '--noEmit', 'false', '--outDir', 'client-out'], { cwd: app })
  const clientRun = run(
    'generated client: place, cancel by id and client id, approve agent, place as agent, bulk place, GET /orders, perp order',
    process.execPath,
    [join('client-out', 'client', 'app.js')],
    { cwd: app },
  )
  if (!clientRun.includes('placed as it')) {
    process.stderr.write(`consumer: the generated client app did not finish:\n${clientRun}\n`)
    process.exit(1)
  }
  run('publint --strict', process.execPath, [join(ROOT, 'node_modules', 'publint', 'src', 'cli.js'), 'run', tarball, '--strict'], {
    cwd: ROOT,
  })
  // ESM-only on purpose (engines >= 20.19): the CommonJS resolutions are out of scope, every ESM one must be clean.
  run(
    'attw --profile esm-only',
    process.execPath,
    [join(ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'), tarball, '--profile', 'esm-only'],
    {
      cwd: ROOT,
    },
  )

  const kb = (n: number) => `${Math.round(n / 1024)} KB`
  console.log(
    `consumer: all steps passed in ${((performance.now() - started) / 1000).toFixed(1)} s; tarball ${kb(size)} (${kb(unpackedSize)} unpacked, ${entryCount} files)`,
  )
} finally {
  if (keep) console.log(`consumer: kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
