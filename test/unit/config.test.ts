import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.ts'

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({ host: '127.0.0.1', port: 3000, embedPort: 3001, demo: true, rateLimitMax: 600, rateLimitWindowSeconds: 60 })
    expect(config.dataDir.endsWith('/data')).toBe(true)
  })

  it('turns the demo off in production and with HEARTH_DEMO=0', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).demo).toBe(false)
    expect(loadConfig({ NODE_ENV: 'production', HEARTH_DEMO: '1' }).demo).toBe(false)
    expect(loadConfig({ HEARTH_DEMO: '0' }).demo).toBe(false)
  })

  it('names the variable in every error', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT=abc/)
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT=70000/)
    expect(() => loadConfig({ HEARTH_RATE_LIMIT_MAX: '0' })).toThrow(/HEARTH_RATE_LIMIT_MAX/)
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/)
    expect(() => loadConfig({ HEARTH_DEMO: 'maybe' })).toThrow(/HEARTH_DEMO/)
    expect(() => loadConfig({ HEARTH_HOUSEHOLDS_SUNSET: '2027-13-45' })).toThrow(/HEARTH_HOUSEHOLDS_SUNSET/)
  })
})
