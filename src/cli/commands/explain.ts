/**
 * `oec explain`: why a request's signature does not verify. The request comes from a file, from
 * stdin (`-`) or from a curl command line (`--curl`); the answer is words (default) or JSON.
 * Exit 0 verified, 1 a cause (or unknown) reported, 2 unusable input.
 */
import { readFileSync } from 'node:fs'
import { InputError } from '../../errors.ts'
import { addContractOptions, contractFromFlags, type ContractFlags } from '../contract-options.ts'
import { intOption, type CliIO, type CommandModule } from '../program.ts'

interface ExplainFlags extends ContractFlags {
  curl?: string
  path?: string
  method?: string
  operation?: string
  signer: string[]
  known: string[]
  format: string
  domainName?: string
  chainId?: number
  perpChainId?: number
  testnet?: boolean
  budgetMs?: number
}

const collect = (value: string, previous: string[]) => [...previous, value]

function readInput(file: string | undefined, io: CliIO): Promise<string> {
  if (file === undefined || file === '-') {
    return (async () => {
      let text = ''
      for await (const chunk of io.stdin) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8')
      if (text.trim() === '') throw new InputError('explain: no request on stdin (give a file, `-` with a body piped in, or --curl)')
      return text
    })()
  }
  return Promise.resolve(readText(file))
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new InputError(`explain: cannot read ${file}${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}`)
  }
}

export const explainCommand: CommandModule = {
  register(program, io, done) {
    addContractOptions(program.command('explain'))
      .description(
        'say why a signed request does not verify (chain ID, domain, route struct, number fields, string formats, nonce, signer...) and how to fix it',
      )
      .argument('[file]', 'the request body (JSON), `-` for stdin')
      .option('--curl <command>', 'a curl command line; its -d/--data/--data-binary body is explained, its URL and -X give the operation')
      .option('--path <path>', 'the operation path (e.g. /order); guessed from the body when absent')
      .option('--method <method>', 'the HTTP method, with --path')
      .option('--operation <operationId>', 'the operation by id (placeOrder, cancelOrder, approveAgent, ...)')
      .option(
        '--signer <address>',
        "who should have signed (an agent; the owner for approve/revoke-agent; the key of a perp request); repeatable. Default: the body's wallet",
        collect,
        [],
      )
      .option('--known <address>', 'another address to recognise (a signature by it is reported as other_signer); repeatable', collect, [])
      .option('--format <format>', 'text or json', 'text')
      .option('--domain-name <name>', 'the options domain name the service signs (default from the spec)')
      .option('--chain-id <n>', 'the options chain ID the service signs (default from the spec: 999)', intOption('--chain-id', 0))
      .option('--perp-chain-id <n>', 'the perp chain ID the service signs (default from the spec: 1337)', intOption('--perp-chain-id', 0))
      .option('--testnet', 'perp Agent source "b" instead of mainnet "a"')
      .option('--budget-ms <n>', 'time limit of the search in ms (default 2000)', intOption('--budget-ms', 1, 60_000))
      .addHelpText(
        'after',
        [
          '',
          'Cause ids (stable): chain_id, domain_name, domain_version, verifying_contract, route_struct, number_field,',
          'string_format, nonce, field_name, signature_form, other_signer, unknown.',
          '',
          'Examples:',
          '  oec explain request.json',
          "  oec explain --curl 'curl -X POST $BASE/order -H content-type:application/json -d @body.json'",
          '  oec explain --signer 0xOWNER --path /approve-agent - < approve.json',
          '',
          'Exit codes: 0 verified, 1 a cause (or unknown) reported, 2 bad input (not JSON, unknown operation, no signature).',
        ].join('\n'),
      )
      .action(async (file: string | undefined, opts: ExplainFlags) => {
        if (opts.format !== 'text' && opts.format !== 'json')
          throw new InputError(`explain: --format is text or json, not ${JSON.stringify(opts.format)}`)
        if (opts.curl !== undefined && file !== undefined) throw new InputError('explain: give a file or --curl, not both')
        // Loaded on use: the engine pulls in the signing core and the server's canonical form.
        const { explainRequest, explanationJson, explanationText, parseCurl } = await import('../../explain/index.ts')
        const contract = contractFromFlags(opts, ['typedData'], 'oec explain')
        let body: string
        let path = opts.path
        let method = opts.method
        if (opts.curl !== undefined) {
          const c = parseCurl(opts.curl, readText)
          body = c.body
          path ??= c.path
          method ??= c.method
        } else body = await readInput(file, io)
        const e = explainRequest(contract, body, {
          operationId: opts.operation,
          path,
          method: path !== undefined ? method : undefined,
          signer: opts.signer.length > 0 ? opts.signer : undefined,
          known: opts.known,
          // An undefined field keeps the contract's (the engine overrides only a given one).
          domain: { name: opts.domainName, chainId: opts.chainId },
          perpDomain: opts.perpChainId !== undefined ? { chainId: opts.perpChainId } : {},
          isMainnet: opts.testnet !== true,
          ...(opts.budgetMs !== undefined ? { budget: { maxMs: opts.budgetMs } } : {}),
        })
        io.stdout.write(opts.format === 'json' ? explanationJson(e) : explanationText(e))
        done(e.verified ? 0 : 1)
      })
  },
}
