/** Ports for tests that start a foreign server or need one nobody listens on. */
import { createServer } from 'node:net'

/** A loopback port free a moment ago: bound by the system, then closed. */
export async function unusedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as { port: number }).port
  await new Promise<void>((r) => s.close(() => r()))
  return port
}
