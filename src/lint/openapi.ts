import SwaggerParser from '@apidevtools/swagger-parser'
import type { LintFinding } from './findings.ts'

interface AjvDetail {
  instancePath?: string
  message?: string
  params?: Record<string, unknown>
}

/**
 * HTTP auth scheme names are case-insensitive (RFC 9110 11.1) and the OAI's current 3.1 schema
 * matches `bearer` by a case-insensitive pattern, but the older 3.1 schema swagger-parser bundles
 * says `const: bearer`: `scheme: Bearer` (as in the OAI's own tictactoe example) would be a
 * false finding.
 */
function lowerHttpSchemes(doc: Record<string, unknown>): void {
  const components = doc.components as { securitySchemes?: unknown } | undefined
  const schemes = components?.securitySchemes
  if (typeof schemes !== 'object' || schemes === null) return
  for (const s of Object.values(schemes as Record<string, unknown>)) {
    const scheme = s as { type?: unknown; scheme?: unknown } | null
    if (scheme?.type === 'http' && typeof scheme.scheme === 'string') scheme.scheme = scheme.scheme.toLowerCase()
  }
}

/** OpenAPI validity by swagger-parser (schema of the document plus $ref resolution). */
export async function validateOpenApi(doc: Record<string, unknown>): Promise<LintFinding[]> {
  const copy = structuredClone(doc)
  lowerHttpSchemes(copy)
  try {
    await SwaggerParser.validate(copy as never)
    return []
  } catch (err) {
    const details = (err as { details?: AjvDetail[] }).details
    if (Array.isArray(details) && details.length > 0) {
      return details.map((d) => {
        const param = Object.values(d.params ?? {})
          .map(String)
          .join(', ')
        const where = d.instancePath || '/'
        return {
          rule: 'openapi-valid',
          severity: 'error' as const,
          pointer: d.instancePath ?? '',
          message: `${where} ${d.message ?? 'is invalid'}${param ? ` (${param})` : ''}`,
        }
      })
    }
    const message = String((err as Error).message ?? err).split('\n')[0] ?? 'invalid OpenAPI document'
    return [{ rule: 'openapi-valid', severity: 'error', pointer: '', message }]
  }
}
