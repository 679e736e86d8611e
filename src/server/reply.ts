/**
 * What a handler returns: a status, headers and a JSON body. Handlers never touch the socket;
 * `http.ts` writes replies, after the `transformReply` seam (which broken test servers use).
 */
export interface Reply {
  status: number
  headers: Record<string, string>
  /** JSON-serializable body; absent for HEAD and empty replies. */
  body?: unknown
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers, body }
}
