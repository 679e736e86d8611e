/**
 * One fixture pair per rule: the shipped spec as base and a copy with one small edit as head,
 * with the finding the edit must produce (id, severity, pointer) and the only other rule ids
 * it may produce, so a rule that fires too widely fails too.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { diffSpecs } from '../../src/diff/index.ts'
import { DIFF_RULES } from '../../src/diff/index.ts'
import type { DiffRuleId, DiffSeverity } from '../../src/diff/index.ts'
import { at, base, codeIndex, edited, type Doc } from './helpers.ts'

interface Case {
  readonly name: string
  readonly edit: (doc: Doc) => void
  /** Edits applied to base too (e.g. deprecate an operation before removing it in head). */
  readonly baseEdit?: (doc: Doc) => void
  readonly id: string
  readonly severity: DiffSeverity
  readonly pointer: string | ((doc: Doc) => string)
  /** Other rule ids this edit may legitimately produce. */
  readonly also?: readonly string[]
  readonly check?: (f: { before?: unknown; after?: unknown; message: string }) => void
}

const VERSION_RULES = ['api-version-not-bumped', 'api-major-version-not-bumped', 'eip712-domain-version-not-bumped']
const cat =
  (code: string | number, suffix = '') =>
  (doc: Doc) =>
    `/x-service-error-codes/${codeIndex(doc, code)}${suffix}`
const entry = (doc: Doc, code: string | number) => doc['x-service-error-codes'][codeIndex(doc, code)]
const msg = (doc: Doc, id: string) => at(doc, `/x-eip712/messages/${id}`)

