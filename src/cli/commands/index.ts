import type { CommandModule } from '../program.ts'

/** A subcommand loaded only when it runs (or when the full help is printed): start-up stays fast. */
export interface LazyCommand {
  readonly name: string
  load(): Promise<CommandModule>
}

/** Every subcommand of `oec`, in the order `oec --help` lists them. */
export const commands: readonly LazyCommand[] = [
  { name: 'check', load: async () => (await import('./check.ts')).checkCommand },
  { name: 'serve', load: async () => (await import('./serve.ts')).serveCommand },
  { name: 'sign', load: async () => (await import('./sign.ts')).signCommand },
  { name: 'vectors', load: async () => (await import('./vectors.ts')).vectorsCommand },
  { name: 'coverage', load: async () => (await import('./coverage.ts')).coverageCommand },
  { name: 'generate', load: async () => (await import('./generate.ts')).generateCommand },
  { name: 'diff', load: async () => (await import('./diff.ts')).diffCommand },
  { name: 'lint', load: async () => (await import('./lint.ts')).lintCommand },
  { name: 'explain', load: async () => (await import('./explain.ts')).explainCommand },
  { name: 'proxy', load: async () => (await import('./proxy.ts')).proxyCommand },
  { name: 'report', load: async () => (await import('./report.ts')).reportCommand },
]
