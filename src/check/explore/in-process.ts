/**
 * The oracle's client: requests go to the reference server's in-process door (`dispatch`), not
 * over loopback HTTP. The exchange it records has the shape the HTTP client's has, so the
 * comparison and the report read both sides alike.
 */
import type { RunningServer } from '../../server/index.ts'
import { receivedResponse, type HttpExchange, type SendOptions, type SentRequest } from '../target/http.ts'

export class InProcessClient {
  constructor(private readonly server: Pick<RunningServer, 'url' | 'dispatch'>) {}

  async send(method: string, path: string, options: Pick<SendOptions, 'body' | 'headers'> = {}): Promise<HttpExchange> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    Object.assign(headers, options.headers ?? {})
    const request: SentRequest = {
      method,
      url: `${this.server.url}${path}`,
      headers,
      ...(options.body !== undefined ? { body: options.body } : {}),
    }
    const started = performance.now()
    const res = await this.server.dispatch({ method, url: path, headers, ...(options.body !== undefined ? { body: options.body } : {}) })
    return { request, response: receivedResponse(res.status, res.headers, res.body), durationMs: performance.now() - started }
  }
}
