// What the global setup (test/global-setup.ts) provides to the test files, typed for both: declared in
// a module of its own so that every project that type-checks a test helper sees it (test/browser too).
declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database that test databases copy ('' without DATABASE_URL). */
    postgresTemplate: string
  }
}

export {}
