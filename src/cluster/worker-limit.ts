// How many API workers `hearth serve --workers` allows, apart from config.ts (which loads typebox)
// so that the CLI's help can state it. Each worker opens its own PostgreSQL pool
// (HEARTH_DB_POOL_MAX), so the count stays modest.
export const MAX_WORKERS = 64
