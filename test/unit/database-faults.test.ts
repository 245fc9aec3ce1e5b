// Which errors are the database's fault, and of which kind: the shapes pg and PostgreSQL give them
// (as seen in test/chaos/: terminated, restarted, behind a restarted PgBouncer, blocked).
import { describe, expect, it } from 'vitest'
import { databaseFault } from '../../src/store/database-faults.ts'

describe('databaseFault', () => {
  it.each([
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, 'connection'],
    [{ code: '57P03', message: 'the database system is starting up' }, 'connection'],
    [{ code: '08P01', message: 'server conn crashed?' }, 'connection'],
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, 'connection'],
    [{ message: 'Connection terminated unexpectedly' }, 'connection'],
    [{ message: 'Client has encountered a connection error and is not queryable' }, 'connection'],
    [{ code: '57014', message: 'canceling statement due to statement timeout' }, 'timeout'],
    [{ message: 'timeout exceeded when trying to connect' }, 'timeout'],
    [{ message: 'Query read timeout' }, 'timeout'],
    [{ message: 'Connection terminated due to connection timeout' }, 'timeout'],
  ] as const)('%o is a %s fault', (error, kind) => {
    expect(databaseFault(error)).toBe(kind)
  })

  it.each([
    { code: '23505', message: 'duplicate key value violates unique constraint' },
    { code: '22P02', message: 'invalid input syntax for type uuid' },
    { message: 'rules.map is not a function' },
  ])('%o is not the database being unavailable', (error) => {
    expect(databaseFault(error)).toBeUndefined()
  })
})
