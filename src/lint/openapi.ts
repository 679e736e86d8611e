import SwaggerParser from '@apidevtools/swagger-parser'
import type { LintFinding } from './findings.ts'

interface AjvDetail {
  instancePath?: string
  message?: string
  params?: Record<string, unknown>
}

/** OpenAPI validity by swagger-parser (schema of the document plus $ref resolution). */
export async function validateOpenApi(doc: Record<string, unknown>): Promise<LintFinding[]> {
  try {
    await SwaggerParser.validate(structuredClone(doc) as never)
    return []
  } catch (err) {
    const details = (err as { details?: AjvDetail[] }).details
    if (Array.isArray(details) && details.length > 0) {
      return details.map((d) => {
        const param = Object.values(d.params ?? {}).map(String).join(', ')
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
