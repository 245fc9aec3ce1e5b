// The payload check of a render: the published JSON Schema (compiled at build time, first problem
// only), then the rules the schema cannot say. Either failure is payload_invalid with the JSON
// Pointer of the first problem.
import { validatePayloadSchema } from 'virtual:payload-validator'
import type { Payload } from '../payload.ts'
import { checkPayloadRules, type PayloadProblem } from './payload-rules.ts'

export type PayloadCheck = { ok: true; payload: Payload } | ({ ok: false } & PayloadProblem)

export function validatePayload(data: unknown): PayloadCheck {
  if (!validatePayloadSchema(data)) {
    const first = validatePayloadSchema.errors?.[0]
    const path = first?.instancePath ?? ''
    // The root's pointer is the empty string; the message still says where.
    return {
      ok: false,
      path,
      message: `${path === '' ? 'payload' : path}: ${first?.message ?? 'does not match the payload schema'}`,
    }
  }
  // The schema just checked this shape.
  const payload = data as Payload
  const problem = checkPayloadRules(payload)
  return problem ? { ok: false, ...problem } : { ok: true, payload }
}
