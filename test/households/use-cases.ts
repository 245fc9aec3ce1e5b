// What the rule tests share: a real store per kind, an organization, and a principal acting in it
// (an API key's, as the audit log records it), so that the use cases run as the API runs them.
import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import type { ApiKeyPrincipal } from '../../src/auth/principal.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { NO_OVERRIDES } from '../../src/rate-limit/org-limits.ts'
import { RuleViolation } from '../../src/households/rule-violation.ts'
import type { TestStore } from '../helpers/stores.ts'

export async function actingPrincipal(store: TestStore, orgName: string): Promise<ApiKeyPrincipal> {
  const org = await createOrg(store.db, orgName)
  return {
    kind: 'apiKey',
    id: randomUUID(),
    orgId: org.id,
    permissions: ['relationships:write'],
    rateLimits: NO_OVERRIDES,
  }
}

/** Expects the use case to refuse with this code and field (and, when given, a message containing `says`). */
export async function expectViolation(
  work: Promise<unknown>,
  code: RuleViolation['code'],
  field: string | undefined,
  says?: string,
): Promise<RuleViolation> {
  const error: unknown = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(RuleViolation)
  const violation = error as RuleViolation
  expect({ code: violation.code, field: violation.field }).toEqual({ code, field })
  if (says !== undefined) expect(violation.message).toContain(says)
  return violation
}
