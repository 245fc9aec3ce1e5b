// autocannon `setupClient` of the `patch` case. It runs inside autocannon's worker thread, which
// require()s it by path — hence CommonJS and plain JavaScript.
//
// Each connection owns one household (the i-th connection the i-th of the seeded ids it is given),
// so no two connections ever write the same row, and sends every PATCH with the ETag of its own
// previous answer: a real read-modify-write cycle under If-Match that cannot 412. Only the first
// PATCH of a connection says `If-Match: *`: the warm-up run before it has already moved the
// version, and a run must not depend on what ran before it.
'use strict'

let next = 0

/** @param {{ opts: { initialContext?: { ids?: string[]; base?: string } }; setRequests(requests: unknown[]): void }} client */
module.exports = function setupClient(client) {
  const context = client.opts.initialContext || {}
  const ids = context.ids || []
  if (ids.length === 0) throw new Error('patch case: no household ids in initialContext')
  const id = ids[next++ % ids.length]
  let etag = '*'
  let n = 0
  client.setRequests([
    {
      method: 'PATCH',
      path: `${context.base || '/api/v1/relationships'}/${id}`,
      setupRequest(request) {
        n += 1
        // A different amount each time, so that every PATCH really changes the row.
        return {
          ...request,
          headers: { ...request.headers, 'if-match': etag },
          body: JSON.stringify({ dsueReceived: 1000 + (n % 100000) / 100 }),
        }
      },
      onResponse(status, body, requestContext, headers) {
        for (const name of Object.keys(headers)) {
          if (name.toLowerCase() === 'etag') etag = String(headers[name])
        }
      },
    },
  ])
}
