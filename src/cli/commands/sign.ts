/**
 * `oec sign`: the toolkit's signer on the command line.
 *   --jsonl        the JSON-lines signing protocol on stdin/stdout (one answer per request, in order)
 *   (no flags)     one JSON request on stdin, one JSON answer on stdout
 *   --kind K ...   sign from flags and print the exact HTTP body (for `| curl --data-binary @-`)
 * The private key comes from an environment variable (--key-env), never from argv, and is never printed.
 */
import { StringDecoder } from 'node:string_decoder'
import { parse as losslessParse } from 'lossless-json'
import { InputError } from '../../errors.ts'
import {
  addressOf,
  answerLine,
  answerRequest,
  checkPrivateKey,
  serializeAnswer,
  signingFor,
  type Signing,
  type DomainOverrides,
  type Hex,
  type OptionsKind,
} from '../../signing/index.ts'
import { shippedContract } from '../../contract/load.ts'
import { addContractOptions, contractFromFlags, type ContractFlags } from '../contract-options.ts'
import type { CliIO, CommandModule, ExitCode } from '../program.ts'

interface SignOptions extends ContractFlags {
  jsonl?: boolean
  kind?: string
  keyEnv: string
  address?: boolean
  json?: boolean
  domainName?: string
  domainVersion?: string
  chainId?: string
  verifyingContract?: string
}

/** Line ends as readline splits them: CRLF, LF or a lone CR. */
const LINE_END = /\r\n|\n|\r/

/**
 * The protocol loop. Input is taken a chunk at a time (as many lines as arrived), each line is
 * answered in order, and the chunk's answers go out in one write: a piped stdout is written
 * synchronously, so a write per line cost a system call per answer, about as much as the
 * protocol's parsing and answering together. A harness that sends one line and waits still
 * gets its answer at once (the chunk is that line).
 */
async function serveJsonl(signing: Signing, io: CliIO): Promise<ExitCode> {
  // A reader that goes away (EPIPE) ends the session quietly instead of crashing it.
  let gone = false
  io.stdout.on('error', () => {
    gone = true
  })
  const decoder = new StringDecoder('utf8')
  let pending = ''
  const answerAll = async (lines: readonly string[]): Promise<void> => {
    let out = ''
    for (const line of lines) {
      const a = await answerLine(signing, line)
      if (a !== undefined) out += `${a}\n`
    }
    if (out === '' || gone) return
    if (!io.stdout.write(out))
      await new Promise<void>((resolve) => {
        const done = () => {
          io.stdout.off('drain', done)
          io.stdout.off('error', done)
          resolve()
        }
        io.stdout.on('drain', done)
        io.stdout.on('error', done)
      })
  }
  // After a chunk that ended on a CR, a LF starting the next chunk is the rest of that CRLF.
  let skipLf = false
  for await (const chunk of io.stdin) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer)
    if (text === '') continue
    if (skipLf && text.startsWith('\n')) text = text.slice(1)
    pending += text
    skipLf = pending.endsWith('\r')
    const lines = pending.split(LINE_END)
    pending = lines.pop()!
    await answerAll(lines)
    if (gone) return 0
  }
  pending += decoder.end()
  await answerAll(pending.split(LINE_END).filter((l) => l !== ''))
  return 0
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8')
  return text
}

async function answerOnce(signing: Signing, io: CliIO): Promise<ExitCode> {
  const text = await readAll(io.stdin)
  if (text.trim() === '') throw new InputError('sign: expected one JSON request on stdin (or use --jsonl, or --kind with flags)')
  let req: unknown
  try {
    req = losslessParse(text)
  } catch (err) {
    throw new InputError(`sign: stdin is not JSON: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`)
  }
  const a = await answerRequest(signing, req)
  if (typeof a.error === 'string' && a.signer === undefined) throw new InputError(`sign: ${a.error}`)
  io.stdout.write(`${serializeAnswer(a)}\n`)
  return a.signer === null ? 1 : 0
}

