// Every household route, as one Fastify plugin. app.ts registers it twice: as is, under
// /api/v1/relationships, and with { legacy: true } under the deprecated /api/v1/households, whose
// responses carry the deprecation headers and whose calls are counted apart.
import type { FastifyPluginAsync, RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { householdSurface } from './household-surface.ts'
import { registerHouseholdCollectionRoutes } from './households.ts'
import { registerHouseholdRecordRoutes } from './household-record.ts'
import { registerHouseholdMemberRoutes } from './household-members.ts'
import { registerHouseholdAssignmentRoutes } from './household-assignments.ts'
import { registerHouseholdChartRoutes } from './household-chart.ts'
import { registerHouseholdEntityRoutes } from './household-entities.ts'
import { registerHouseholdLinkRoutes } from './household-links.ts'
import { registerHouseholdByExternalIdRoute } from './household-by-external-id.ts'

export interface HouseholdRoutesOptions {
  db: Kysely<Database>
  /** Serve on the deprecated /api/v1/households prefix instead of /api/v1/relationships. */
  legacy?: boolean
}

export const householdRoutes: FastifyPluginAsync<
  HouseholdRoutesOptions,
  RawServerDefault,
  TypeBoxTypeProvider
> = async (app, { db, legacy = false }) => {
  const surface = householdSurface(legacy)
  registerHouseholdCollectionRoutes(app, db, surface)
  registerHouseholdRecordRoutes(app, db, surface)
  registerHouseholdMemberRoutes(app, db, surface)
  registerHouseholdAssignmentRoutes(app, db, surface)
  registerHouseholdChartRoutes(app, db, surface)
  registerHouseholdEntityRoutes(app, db, surface)
  registerHouseholdLinkRoutes(app, db, surface)
  registerHouseholdByExternalIdRoute(app, db, surface)
}
