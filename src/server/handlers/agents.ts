/**
 * Agent approval and revocation: the owner is the recovered signer (an agent that signs
 * ApproveAgent approves a sub-agent for itself, never for its owner). GET /authorized-agents.
 */
import { readUint64 } from '../../signing/index.ts'
import { authenticate } from '../auth.ts'
import { json } from '../reply.ts'
import { kindOf } from './order.ts'
import { checkQuery } from './read.ts'
import type { HandlerFactory } from './types.ts'

function agentChange(change: 'approve' | 'revoke'): HandlerFactory {
  return (ctx, op) => {
    const validator = ctx.validators.body(op.operationId)!
    const kind = kindOf(ctx.spec, op.requestSchema)
    const category = op.rateLimit?.category ?? 'api'
    return (req) => {
      const body = req.body!
      const problem = validator.check(body.value)
      if (problem) return ctx.catalog.reply('invalid_field', problem.message)
      const n = readUint64(body, '/nonce')
      if (!n.ok) return ctx.catalog.reply('invalid_field', `invalid field "nonce": ${n.message.replace(/^nonce /, '')}`)
      const nonce = n.value
      const auth = authenticate(ctx, kind, body, null)
      if (!auth.ok) return auth.reply
      const owner = auth.owner
      req.state.wallet = owner
      const v = body.value as { agent: string }
      const limited = ctx.charge(owner, { api: 1 }, category)
      if (limited) return limited
      const headers = () => ctx.rateHeaders(owner, category)
      // Approving yourself is a mistake worth naming; revoking yourself is just "not approved".
      if (change === 'approve' && v.agent.toLowerCase() === owner.toLowerCase()) {
        return ctx.catalog.reply('invalid_field', `invalid field "agent": a wallet cannot ${change} itself as its own agent`, {}, headers())
      }
      const { nonces, agents, clock } = ctx.deps
      if (nonces.has(owner, nonce))
        return ctx.catalog.reply('nonce_reused', `nonce ${nonce} was already used by this wallet`, {}, headers())
      if (change === 'approve') {
        agents.approve(owner, v.agent, clock.now())
      } else if (!agents.revoke(owner, v.agent)) {
        return ctx.catalog.reply('not_found', `agent ${v.agent} is not approved for wallet ${owner}`, {}, headers())
      }
      nonces.consume(owner, nonce)
      return json(200, { wallet: owner, agent: v.agent, status: change === 'approve' ? 'approved' : 'revoked' }, headers())
    }
  }
}

export const approveAgent = agentChange('approve')
export const revokeAgent = agentChange('revoke')

export const listAuthorizedAgents: HandlerFactory = (ctx, op) => {
  const params = ctx.validators.query(op.operationId)
  return (req) => {
    const q = checkQuery(ctx, params, req.query)
    if (!q.ok) return q.reply
    const wallet = q.values.wallet!
    const agents = ctx.deps.agents.list(wallet).map((a) => ({ agent: a.agent, approved_at: new Date(a.approvedAtMs).toISOString() }))
    return json(200, { wallet, agents })
  }
}