const cases: Case[] = [
  // ---------------------------------------------------------------- catalog
  {
    name: 'code removed',
    edit: (d) => d['x-service-error-codes'].splice(codeIndex(d, 'nonce_reused'), 1),
    id: 'error-code-removed',
    severity: 'breaking',
    pointer: cat('nonce_reused'),
  },
  {
    name: 'code renamed: removed half',
    edit: (d) => (entry(d, 'not_ready').code = 'service_not_ready'),
    id: 'error-code-removed',
    severity: 'breaking',
    pointer: cat('not_ready'),
    also: ['error-code-added'],
  },
  {
    name: 'code renamed: added half',
    edit: (d) => (entry(d, 'not_ready').code = 'service_not_ready'),
    id: 'error-code-added',
    severity: 'info',
    pointer: cat('not_ready'),
    also: ['error-code-removed'],
  },
  {
    name: 'code added',
    edit: (d) => d['x-service-error-codes'].push({ ...entry(d, 'invalid_json'), code: 'order_expired' }),
    id: 'error-code-added',
    severity: 'info',
    pointer: (d) => `/x-service-error-codes/${d['x-service-error-codes'].length}`,
  },
  {
    name: 'HTTP status of a code changed',
    edit: (d) => (entry(d, 'limit_exceeded').http_status = [400]),
    id: 'error-code-status-changed',
    severity: 'breaking',
    pointer: cat('limit_exceeded', '/http_status'),
    check: (f) => expect([f.before, f.after]).toEqual([[422], [400]]),
  },
  {
    name: 'code newly deprecated',
    edit: (d) => (entry(d, 'invalid_json').deprecated = true),
    id: 'error-code-deprecated',
    severity: 'warning',
    pointer: cat('invalid_json', '/deprecated'),
  },
  {
    name: 'retryable changed',
    edit: (d) => (entry(d, 'internal_error').retryable = false),
    id: 'error-code-attribute-changed',
    severity: 'warning',
    pointer: cat('internal_error', '/retryable'),
  },
  {
    name: 'JSON-RPC code renumbered',
    edit: (d) => (entry(d, 13020).code = 13021),
    id: 'jsonrpc-error-code-changed',
    severity: 'breaking',
    pointer: cat(13020, '/code'),
    check: (f) => expect([f.before, f.after]).toEqual([13020, 13021]),
  },
  {
    name: 'JSON-RPC code removed',
    edit: (d) => d['x-service-error-codes'].splice(codeIndex(d, 13020), 1),
    id: 'jsonrpc-error-code-removed',
    severity: 'breaking',
    pointer: cat(13020),
  },
  {
    name: 'legacy error value changed',
    edit: (d) => (entry(d, 'rate_limit_exceeded').legacy_error = 'too_many_requests'),
    id: 'error-code-legacy-error-changed',
    severity: 'breaking',
    pointer: cat('rate_limit_exceeded', '/legacy_error'),
  },
  // ---------------------------------------------------------------- signing
  {
    name: 'options domain name',
    edit: (d) => (at(d, '/x-eip712/domains/options').name = 'Other'),
    id: 'eip712-domain-changed',
    severity: 'breaking',
    pointer: '/x-eip712/domains/options/name',
  },
  {
    name: 'options chainId',
    edit: (d) => (at(d, '/x-eip712/domains/options').chainId = 1),
    id: 'eip712-domain-changed',
    severity: 'breaking',
    pointer: '/x-eip712/domains/options/chainId',
  },
  {
    name: 'options domain version',
    edit: (d) => (at(d, '/x-eip712/domains/options').version = '2'),
    id: 'eip712-domain-changed',
    severity: 'breaking',
    pointer: '/x-eip712/domains/options/version',
  },
  {
    name: 'verifyingContract',
    edit: (d) => (at(d, '/x-eip712/domains/options').verifyingContract = '0x000000000000000000000000000000000000dEaD'),
    id: 'eip712-domain-changed',
    severity: 'breaking',
    pointer: '/x-eip712/domains/options/verifyingContract',
  },
  {
    name: 'perp domain chainId (issue 9)',
    edit: (d) => (at(d, '/x-eip712/domains/perps').chainId = 999),
    id: 'eip712-domain-changed',
    severity: 'breaking',
    pointer: '/x-eip712/domains/perps/chainId',
  },
  {
    name: 'perp domain name (issue 9)',
    edit: (d) => (at(d, '/x-eip712/domains/perps').name = 'Service'),
    id: 'eip712-domain-changed',
    severity: 'breaking',
    pointer: '/x-eip712/domains/perps/name',
  },
  {
    name: 'domain type gains salt',
    edit: (d) => at(d, '/x-eip712/domainType').push({ name: 'salt', type: 'bytes32' }),
    id: 'eip712-domain-changed',
    severity: 'breaking',
    pointer: '/x-eip712/domainType',
  },
  {
    name: 'Agent field retyped (issue 9)',
    edit: (d) => (msg(d, 'Agent').fields[1].type = 'bytes'),
    id: 'eip712-type-hash-changed',
    severity: 'breaking',
    pointer: '/x-eip712/messages/Agent/fields',
    check: (f) => {
      expect((f.before as { type: string }).type).toBe('Agent(string source,bytes32 connectionId)')
      expect((f.after as { type: string }).type).toBe('Agent(string source,bytes connectionId)')
    },
  },
  {
    name: 'PlaceOrder fields reordered',
    edit: (d) => {
      const f = msg(d, 'PlaceOrder').fields
      ;[f[3], f[4]] = [f[4], f[3]]
    },
    id: 'eip712-type-hash-changed',
    severity: 'breaking',
    pointer: '/x-eip712/messages/PlaceOrder/fields',
    check: (f) => expect((f.after as { type: string }).type).toContain('string price,string size'),
  },
  {
    name: 'PlaceOrder field renamed',
    edit: (d) => (msg(d, 'PlaceOrderWithoutRoute').fields[1].name = 'instrument'),
    id: 'eip712-type-hash-changed',
    severity: 'breaking',
    pointer: '/x-eip712/messages/PlaceOrderWithoutRoute/fields',
  },
  {
    name: 'CancelOrder field added',
    edit: (d) => msg(d, 'CancelOrder').fields.push({ name: 'expiry', type: 'uint64' }),
    id: 'eip712-type-hash-changed',
    severity: 'breaking',
    pointer: '/x-eip712/messages/CancelOrder/fields',
  },
  {
    name: 'struct renamed',
    edit: (d) => (msg(d, 'ApproveAgent').primaryType = 'ApproveAgentV2'),
    id: 'eip712-primary-type-renamed',
    severity: 'breaking',
    pointer: '/x-eip712/messages/ApproveAgent/primaryType',
    also: ['eip712-type-hash-changed'],
  },
  {
    name: 'signed message removed',
    edit: (d) => delete d['x-eip712'].messages.RevokeAgent,
    id: 'eip712-message-removed',
    severity: 'breaking',
    pointer: '/x-eip712/messages/RevokeAgent',
  },
  {
    name: 'typed field carried by another body property',
    edit: (d) => (msg(d, 'CancelOrderByClientId').fields[1].body = 'cloid'),
    id: 'signed-field-mapping-changed',
    severity: 'breaking',
    pointer: '/x-eip712/messages/CancelOrderByClientId/fields/1',
  },
  {
    name: 'request body signed under another variant rule',
    edit: (d) => (d.components.schemas.PlaceOrderRequest['x-eip712-signed'].variants[1]['when-absent'] = 'client_id'),
    id: 'signed-body-message-changed',
    severity: 'breaking',
    pointer: '/components/schemas/PlaceOrderRequest/x-eip712-signed',
  },
  {
    name: 'inline request body signed as another message',
    baseEdit: (d) =>
      (d.paths['/order'].delete.requestBody.content['application/json'].schema = structuredClone(d.components.schemas.CancelOrderRequest)),
    edit: (d) =>
      (d.paths['/order'].delete.requestBody.content['application/json'].schema['x-eip712-signed'].variants[0].message =
        'CancelOrderByClientId'),
    id: 'signed-body-message-changed',
    severity: 'breaking',
    pointer: '/paths/~1order/delete/requestBody/content/application~1json/schema/x-eip712-signed',
  },
  {
    name: 'signed type changed without a domain version bump',
    edit: (d) => (msg(d, 'Agent').fields[0].type = 'bytes1'),
    id: 'eip712-domain-version-not-bumped',
    severity: 'breaking',
    pointer: '/x-eip712/domains/perps/version',
    also: ['eip712-type-hash-changed'],
  },
  // ---------------------------------------------------------------- operations
  {
    name: 'operation removed',
    edit: (d) => delete d.paths['/bulk_order_cloid'],
    id: 'api-path-removed-without-deprecation',
    severity: 'breaking',
    pointer: '/paths/~1bulk_order_cloid/delete',
  },
  {
    name: 'deprecated operation removed before its sunset',
    baseEdit: (d) => Object.assign(d.paths['/health'].get, { deprecated: true, 'x-sunset': '2999-01-01' }),
    edit: (d) => delete d.paths['/health'],
    id: 'api-path-removed-before-sunset',
    severity: 'breaking',
    pointer: '/paths/~1health/get',
  },
  {
    name: 'operation added',
    edit: (d) => (d.paths['/ping'] = { get: { operationId: 'ping', responses: { '200': { description: 'ok' } } } }),
    id: 'endpoint-added',
    severity: 'info',
    pointer: '/paths/~1ping/get',
  },
  {
    name: 'operationId renamed',
    edit: (d) => (d.paths['/order'].post.operationId = 'createOrder'),
    id: 'api-operation-id-removed',
    severity: 'breaking',
    pointer: '/paths/~1order/post/operationId',
  },
  {
    name: 'route made required',
    edit: (d) => at(d, '/components/schemas/PlaceOrderRequest/required').push('route'),
    id: 'request-property-became-required',
    severity: 'breaking',
    pointer: '/components/schemas/PlaceOrderRequest/properties/route',
    check: (f) => expect(f.message).toMatch(/`route`.*POST \/order/),
  },
  {
    name: 'new required request property',
    edit: (d) => {
      const s = at(d, '/components/schemas/ApproveAgentRequest')
      s.properties.expiry = { type: 'integer' }
      s.required.push('expiry')
    },
    id: 'new-required-request-property',
    severity: 'breaking',
    pointer: '/components/schemas/ApproveAgentRequest/properties/expiry',
  },
  {
    name: 'request enum value removed',
    edit: (d) => (at(d, '/components/schemas/Tif').enum = ['gtc', 'ioc']),
    id: 'request-property-enum-value-removed',
    severity: 'breaking',
    pointer: '/components/schemas/Tif/enum',
    also: ['response-property-enum-value-removed'],
    check: (f) => expect(f.before).toBe('fok'),
  },
  {
    name: 'request const changed',
    edit: (d) => (at(d, '/components/schemas/PerpOrderAction/properties/type').const = 'place'),
    id: 'request-property-const-changed',
    severity: 'breaking',
    pointer: '/components/schemas/PerpOrderAction/properties/type/const',
  },
  {
    name: 'required response property removed',
    edit: (d) => {
      const s = at(d, '/components/schemas/AgentChange')
      delete s.properties.status
      s.required = ['wallet', 'agent']
    },
    id: 'response-required-property-removed',
    severity: 'breaking',
    pointer: '/components/schemas/AgentChange/properties/status',
  },
  {
    name: 'optional response property removed',
    edit: (d) => delete at(d, '/components/schemas/OrderResult/properties').reason,
    id: 'response-optional-property-removed',
    severity: 'warning',
    pointer: '/components/schemas/OrderResult/properties/reason',
  },
  {
    name: 'response property made optional',
    edit: (d) =>
      (at(d, '/components/schemas/OrderRecord').required = at(d, '/components/schemas/OrderRecord/required').filter(
        (x: string) => x !== 'filled_size',
      )),
    id: 'response-property-became-optional',
    severity: 'breaking',
    pointer: '/components/schemas/OrderRecord/properties/filled_size',
  },
  {
    name: 'response enum value added',
    edit: (d) => at(d, '/components/schemas/OrderResult/properties/status/enum').push('PENDING'),
    id: 'response-property-enum-value-added',
    severity: 'warning',
    pointer: '/components/schemas/OrderResult/properties/status/enum',
  },
  {
    name: 'request type changed',
    edit: (d) => (at(d, '/components/schemas/OrderId').type = 'integer'),
    id: 'request-property-type-changed',
    severity: 'breaking',
    pointer: '/components/schemas/OrderId/type',
    also: ['response-property-type-changed'],
  },
  {
    name: 'response type changed',
    edit: (d) => (at(d, '/components/schemas/OrderRecord/properties/created_at').type = 'integer'),
    id: 'response-property-type-changed',
    severity: 'breaking',
    pointer: '/components/schemas/OrderRecord/properties/created_at/type',
  },
  {
    name: 'response property may be null',
    edit: (d) => (at(d, '/components/schemas/AgentChange/properties/status').type = ['string', 'null']),
    id: 'response-property-became-nullable',
    severity: 'breaking',
    pointer: '/components/schemas/AgentChange/properties/status/type',
  },
  {
    name: 'request pattern added',
    edit: (d) => (at(d, '/components/schemas/ClientId').pattern = '^[0-9a-f]*$'),
    id: 'request-property-pattern-added',
    severity: 'breaking',
    pointer: '/components/schemas/ClientId/pattern',
    also: ['response-property-pattern-added'],
  },
  {
    name: 'request pattern changed',
    edit: (d) => (at(d, '/components/schemas/Decimal').pattern = '^[0-9]+(\\.[0-9]{1,8})?$'),
    id: 'request-property-pattern-changed',
    severity: 'warning',
    pointer: '/components/schemas/Decimal/pattern',
    also: ['response-property-pattern-changed'],
  },
  {
    name: 'maxLength added',
    edit: (d) => (at(d, '/components/schemas/OrderId').maxLength = 64),
    id: 'request-property-max-length-set',
    severity: 'warning',
    pointer: '/components/schemas/OrderId/maxLength',
  },
  {
    name: 'minLength raised',
    edit: (d) => (at(d, '/components/schemas/OrderId').minLength = 8),
    id: 'request-property-min-length-increased',
    severity: 'breaking',
    pointer: '/components/schemas/OrderId/minLength',
  },
  {
    name: 'minimum raised',
    edit: (d) => (at(d, '/components/schemas/PerpOrder/properties/a').minimum = 1),
    id: 'request-property-min-increased',
    severity: 'breaking',
    pointer: '/components/schemas/PerpOrder/properties/a/minimum',
  },
  {
    name: 'maximum lowered',
    edit: (d) => (at(d, '/components/schemas/Nonce').maximum = 2 ** 53),
    id: 'request-property-max-decreased',
    severity: 'breaking',
    pointer: '/components/schemas/Nonce/maximum',
  },
  {
    name: 'maxItems added',
    edit: (d) => (at(d, '/components/schemas/BulkPlaceRequest/properties/orders').maxItems = 10),
    id: 'request-property-max-items-decreased',
    severity: 'breaking',
    pointer: '/components/schemas/BulkPlaceRequest/properties/orders/maxItems',
  },
  {
    name: 'request bound relaxed is info',
    edit: (d) => (at(d, '/components/schemas/PerpOrder/properties/a').minimum = -1),
    id: 'request-property-min-decreased',
    severity: 'info',
    pointer: '/components/schemas/PerpOrder/properties/a/minimum',
  },
  {
    name: 'success status removed',
    edit: (d) => delete d.paths['/approve-agent'].post.responses['200'],
    id: 'response-success-status-removed',
    severity: 'breaking',
    pointer: '/paths/~1approve-agent/post/responses/200',
  },
  {
    name: 'error status removed',
    edit: (d) => delete d.paths['/order'].post.responses['409'],
    id: 'response-non-success-status-removed',
    severity: 'info',
    pointer: '/paths/~1order/post/responses/409',
  },
  {
    name: 'rate-limit header removed',
    edit: (d) => delete d.paths['/order'].post.responses['200'].headers['X-RateLimit-Remaining'],
    id: 'required-response-header-removed',
    severity: 'breaking',
    pointer: '/paths/~1order/post/responses/200/headers/X-RateLimit-Remaining',
  },
  {
    name: 'rate-limit header no longer required',
    edit: (d) => (at(d, '/components/headers/X-RateLimit-Reset').required = false),
    id: 'response-header-became-optional',
    severity: 'breaking',
    pointer: '/components/headers/X-RateLimit-Reset/required',
    check: (f) => expect(f.message).toMatch(/and \d+ more operations/),
  },
  {
    name: 'query parameter removed',
    edit: (d) => d.paths['/orders'].get.parameters.splice(1, 1),
    id: 'request-parameter-removed',
    severity: 'warning',
    pointer: '/paths/~1orders/get/parameters/1',
  },
  {
    name: 'query parameter made required',
    edit: (d) => (d.paths['/orders'].get.parameters[1].required = true),
    id: 'request-parameter-became-required',
    severity: 'breaking',
    pointer: '/paths/~1orders/get/parameters/1/required',
  },
  {
    name: 'new required query parameter',
    edit: (d) => d.paths['/orderbook'].get.parameters.push({ name: 'depth', in: 'query', required: true, schema: { type: 'integer' } }),
    id: 'new-required-request-parameter',
    severity: 'breaking',
    pointer: '/paths/~1orderbook/get/parameters/1',
  },
  {
    name: 'query parameter enum value removed',
    edit: (d) => (at(d, '/components/schemas/OrderStatus').enum = ['OPEN', 'FILLED', 'CANCELED']),
    id: 'request-parameter-enum-value-removed',
    severity: 'breaking',
    pointer: '/components/schemas/OrderStatus/enum',
    also: ['response-property-enum-value-removed'],
  },
  {
    name: 'error code added to an operation',
    edit: (d) => at(d, '/components/responses/BadQuery/x-error-codes').push('batch_too_large'),
    id: 'error-code-added-to-operation',
    severity: 'warning',
    pointer: '/components/responses/BadQuery/x-error-codes',
  },
  {
    name: 'request media type removed',
    edit: (d) => {
      const content = d.paths['/approve-agent'].post.requestBody.content
      content['application/x-www-form-urlencoded'] = content['application/json']
      delete content['application/json']
    },
    id: 'request-body-media-type-removed',
    severity: 'breaking',
    also: ['request-body-media-type-added'],
    pointer: '/paths/~1approve-agent/post/requestBody/content/application~1json',
  },
  {
    name: 'request property removed from a closed schema',
    edit: (d) => delete at(d, '/components/schemas/PerpRequest/properties').expiresAfter,
    id: 'request-property-removed',
    severity: 'breaking',
    pointer: '/components/schemas/PerpRequest/properties/expiresAfter',
  },
  {
    name: 'oneOf alternative removed from a request',
    edit: (d) => at(d, '/components/schemas/PerpRequest/properties/action/oneOf').pop(),
    id: 'request-property-one-of-removed',
    severity: 'breaking',
    pointer: '/components/schemas/PerpRequest/properties/action/oneOf',
  },
  // ---------------------------------------------------------------- limits
  {
    name: 'tier limit lowered',
    edit: (d) => (at(d, '/x-rate-limits/tiers/default').ordersPerMinute = 30),
    id: 'rate-limit-tier-lowered',
    severity: 'warning',
    pointer: '/x-rate-limits/tiers/default/ordersPerMinute',
    check: (f) => expect([f.before, f.after]).toEqual([60, 30]),
  },
  {
    name: 'unlimited positions capped',
    edit: (d) => (at(d, '/x-rate-limits/tiers/market_maker').maxPositions = 5000),
    id: 'rate-limit-tier-lowered',
    severity: 'warning',
    pointer: '/x-rate-limits/tiers/market_maker/maxPositions',
  },
  {
    name: 'tier limit raised',
    edit: (d) => (at(d, '/x-rate-limits/tiers/tier1').cancelsPerMinute = 90),
    id: 'rate-limit-tier-raised',
    severity: 'info',
    pointer: '/x-rate-limits/tiers/tier1/cancelsPerMinute',
  },
  {
    name: 'max batch lowered',
    edit: (d) => (d['x-rate-limits'].maxBatch = 20),
    id: 'max-batch-decreased',
    severity: 'warning',
    pointer: '/x-rate-limits/maxBatch',
  },
  {
    name: 'tier removed',
    edit: (d) => delete d['x-rate-limits'].tiers.tier2,
    id: 'rate-limit-tier-removed',
    severity: 'warning',
    pointer: '/x-rate-limits/tiers/tier2',
  },
  // ---------------------------------------------------------------- x-assumed
  {
    name: 'assumed operation becomes stated',
    edit: (d) => delete d.paths['/revoke-agent'].post['x-assumed'],
    id: 'assumed-became-stated',
    severity: 'info',
    pointer: '/paths/~1revoke-agent/post',
  },
  {
    name: 'stated code becomes assumed',
    edit: (d) => (entry(d, 'invalid_field')['x-assumed'] = true),
    id: 'stated-became-assumed',
    severity: 'info',
    pointer: cat('invalid_field'),
  },
  {
    name: 'assumed status becomes stated',
    edit: (d) => delete entry(d, 'signature_verification_failed')['x-assumed-status'],
    id: 'assumed-became-stated',
    severity: 'info',
    pointer: cat('signature_verification_failed', '/x-assumed-status'),
  },
  // ---------------------------------------------------------------- versions
  {
    name: 'breaking change, version unchanged',
    edit: (d) => delete d.paths['/health'],
    id: 'api-version-not-bumped',
    severity: 'breaking',
    pointer: '/info/version',
    also: ['api-path-removed-without-deprecation'],
  },
  {
    name: 'breaking change, minor bump only',
    edit: (d) => {
      delete d.paths['/health']
      d.info.version = '1.1.0'
    },
    id: 'api-major-version-not-bumped',
    severity: 'breaking',
    pointer: '/info/version',
    also: ['api-path-removed-without-deprecation'],
  },
  {
    name: 'version went down',
    edit: (d) => (d.info.version = '0.9.0'),
    id: 'api-version-decreased',
    severity: 'warning',
    pointer: '/info/version',
  },
  // ---------------------------------------------------------------- the rest of the registry
  {
    name: 'deprecated operation removed after its sunset',
    baseEdit: (d) => Object.assign(d.paths['/health'].get, { deprecated: true, 'x-sunset': '2026-01-01' }),
    edit: (d) => delete d.paths['/health'],
    id: 'api-path-removed-with-deprecation',
    severity: 'info',
    pointer: '/paths/~1health/get',
  },
  {
    name: 'operation deprecated',
    edit: (d) => (d.paths['/health'].get.deprecated = true),
    id: 'endpoint-deprecated',
    severity: 'info',
    pointer: '/paths/~1health/get/deprecated',
  },
  {
    name: 'rate-limit category changed',
    edit: (d) => (d.paths['/order'].post['x-rate-limit'].category = 'api'),
    id: 'rate-limit-category-changed',
    severity: 'warning',
    pointer: '/paths/~1order/post/x-rate-limit',
  },
  {
    name: 'request body became required',
    baseEdit: (d) => (d.paths['/approve-agent'].post.requestBody.required = false),
    edit: (d) => (d.paths['/approve-agent'].post.requestBody.required = true),
    id: 'request-body-became-required',
    severity: 'breaking',
    pointer: '/paths/~1approve-agent/post/requestBody/required',
  },
  {
    name: 'new optional request property',
    edit: (d) => (at(d, '/components/schemas/ApproveAgentRequest/properties').memo = { type: 'string' }),
    id: 'new-optional-request-property',
    severity: 'info',
    pointer: '/components/schemas/ApproveAgentRequest/properties/memo',
  },
  {
    name: 'request property became optional',
    edit: (d) => (at(d, '/components/schemas/ApproveAgentRequest').required = ['agent', 'signature']),
    id: 'request-property-became-optional',
    severity: 'info',
    pointer: '/components/schemas/ApproveAgentRequest/properties/nonce',
  },
  {
    name: 'new optional query parameter',
    edit: (d) => d.paths['/orders'].get.parameters.push({ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }),
    id: 'new-optional-request-parameter',
    severity: 'info',
    pointer: '/paths/~1orders/get/parameters/2',
  },
  {
    name: 'query parameter became optional',
    edit: (d) => (d.paths['/orderbook'].get.parameters[0].required = false),
    id: 'request-parameter-became-optional',
    severity: 'info',
    pointer: '/paths/~1orderbook/get/parameters/0/required',
  },
  {
    name: 'success status added',
    edit: (d) => (d.paths['/health'].get.responses['202'] = { description: 'warming up' }),
    id: 'response-success-status-added',
    severity: 'info',
    pointer: '/paths/~1health/get/responses/202',
  },
  {
    name: 'error status added',
    edit: (d) => (d.paths['/health'].get.responses['500'] = { $ref: '#/components/responses/InternalError' }),
    id: 'response-non-success-status-added',
    severity: 'info',
    pointer: '/paths/~1health/get/responses/500',
    also: ['error-code-added-to-operation'],
  },
  {
    name: 'response media type removed',
    edit: (d) => {
      const content = d.paths['/health'].get.responses['200'].content
      content['text/plain'] = { schema: { type: 'string' } }
      delete content['application/json']
    },
    id: 'response-media-type-removed',
    severity: 'breaking',
    also: ['response-media-type-added'],
    pointer: '/paths/~1health/get/responses/200/content/application~1json',
  },
  {
    name: 'required response property added',
    edit: (d) => {
      at(d, '/components/schemas/Health/properties').uptime = { type: 'integer' }
      at(d, '/components/schemas/Health/required').push('uptime')
    },
    id: 'response-required-property-added',
    severity: 'info',
    pointer: '/components/schemas/Health/properties/uptime',
  },
  {
    name: 'optional response property added',
    edit: (d) => (at(d, '/components/schemas/Health/properties').version = { type: 'string' }),
    id: 'response-optional-property-added',
    severity: 'info',
    pointer: '/components/schemas/Health/properties/version',
  },
  {
    name: 'response property became required',
    edit: (d) => at(d, '/components/schemas/OrderResult/required').push('reason'),
    id: 'response-property-became-required',
    severity: 'info',
    pointer: '/components/schemas/OrderResult/properties/reason',
  },
  {
    name: 'response enum value removed',
    edit: (d) => (at(d, '/components/schemas/AgentChange/properties/status').enum = ['approved']),
    id: 'response-property-enum-value-removed',
    severity: 'info',
    pointer: '/components/schemas/AgentChange/properties/status/enum',
  },
  {
    name: 'response may take a new oneOf shape',
    edit: (d) => at(d, '/components/schemas/PerpResponse/properties/response/oneOf').push({ type: 'integer' }),
    id: 'response-property-one-of-added',
    severity: 'breaking',
    pointer: '/components/schemas/PerpResponse/properties/response/oneOf/2',
  },
  {
    name: 'optional response header removed',
    edit: (d) => delete d.paths['/order'].post.responses['200'].headers.Deprecation,
    id: 'optional-response-header-removed',
    severity: 'warning',
    pointer: '/paths/~1order/post/responses/200/headers/Deprecation',
  },
  {
    name: 'error code removed from an operation',
    edit: (d) => (at(d, '/components/responses/BadQuery')['x-error-codes'] = []),
    id: 'error-code-removed-from-operation',
    severity: 'info',
    pointer: '/components/responses/BadQuery/x-error-codes',
  },
  {
    name: 'signing domain removed',
    edit: (d) => delete d['x-eip712'].domains.perps,
    id: 'eip712-domain-removed',
    severity: 'breaking',
    pointer: '/x-eip712/domains/perps',
  },
  {
    name: 'signing domain added',
    edit: (d) => (d['x-eip712'].domains.spot = { ...at(d, '/x-eip712/domains/perps'), name: 'Spot' }),
    id: 'eip712-domain-added',
    severity: 'info',
    pointer: '/x-eip712/domains/spot',
  },
  {
    name: 'signed message moved to another domain',
    edit: (d) => (msg(d, 'RevokeAgent').domain = 'perps'),
    id: 'eip712-message-domain-changed',
    severity: 'breaking',
    pointer: '/x-eip712/messages/RevokeAgent/domain',
  },
  {
    name: 'signed message added',
    edit: (d) => (d['x-eip712'].messages.Ping = { domain: 'options', primaryType: 'Ping', fields: [{ name: 'nonce', type: 'uint64' }] }),
    id: 'eip712-message-added',
    severity: 'info',
    pointer: '/x-eip712/messages/Ping',
  },
  {
    name: 'tier added',
    edit: (d) => (d['x-rate-limits'].tiers.vip = { ...at(d, '/x-rate-limits/tiers/tier2'), name: 'VIP' }),
    id: 'rate-limit-tier-added',
    severity: 'info',
    pointer: '/x-rate-limits/tiers/vip',
  },
  {
    name: 'window changed',
    edit: (d) => (d['x-rate-limits'].windowSeconds = 30),
    id: 'rate-limit-window-changed',
    severity: 'warning',
    pointer: '/x-rate-limits/windowSeconds',
  },
  {
    name: 'default tier changed',
    edit: (d) => (d['x-rate-limits'].defaultTier = 'tier1'),
    id: 'rate-limit-default-tier-changed',
    severity: 'warning',
    pointer: '/x-rate-limits/defaultTier',
  },
  {
    name: 'max batch raised',
    edit: (d) => (d['x-rate-limits'].maxBatch = 100),
    id: 'max-batch-increased',
    severity: 'info',
    pointer: '/x-rate-limits/maxBatch',
  },
  {
    name: 'operation removed, path kept',
    edit: (d) => delete d.paths['/order'].delete,
    id: 'api-removed-without-deprecation',
    severity: 'breaking',
    pointer: '/paths/~1order/delete',
  },
  {
    name: 'deprecated operation removed before its sunset, path kept',
    baseEdit: (d) => Object.assign(d.paths['/order'].delete, { deprecated: true, 'x-sunset': '2999-01-01' }),
    edit: (d) => delete d.paths['/order'].delete,
    id: 'api-removed-before-sunset',
    severity: 'breaking',
    pointer: '/paths/~1order/delete',
  },
  {
    name: 'operationId added',
    baseEdit: (d) => delete d.paths['/health'].get.operationId,
    edit: (d) => (d.paths['/health'].get.operationId = 'getHealth'),
    id: 'api-operation-id-added',
    severity: 'info',
    pointer: '/paths/~1health/get/operationId',
  },
  {
    name: 'path parameter added',
    edit: (d) =>
      (d.paths['/health/{region}'].get.parameters = [{ name: 'region', in: 'path', required: true, schema: { type: 'string' } }]),
    baseEdit: (d) => {
      d.paths['/health/{region}'] = d.paths['/health']
      delete d.paths['/health']
    },
    id: 'new-request-path-parameter',
    severity: 'breaking',
    pointer: '/paths/~1health~1{region}/get/parameters/0',
  },
  { name: 'layer removed', edit: (d) => delete d['x-rate-limits'], id: 'layer-removed', severity: 'breaking', pointer: '/x-rate-limits' },
  {
    name: 'layer added',
    baseEdit: (d) => delete d['x-websocket'],
    edit: (d) => (d['x-websocket'] = structuredClone(base().doc['x-websocket'])),
    id: 'layer-added',
    severity: 'info',
    pointer: '/x-websocket',
  },
  {
    name: 'WebSocket endpoint moved',
    edit: (d) => (d['x-websocket'].path = '/stream'),
    id: 'websocket-path-changed',
    severity: 'breaking',
    pointer: '/x-websocket/path',
  },
  {
    name: 'WebSocket channel removed',
    edit: (d) => delete d['x-websocket'].channels.orders,
    id: 'websocket-channel-removed',
    severity: 'breaking',
    pointer: '/x-websocket/channels/orders',
  },
  {
    name: 'WebSocket channel added',
    edit: (d) => (d['x-websocket'].channels.fills = { message: { $ref: '#/components/schemas/WsOrderUpdate' } }),
    id: 'websocket-channel-added',
    severity: 'info',
    pointer: '/x-websocket/channels/fills',
  },
  {
    name: 'WebSocket message removed',
    edit: (d) => delete d['x-websocket'].channels.orders.subscribe,
    id: 'websocket-message-removed',
    severity: 'breaking',
    pointer: '/x-websocket/channels/orders/subscribe',
  },
  {
    name: 'WebSocket message added',
    edit: (d) => (d['x-websocket'].channels.orders.unsubscribe = { $ref: '#/components/schemas/WsSubscribe' }),
    id: 'websocket-message-added',
    severity: 'info',
    pointer: '/x-websocket/channels/orders/unsubscribe',
  },
  {
    name: 'WebSocket pushed message narrowed: judged like a response',
    edit: (d) => (at(d, '/components/schemas/WsOrderUpdate').properties.extra = { type: 'string' }),
    id: 'response-optional-property-added',
    severity: 'info',
    pointer: '/components/schemas/WsOrderUpdate/properties/extra',
  },
]

