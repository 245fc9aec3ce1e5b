// The print layout as a document of its own (host-handlers.ts's PrintDocument), for a host page
// that prints for the chart: the embed iframe may not open a print dialog (its sandbox has no
// allow-modals), so the host prints this instead. The markup is the print block print-layout.ts
// built, inside the shell's classes (`.hc.hv`, light theme) that the print rules select it by; it
// carries no script (the block is made of copies of drawings and tables, text through textContent).
// The CSS is the chart's own stylesheets' rules read through the CSSOM: they are served by the
// chart's origin, so the page can read them, and a stylesheet it cannot read (another origin's,
// which the chart's CSP would not load anyway) is left out rather than failing the print.
import type { PrintDocument } from './host-handlers.ts'

/** The rules of every stylesheet of the page that the page may read, in document order. */
function readableStylesheetRules(): string {
  const rules: string[] = []
  for (const sheet of document.styleSheets) {
    let sheetRules: CSSRuleList
    try {
      sheetRules = sheet.cssRules
    } catch {
      // A cross-origin sheet: its rules are not the chart's to hand on.
      continue
    }
    for (const rule of sheetRules) rules.push(rule.cssText)
  }
  return rules.join('\n')
}

/** `block` (the print layout, built for this call) as the host prints it, titled `title`. */
export function printDocumentOf(block: HTMLElement, title: string): PrintDocument {
  const shell = document.createElement('div')
  shell.className = 'hc hv'
  // Paper is light whatever the screen's theme: print.css's palette is the light one.
  shell.dataset.theme = 'light'
  shell.append(block.cloneNode(true))
  return { title, html: shell.outerHTML, css: readableStylesheetRules() }
}
