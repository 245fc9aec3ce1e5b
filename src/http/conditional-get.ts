// Conditional reads of a household and its parts: they share the household's ETag (its version).
// A 304 gives back most of the request's rate-limit charge: revalidating a copy costs a tenth of a
// unit (NOT_MODIFIED_COST), never nothing, because it still read the household's version.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { etagOf, notModified } from './etag.ts'
import { NOT_MODIFIED_COST } from '../rate-limit/costs.ts'

export const IfNoneMatchHeaders = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({
      description:
        'An ETag you hold: 304 when it is still current (a 304 costs 0.1 unit of rate-limit budget). `*` is not a match here: it answers 200, at full cost.',
    }),
  ),
})
export const NotModified = Type.Null({ description: 'Not modified: your copy is current.' })

/** Sets the ETag; answers 304 and returns true when the caller's copy is current. */
export async function answeredNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  version: number,
): Promise<boolean> {
  const etag = etagOf(version)
  reply.header('ETag', etag)
  if (!notModified(request.headers['if-none-match'], etag)) return false
  await request.refundRateLimit?.(NOT_MODIFIED_COST)
  await reply.status(304).send(null)
  return true
}