/** `--client-id x`, `--client-id=x` → { client_id: 'x' }. */
function fieldFlags(args: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (!a.startsWith('--')) throw new InputError(`sign: unexpected argument ${JSON.stringify(a)}`)
    const eq = a.indexOf('=')
    const flag = eq >= 0 ? a.slice(2, eq) : a.slice(2)
    let value: string | undefined
    if (eq >= 0) value = a.slice(eq + 1)
    else {
      value = args[i + 1]
      i++
    }
    if (value === undefined) throw new InputError(`sign: --${flag} needs a value`)
    out.set(flag.replace(/-/g, '_'), value)
  }
  return out
}

/** The private key named by --key-env, checked; the error never echoes it. */
function keyFromEnv(opts: SignOptions): Hex {
  const key = process.env[opts.keyEnv]
  if (key === undefined || key === '') throw new InputError(`sign: environment variable ${opts.keyEnv} (--key-env) holds no private key`)
  checkPrivateKey(key)
  return key as Hex
}

async function signFromFlags(signing: Signing, io: CliIO, opts: SignOptions, extra: readonly string[]): Promise<ExitCode> {
  const kinds = signing.optionsKinds()
  const kind = opts.kind as OptionsKind
  if (!kinds.includes(kind))
    throw new InputError(
      `sign: unknown --kind ${JSON.stringify(opts.kind)} (one of ${kinds.join(', ')}; Agent actions go through the JSON modes)`,
    )
  const key = keyFromEnv(opts)
  const fields = signing.kindFields(kind)
  const given = fieldFlags(extra)
  const message: Record<string, string | bigint> = {}
  for (const [bodyKey, value] of given) {
    const f = fields.find((x) => x.body === bodyKey)
    if (!f)
      throw new InputError(
        `sign: ${kind} has no field --${bodyKey.replace(/_/g, '-')} (fields: ${fields.map((x) => `--${x.body.replace(/_/g, '-')}`).join(' ')})`,
      )
    if (f.type.startsWith('uint')) {
      if (!/^(0|[1-9][0-9]*)$/.test(value))
        throw new InputError(`sign: --${bodyKey.replace(/_/g, '-')} takes a whole number, not ${JSON.stringify(value)}`)
      message[f.name] = BigInt(value)
    } else message[f.name] = value
  }
  // Conveniences: the wallet defaults to the key's address, the nonce to the time in milliseconds.
  const wallet = fields.find((f) => f.name === 'wallet')
  if (wallet && message.wallet === undefined) message.wallet = addressOf(key)
  const nonce = fields.find((f) => f.name === 'nonce')
  if (nonce && message.nonce === undefined) message.nonce = BigInt(Date.now())
  // Every missing field at once, by the flag that sets it (not one per run, not by its typed-data name).
  const missing = signing.missingFields(kind, message)
  if (missing.length > 0)
    throw new InputError(`sign: ${kind} needs ${missing.map((f) => `--${f.body.replace(/_/g, '-')}`).join(', ')} (missing)`)
  const domain: DomainOverrides = {}
  if (opts.domainName !== undefined) domain.name = opts.domainName
  if (opts.domainVersion !== undefined) domain.version = opts.domainVersion
  if (opts.chainId !== undefined) {
    if (!/^(0|[1-9][0-9]*)$/.test(opts.chainId))
      throw new InputError(`sign: --chain-id takes a whole number, not ${JSON.stringify(opts.chainId)}`)
    domain.chainId = BigInt(opts.chainId)
  }
  if (opts.verifyingContract !== undefined) domain.verifyingContract = opts.verifyingContract as Hex
  const r = await signing.buildRequest(kind, message, key, domain)
  io.stdout.write(opts.json ? `${JSON.stringify(r)}\n` : `${r.body}\n`)
  return 0
}

