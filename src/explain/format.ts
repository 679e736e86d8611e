/** An explanation in words (the default output of `oec explain`) and as the JSON document. */
import type { Explanation } from './model.ts'

export function explanationText(e: Explanation): string {
  const lines: string[] = []
  if (e.verified) lines.push(`verified: ${e.operationId} signed by ${e.signer}`)
  else {
    const n = e.causes.filter((c) => c.id !== 'unknown').length
    lines.push(
      `not verified: ${e.operationId}${n > 0 ? `, ${n} cause${n === 1 ? '' : 's'}` : ''}${e.signer && n > 0 ? ` (the signature is ${e.signer}'s once they are fixed)` : ''}`,
    )
    for (const c of e.causes) lines.push(`  ${c.id}${c.item !== undefined ? ` [item ${c.item}]` : ''}: ${c.text}`)
  }
  for (const note of e.notes) lines.push(`  note: ${note}`)
  return `${lines.join('\n')}\n`
}

/** The stable JSON shape: `{verified, signer?, causes: [{id, signed, sent, ...}], ...}` (JSON.stringify leaves an undefined one out). */
export function explanationJson(e: Explanation): string {
  return `${JSON.stringify({ verified: e.verified, signer: e.signer, recoveredAsSent: e.recoveredAsSent, operationId: e.operationId, causes: e.causes, notes: e.notes, tried: e.tried, ms: Math.round(e.ms) })}\n`
}
