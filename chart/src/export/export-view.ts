// The view shown, as a file made in the browser (the Download PNG and Download SVG controls): the
// view's drawing as a standalone SVG document (standalone-svg.ts), or that document as a PNG
// (png.ts), named by file-name.ts. The Family and Structure views export their drawings whole
// (not the part scrolled into the frame; the Family view's genogram with its estate strip under it,
// stack-svg.ts); the Estate view, a table, is drawn as SVG for the moment (estate-svg.ts). Nothing here makes a request: the file is a Blob for the page or its host to save.
import type { ExportedFile } from '../views/host-handlers.ts'
import type { ViewHousehold, ViewName } from '../views/view-types.ts'
import { drawEstateSvg } from './estate-svg.ts'
import { exportFileName, type ExportFormat } from './file-name.ts'
import { svgToPng } from './png.ts'
import { stackSvgDocuments } from './stack-svg.ts'
import { standaloneSvg } from './standalone-svg.ts'

/** The drawings each view shows in its panel, top to bottom; the Estate view has none (it is drawn for the export). */
const DRAWINGS: Record<Exclude<ViewName, 'estate' | 'flow'>, string> = {
  family: 'svg.hv-gn-svg, svg.hv-gn-strip',
  structure: 'svg.hv-st-svg',
}

const MEDIA_TYPE: Record<ExportFormat, string> = { png: 'image/png', svg: 'image/svg+xml' }

function svgDocumentOf(svg: SVGSVGElement, title: string): string {
  return standaloneSvg(svg, { title, width: svg.width.baseVal.value, height: svg.height.baseVal.value })
}

/** The view's drawing as a standalone SVG document; its panel must be shown (styles and boxes are read). */
function viewSvgDocument(view: ViewName, panel: HTMLElement, household: ViewHousehold, fontFamily: string): string {
  const title = household.household.name
  if (view === 'estate') {
    const svg = drawEstateSvg(panel, household, fontFamily)
    try {
      return svgDocumentOf(svg, title)
    } finally {
      svg.remove()
    }
  }
  if (view === 'flow') throw new Error('export: the Flow view cannot be exported yet')
  const documents = [...panel.querySelectorAll<SVGSVGElement>(DRAWINGS[view])].map((svg) => svgDocumentOf(svg, title))
  if (documents.length === 0) throw new Error(`export: the ${view} view has no drawing to export`)
  return documents.length === 1 ? documents[0]! : stackSvgDocuments(documents, title)
}

export async function exportView(
  view: ViewName,
  format: ExportFormat,
  panel: HTMLElement,
  household: ViewHousehold,
  fontFamily: string,
): Promise<ExportedFile> {
  const svg = viewSvgDocument(view, panel, household, fontFamily)
  const data = format === 'svg' ? new Blob([svg], { type: MEDIA_TYPE.svg }) : await svgToPng(svg)
  return {
    fileName: exportFileName(household.household.name, view, new Date(), format),
    mediaType: MEDIA_TYPE[format],
    data,
  }
}
