// Modules made by chart/build.ts at build time.
declare module 'virtual:payload-validator' {
  interface SchemaError {
    instancePath: string
    message?: string
  }
  /** The payload JSON Schema compiled by Ajv (standalone): true, or false with `errors` set. */
  export const validatePayloadSchema: ((data: unknown) => boolean) & { errors?: SchemaError[] | null }
}
