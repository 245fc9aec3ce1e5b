// Saving an export as a file, in the browser: an `<a download>` pointing at an object URL of the
// file's Blob, clicked, and the URL revoked once the click has started the download. Nothing is
// sent anywhere; the file goes from the page's memory to the reader's disk.
//
// What allows it: the chart page's CSP (default-src 'none' …) does not govern navigations or
// downloads, and a blob: URL made by the page itself needs no img-src or connect-src.
// What does not, today: the SDK (sdk/household-chart.ts) frames the chart with
// sandbox="allow-scripts allow-same-origin", without allow-downloads, and a sandboxed frame without
// it may not start a download (Chromium drops it with a console message; the HTML standard's
// "sandboxed downloads browsing context flag"). So inside the SDK's iframe this function saves
// nothing until the release that wires export to the toolbar adds allow-downloads to that sandbox
// attribute. It therefore also returns the Blob it was asked to save, which the chart can hand to
// the host page instead (a Blob can be posted to the parent window), whose own download works.

/** How long the object URL outlives the click: the download has resolved it by then. */
const REVOKE_AFTER_MS = 1_000

/**
 * Offers `content` as a file named `fileName`. A string is saved as `type`; a Blob keeps its own
 * type. Returns the Blob saved, for when the frame may not download (see above).
 */
export function saveFile(content: Blob | string, fileName: string, type = 'text/plain;charset=utf-8'): Blob {
  const blob = typeof content === 'string' ? new Blob([content], { type }) : content
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  link.click()
  // The URL is resolved when the click follows the link; revoking it in the same task has lost
  // downloads in some browsers, so it is revoked a little later.
  setTimeout(() => {
    URL.revokeObjectURL(url)
  }, REVOKE_AFTER_MS)
  return blob
}