export const signCommand: CommandModule = {
  register(program, io, done) {
    addContractOptions(program.command('sign'))
      .description('sign options orders, cancels, agent approvals and perp actions (JSON-lines protocol, one JSON request, or flags)')
      .option('--jsonl', 'serve the JSON-lines signing protocol on stdin/stdout')
      .option('--kind <kind>', 'sign from flags: PlaceOrder, CancelOrder, CancelOrderByClientId, ApproveAgent or RevokeAgent')
      .option('--key-env <name>', 'environment variable holding the private key (flags mode)', 'OEC_PRIVATE_KEY')
      .option('--json', 'flags mode: print {digest, signature, body} instead of the body alone')
      .option('--address', 'print the address of the key in --key-env and exit')
      .option('--domain-name <name>', 'flags mode: EIP-712 domain name (default from the spec)')
      .option('--domain-version <version>', 'flags mode: EIP-712 domain version')
      .option('--chain-id <id>', 'flags mode: EIP-712 chain ID (default 999)')
      .option('--verifying-contract <address>', 'flags mode: EIP-712 verifying contract')
      .allowUnknownOption()
      .allowExcessArguments()
      .addHelpText('after', () => helpText())
      .action(async function (this: import('commander').Command, opts: SignOptions) {
        const extra = this.args
        const signing = () => signingFor(contractFromFlags(opts, ['typedData'], 'oec sign'))
        if (opts.address) {
          if (opts.jsonl || opts.kind !== undefined || extra.length > 0)
            throw new InputError('sign: --address takes no other mode or field flags')
          io.stdout.write(`${addressOf(keyFromEnv(opts))}\n`)
          done(0)
        } else if (opts.jsonl) {
          if (opts.kind !== undefined || extra.length > 0) throw new InputError('sign: --jsonl takes no field flags')
          done(await serveJsonl(signing(), io))
        } else if (opts.kind !== undefined) done(await signFromFlags(signing(), io, opts, extra))
        else {
          if (extra.length > 0) throw new InputError(`sign: field flags need --kind (got ${extra[0]})`)
          done(await answerOnce(signing(), io))
        }
      })
  },
}

function helpText(): string {
  const lines = ['', 'Field flags (flags mode), per kind, from the shipped spec (--spec gives another):']
  const signing = signingFor(shippedContract())
  for (const k of signing.optionsKinds())
    lines.push(
      `  ${k}: ${signing
        .kindFields(k)
        .map((f) => `--${f.body.replace(/_/g, '-')}`)
        .join(' ')}`,
    )
  lines.push(
    "  --wallet defaults to the key's address, --nonce to the current time in ms; --route absent signs the 8-field PlaceOrder.",
    '',
    'Protocol (--jsonl, one request per line, one answer per line in order, id echoed):',
    '  {"id":1,"op":"sign","kind":"PlaceOrder","privateKey":"0x..","message":{...,"nonce":1}} -> {"id":1,"digest","signature","body"}',
    '  {"id":2,"op":"sign","kind":"Agent","privateKey":"0x..","message":{"action":{...},"nonce":1,"isMainnet":true}} -> {"id":2,"connectionId","digest","signature","r","s","v"}',
    '    action: any value the venue hashes (an object, nested maps, an array such as [multiSigUser, outerSigner, action]); integers exact up to 2^64-1',
    '  {"id":3,"op":"verify","kind":"PlaceOrder","message":{...},"signature":"0x.."} -> {"id":3,"digest","signer"}',
    '  a bad line -> {"id"?,"error"} and the stream goes on. "domain" replaces the default domain whole.',
    '',
    'Example:',
    '  OEC_PRIVATE_KEY=0x.. oec sign --kind PlaceOrder --symbol BTC-20261225-100000-C --side Buy --size 1 \\',
    '    --price 100.0 --tif gtc --route book_only --client-id a1 | curl -H content-type:application/json --data-binary @- $BASE/order',
    '',
    'Exit codes: 0 answered (a verify that fails exits 1 in single-request mode), 2 unreadable input.',
  )
  return `${lines.join('\n')}\n`
}
