// The bounds of the webhook administration, shared by the API's schemas, its routes and the CLI.

/** Endpoints per organization: enough for a few systems and their staging copies. */
export const MAX_ENDPOINTS = 20
export const DESCRIPTION_MAX = 200
export const DEFAULT_OVERLAP_SECONDS = 86_400
export const MAX_OVERLAP_SECONDS = 7 * 86_400
export const DELIVERY_PAGE = { default: 50, max: 200 } as const
/** The type of the message POST …/test sends (never a real event's). */
export const TEST_EVENT_TYPE = 'webhook.test'