/**
 * Schema-keyword rules, once for a request body property and once for a query parameter: the
 * element starts as `before` in both specs (a base edit) and becomes `after` in head.
 */
const keywordCases: [suffix: string, severity: DiffSeverity, before: object, after: object, at: string][] = [
  ['type-changed', 'breaking', { type: 'string' }, { type: 'integer' }, '/type'],
  ['became-not-nullable', 'breaking', { type: ['string', 'null'] }, { type: 'string' }, '/type'],
  ['enum-value-added', 'info', { type: 'string', enum: ['a'] }, { type: 'string', enum: ['a', 'b'] }, '/enum'],
  ['enum-value-removed', 'breaking', { type: 'string', enum: ['a', 'b'] }, { type: 'string', enum: ['a'] }, '/enum'],
  ['became-enum', 'breaking', { type: 'string' }, { type: 'string', enum: ['a'] }, '/enum'],
  ['pattern-added', 'breaking', { type: 'string' }, { type: 'string', pattern: '^a' }, '/pattern'],
  ['pattern-changed', 'warning', { type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }, '/pattern'],
  ['pattern-removed', 'info', { type: 'string', pattern: '^a' }, { type: 'string' }, ''],
  ['max-length-decreased', 'breaking', { type: 'string', maxLength: 10 }, { type: 'string', maxLength: 5 }, '/maxLength'],
  ['max-length-increased', 'info', { type: 'string', maxLength: 10 }, { type: 'string', maxLength: 20 }, '/maxLength'],
  ['min-length-increased', 'breaking', { type: 'string', minLength: 2 }, { type: 'string', minLength: 3 }, '/minLength'],
  ['min-length-decreased', 'info', { type: 'string', minLength: 2 }, { type: 'string', minLength: 1 }, '/minLength'],
  ['max-decreased', 'breaking', { type: 'integer', maximum: 10 }, { type: 'integer', maximum: 5 }, '/maximum'],
  ['max-increased', 'info', { type: 'integer', maximum: 10 }, { type: 'integer', maximum: 20 }, '/maximum'],
  ['min-increased', 'breaking', { type: 'integer', minimum: 1 }, { type: 'integer', minimum: 2 }, '/minimum'],
  ['min-decreased', 'info', { type: 'integer', minimum: 1 }, { type: 'integer', minimum: 0 }, '/minimum'],
  [
    'max-items-decreased',
    'breaking',
    { type: 'array', items: { type: 'string' }, maxItems: 10 },
    { type: 'array', items: { type: 'string' }, maxItems: 5 },
    '/maxItems',
  ],
  [
    'max-items-increased',
    'info',
    { type: 'array', items: { type: 'string' }, maxItems: 10 },
    { type: 'array', items: { type: 'string' }, maxItems: 20 },
    '/maxItems',
  ],
  [
    'min-items-increased',
    'breaking',
    { type: 'array', items: { type: 'string' }, minItems: 1 },
    { type: 'array', items: { type: 'string' }, minItems: 2 },
    '/minItems',
  ],
  [
    'min-items-decreased',
    'info',
    { type: 'array', items: { type: 'string' }, minItems: 2 },
    { type: 'array', items: { type: 'string' }, minItems: 1 },
    '/minItems',
  ],
  ['one-of-removed', 'breaking', { oneOf: [{ type: 'string' }, { type: 'integer' }] }, { oneOf: [{ type: 'string' }] }, '/oneOf'],
]
for (const [suffix, severity, before, after, where] of keywordCases) {
  cases.push({
    name: `request property ${suffix}`,
    baseEdit: (d) => (at(d, '/components/schemas/ApproveAgentRequest/properties').memo = structuredClone(before)),
    edit: (d) => (at(d, '/components/schemas/ApproveAgentRequest/properties').memo = structuredClone(after)),
    id: `request-property-${suffix}`,
    severity,
    pointer: `/components/schemas/ApproveAgentRequest/properties/memo${where}`,
  })
  cases.push({
    name: `query parameter ${suffix}`,
    baseEdit: (d) =>
      d.paths['/orders'].get.parameters.push({ name: 'memo', in: 'query', required: false, schema: structuredClone(before) }),
    edit: (d) => (d.paths['/orders'].get.parameters[2].schema = structuredClone(after)),
    id: `request-parameter-${suffix}`,
    severity,
    pointer: `/paths/~1orders/get/parameters/2/schema${where}`,
  })
}

