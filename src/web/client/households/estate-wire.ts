// The estate's wire shapes as the web app reads and sends them (GET|POST /relationships/{id}/entities
// and …/links and their items), type-only, so that the bundle carries no schema module.
export type { CreateEntityBody, Entity, UpdateEntityBody } from '../../../schemas/entity.ts'
export type { CreateLinkBody, Link } from '../../../schemas/entity-link.ts'
