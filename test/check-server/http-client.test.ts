/**
 * The runner's HTTP client over real loopback sockets: a keep-alive socket the target drops as
 * it is reused is retried once on a new connection; a burst pool opens its connections first.
 */
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { HttpClient } from '../../src/check/target/http.ts'

const servers: net.Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
})

/** Answers the first request of each connection and drops the connection on the next one, unanswered. */
async function dropsReusedConnections(): Promise<{ url: string; connections: () => number }> {
  let connections = 0
  const server = net.createServer((socket) => {
    connections++
    let requests = 0
    socket.on('data', () => {
      if (++requests === 1)
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}')
      else socket.destroy()
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, connections: () => connections }
}

describe('HttpClient', () => {
  it('sends a request again, once, on a new connection when a reused keep-alive socket is dropped', async () => {
    const target = await dropsReusedConnections()
    const client = new HttpClient(target.url)
    try {
      const first = await client.send('GET', '/a')
      expect(first.response?.status).toBe(200)
      const second = await client.send('GET', '/b')
      expect(second.error).toBeUndefined()
      expect(second.response?.status).toBe(200)
      expect(target.connections()).toBe(2)
    } finally {
      client.close()
    }
  })

  it('opens and answers every connection of a pool before it is used', async () => {
    const target = await dropsReusedConnections()
    const client = new HttpClient(target.url)
    const pool = await client.pool(5, '/warm')
    try {
      expect(target.connections()).toBe(5)
      expect(pool.size).toBe(5)
    } finally {
      pool.close()
      client.close()
    }
  })
})