describe('oec diff rules: one fixture pair per rule', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const b = c.baseEdit ? edited(c.baseEdit) : base()
    const h = edited((d) => {
      c.baseEdit?.(d)
      c.edit(d)
    }, base())
    const pointer = typeof c.pointer === 'function' ? c.pointer(structuredClone(base().doc) as Doc) : c.pointer
    const findings = diffSpecs(b, h, { today: '2026-11-21' })
    const hit = findings.find((f) => f.id === c.id && f.pointer === pointer)
    expect(hit, `${c.id} at ${pointer}; got ${JSON.stringify(findings.map((f) => [f.id, f.pointer]))}`).toBeDefined()
    expect(hit!.severity).toBe(c.severity)
    expect(hit!.message).toMatch(/^[A-Z0-9`].*\.$/)
    expect(hit!.message).not.toContain('\n')
    const allowed = new Set([c.id, ...(c.also ?? []), ...VERSION_RULES])
    expect(findings.map((f) => f.id).filter((id) => !allowed.has(id))).toEqual([])
    c.check?.(hit!)
  })

  it('rule ids are a closed union: a misspelt id does not compile', () => {
    const known: DiffRuleId = 'request-body-if-added'
    // @ts-expect-error 'request-body-iff-added' is not a rule id (tsc --noEmit checks this line)
    const typo: DiffRuleId = 'request-body-iff-added'
    expect(DIFF_RULES[known]).toBeDefined()
    expect(DIFF_RULES[typo]).toBeUndefined()
  })

  // A rule is exercised by a fixture pair here or by a row of the oasdiff corpus; a schema
  // keyword family (one change named at body, property, parameter and header) by at least one site.
  it('has a fixture pair or a corpus row for every registered rule', () => {
    const corpus = JSON.parse(readFileSync(new URL('./oasdiff-corpus/table.json', import.meta.url), 'utf8')) as {
      rows: { id: string; skip?: string }[]
    }
    // plain.test.ts: rows `['<suffix>', {before}, {after}]` and cases ending in `'<rule-id>']`.
    const plain = readFileSync(new URL('./plain.test.ts', import.meta.url), 'utf8')
    // Whitespace-insensitive: the formatter may break a row over several lines.
    const plainFamilies = [...plain.matchAll(/^\s*\[\s*'([a-z-]+)',\s*\{/gm)].map((m) => m[1]!)
    const plainRules = [...plain.matchAll(/,\s*'([a-z-]+)',?\s*\],?$/gm)].map((m) => m[1]!)
    const tested = new Set([...cases.map((c) => c.id), ...corpus.rows.filter((r) => !r.skip).map((r) => r.id), ...plainRules])
    const families = new Set([...[...tested].map((id) => DIFF_RULES[id]?.family), ...plainFamilies].filter(Boolean))
    const untested = Object.entries(DIFF_RULES).filter(([id, r]) => !tested.has(id) && !(r.family && families.has(r.family)))
    expect(untested.map(([id]) => id)).toEqual([])
  })

  it('covers every registered rule id that the issue lists', () => {
    const tested = new Set(cases.map((c) => c.id))
    for (const id of [
      'error-code-removed',
      'error-code-added',
      'error-code-status-changed',
      'error-code-deprecated',
      'error-code-attribute-changed',
      'jsonrpc-error-code-changed',
      'jsonrpc-error-code-removed',
      'error-code-legacy-error-changed',
      'eip712-domain-changed',
      'eip712-type-hash-changed',
      'api-removed-without-deprecation',
      'new-required-request-property',
      'request-property-became-required',
      'request-property-enum-value-removed',
      'response-required-property-removed',
      'response-property-became-optional',
      'response-property-enum-value-added',
      'request-property-type-changed',
      'response-property-type-changed',
      'request-property-pattern-added',
      'request-property-max-length-decreased',
      'request-property-min-increased',
      'response-success-status-removed',
      'response-non-success-status-removed',
      'required-response-header-removed',
      'rate-limit-tier-lowered',
      'assumed-became-stated',
      'stated-became-assumed',
      'api-version-not-bumped',
      'api-major-version-not-bumped',
      'eip712-domain-version-not-bumped',
    ]) {
      expect(DIFF_RULES[id], id).toBeDefined()
      expect(tested.has(id), id).toBe(true)
    }
  })
})
