// Placeholder until the SDK lands.
declare const __CHART_VERSION__: string
export const SDK_CHART_VERSION: string = __CHART_VERSION__
