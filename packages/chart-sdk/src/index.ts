// @hearth/chart-sdk: the partner SDK, sdk/household-chart.ts, as the chart release builds it
// (scripts/build.ts ships the release's sdk.js and sdk.d.ts as dist/index.js and dist/index.d.ts).
// This file is the package's entry as the repository type-checks it: react.tsx imports it.
export * from '../../../sdk/household-chart.ts'
