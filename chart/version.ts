// The chart release that this source builds. Released builds in dist/chart/v<version>/ are immutable:
// change the chart and this number together (test/chart/release.test.ts holds the two in step).
export const CHART_VERSION = '0.3.1'

// The render message's protocol version (spec §6); a chart refuses any other.
export const PROTOCOL_VERSION = 1
