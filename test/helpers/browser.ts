// Real Chromium (Debian's package, driven by playwright-core) for what a browser does.
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { requirePart } from './environment.ts'

const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium'

/** Whether browser tests run here; under HEARTH_REQUIRE_ALL=1 a missing browser fails the run. */
export function hasChromium(): boolean {
  return requirePart(
    'Chromium',
    existsSync(CHROME_PATH),
    `install Debian's chromium (apt-get install chromium) or set CHROME_PATH`,
  )
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROME_PATH,
    // The flags that keep Chromium off a closed network and quick to start (DESIGN §2).
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
