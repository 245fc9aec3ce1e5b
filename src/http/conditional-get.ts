// Conditional reads of a household and its parts: they share the household's ETag (its version).
// A 304 gives back the request's rate-limit budget: revalidating a copy costs the caller nothing.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { etagOf, notModified } from './etag.ts'

export const IfNoneMatchHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'An ETag you hold: 304 when it is still current.' })),
})
export const NotModified = Type.Null({ description: 'Not modified: your copy is current.' })

/** Sets the ETag; answers 304 and returns true when the caller's copy is current. */
export async function answeredNotModified(request: FastifyRequest, reply: FastifyReply, version: number): Promise<boolean> {
  const etag = etagOf(version)
  reply.header('ETag', etag)
  if (!notModified(request.headers['if-none-match'], etag)) return false
  await request.refundRateLimit?.()
  await reply.status(304).send(null)
  return true
}
