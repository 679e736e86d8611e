/**
 * Headless Chromium for the HTML report tests: Debian's `chromium` (which .ci/run installs),
 * driven by playwright-core, which never downloads a browser of its own. Under CI the tests run
 * whatever happens, so a missing browser fails them; elsewhere they skip and say what is missing.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { ROOT } from '../helpers/cli.ts'

export const CHROMIUM = process.env.OEC_CHROMIUM ?? '/usr/bin/chromium'

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserMissing: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : `no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or point OEC_CHROMIUM at a Chromium binary`

export const skipBrowser = browserMissing !== undefined && !process.env.CI
if (skipBrowser) console.warn(`HTML report browser tests skipped: ${browserMissing} (under CI they fail instead)`)

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface OpenBrowser {
  readonly context: BrowserContext
  /** Every URL a page asked for that is not a file:// URL (a self-contained report asks for none). */
  readonly network: string[]
  /** Console errors and uncaught exceptions of the pages. */
  readonly errors: string[]
  open(file: string, viewport?: { width: number; height: number }): Promise<Page>
  close(): Promise<void>
}

/**
 * A cold first start reads Chromium's ~300 MB from disk: 14 s on a quiet box, and over 20 s
 * on CI's two cores while the rest of the suite runs. So each try gets a minute, and a try
 * that times out (a start wedged on the loaded box) is made once more on a fresh profile.
 */
const LAUNCH_TRY_MS = 60_000
const LAUNCH_TRIES = 2

async function startChromium(profile: string): Promise<BrowserContext> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ARGS,
        timeout: LAUNCH_TRY_MS,
      })
    } catch (e) {
      if (attempt >= LAUNCH_TRIES || !(e instanceof Error && e.name === 'TimeoutError')) throw e
      rmSync(profile, { recursive: true, force: true })
      mkdirSync(profile, { recursive: true })
    }
  }
}

export async function launch(): Promise<OpenBrowser> {
  if (browserMissing) throw new Error(browserMissing)
  // A fresh profile each time: nothing cached or remembered from a previous run.
  const profile = mkdtempSync(join(tmpdir(), 'oec-chromium-'))
  const context = await startChromium(profile)
  const network: string[] = []
  const errors: string[] = []
  context.on('request', (r) => {
    if (!r.url().startsWith('file://')) network.push(r.url())
  })
  return {
    context,
    network,
    errors,
    async open(file, viewport = { width: 1280, height: 900 }) {
      const page = await context.newPage()
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text())
      })
      page.on('pageerror', (e) => errors.push(e.message))
      await page.setViewportSize(viewport)
      await page.goto(`file://${file}`)
      return page
    },
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/** The test's output folder (screenshots, the reports themselves): .tmp/test-output/report/<name>. */
export function outputDir(name: string): string {
  const dir = join(ROOT, '.tmp', 'test-output', 'report', name.replace(/[^A-Za-z0-9_.-]+/g, '-'))
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  return dir
}

/** A describe block whose tests share one browser (`browser()`); outside CI without one, a skipped test naming what is missing. */
export function describeInBrowser(name: string, body: (browser: () => OpenBrowser) => void): void {
  if (skipBrowser) {
    describe(name, () => {
      it.skip(`skipped: ${browserMissing}`, () => {})
    })
    return
  }
  describe(name, () => {
    let open: OpenBrowser | undefined
    beforeAll(
      async () => {
        open = await launch()
      },
      LAUNCH_TRY_MS * LAUNCH_TRIES + 10_000,
    )
    afterAll(async () => {
      await open?.close()
    })
    body(() => {
      if (!open) throw new Error('the browser did not start (see beforeAll)')
      return open
    })
  })
}
