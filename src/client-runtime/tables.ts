/**
 * Stand-ins for the tables `oec generate` writes into client.ts, so the runtime compiles and runs
 * as a module of its own: one signed body (with a route / no-route pair of variants), one plain
 * read, one perp operation. Never embedded: the generator writes the spec's own tables in their
 * place (emit-client.ts), under these two names.
 */
import type { RuntimeTables } from './model.ts';

const domain = { name: 'Example', version: '1', chainId: 1, verifyingContract: '0x0000000000000000000000000000000000000001' } as const;

const place = [
  { name: 'wallet', type: 'address' },
  { name: 'size', type: 'string' },
  { name: 'route', type: 'string' },
  { name: 'clientId', type: 'uint64' },
  { name: 'nonce', type: 'uint64' },
] as const;

export const runtimeTables = {
  bodies: {
    PlaceRequest: {
      signature: 'signature',
      variants: [
        { message: 'Place', whenPresent: 'route' },
        { message: 'PlaceWithoutRoute', whenAbsent: 'route' },
      ],
    },
  },
  plans: {
    place: { method: 'POST', path: '/order', query: 'none', body: { signed: ['PlaceRequest'] } },
    order: { method: 'GET', path: '/orders/{id}', query: 'optional', pathParams: ['id'], body: null },
    exchange: {
      method: 'POST',
      path: '/exchange',
      query: 'none',
      body: { perp: { message: 'Agent', derived: 'connectionId', signature: 'signature', action: 'action' } },
    },
  },
  headers: { limit: 'X-RateLimit-Limit', remaining: 'X-RateLimit-Remaining', reset: 'X-RateLimit-Reset', retryAfter: 'Retry-After' },
  typedData: {
    Place: { domain, primaryType: 'Place', types: { Place: place } },
    PlaceWithoutRoute: { domain, primaryType: 'Place', types: { Place: place.filter((f) => f.name !== 'route') } },
    Agent: {
      domain: { ...domain, name: 'Exchange', chainId: 1337 },
      primaryType: 'Agent',
      types: {
        Agent: [
          { name: 'source', type: 'string' },
          { name: 'connectionId', type: 'bytes32' },
        ],
      },
    },
  },
  bodyFields: {
    Place: { wallet: 'wallet', size: 'size', route: 'route', clientId: 'client_id', nonce: 'nonce' },
    PlaceWithoutRoute: { wallet: 'wallet', size: 'size', clientId: 'client_id', nonce: 'nonce' },
    Agent: {},
  },
} as const satisfies RuntimeTables;

/** The spec's error codes; a plain string here. */
export type RuntimeErrorCode = string;
