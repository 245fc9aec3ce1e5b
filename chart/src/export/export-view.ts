// The view shown, as a file made in the browser (the Download PNG and Download SVG controls): the
// view's drawing as a standalone SVG document (standalone-svg.ts), or that document as a PNG
// (png.ts), named by file-name.ts. The Family and Structure views export their drawings whole
// (not the part scrolled into the frame; the Family view's genogram with its estate strip under it,
// stack-svg.ts); the Estate view, a table, is drawn as SVG for the moment (estate-svg.ts), and so
// is the Flow view's columns, for the projection it shows (flow-svg.ts). Nothing here makes a
// request: the file is a Blob for the page or its host to save.
import type { EstateProjection } from '../flow/projection-types.ts'
import type { ExportedFile } from '../views/host-handlers.ts'
import type { ViewHousehold, ViewName } from '../views/view-types.ts'
import { drawEstateSvg } from './estate-svg.ts'
import { exportFileName, type ExportFormat } from './file-name.ts'
import { drawFlowSvg } from './flow-svg.ts'
import { svgToPng } from './png.ts'
import { stackSvgDocuments } from './stack-svg.ts'
import { standaloneSvg } from './standalone-svg.ts'

/** The drawings each view shows in its panel, top to bottom; the Estate and Flow views have none (they are drawn for the export). */
const DRAWINGS: Record<Exclude<ViewName, 'estate' | 'flow'>, string> = {
  family: 'svg.hv-gn-svg, svg.hv-gn-strip',
  structure: 'svg.hv-st-svg',
}

const MEDIA_TYPE: Record<ExportFormat, string> = { png: 'image/png', svg: 'image/svg+xml' }

function svgDocumentOf(svg: SVGSVGElement, title: string): string {
  return standaloneSvg(svg, { title, width: svg.width.baseVal.value, height: svg.height.baseVal.value })
}

/** The view's drawing as a standalone SVG document; its panel must be shown (styles and boxes are read). */
function viewSvgDocument(
  view: ViewName,
  panel: HTMLElement,
  household: ViewHousehold,
  fontFamily: string,
  estate: EstateProjection | null,
): string {
  const title = household.household.name
  if (view === 'estate' || view === 'flow') {
    if (view === 'flow' && estate === null) throw new Error('export: the Flow view has no projection to export')
    const svg =
      view === 'estate'
        ? drawEstateSvg(panel, household, fontFamily)
        : drawFlowSvg(panel, household, estate!, fontFamily)
    try {
      return svgDocumentOf(svg, title)
    } finally {
      svg.remove()
    }
  }
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
  /** The Flow view's projection as shown (the reader's order and years); only the Flow view reads it. */
  estate: EstateProjection | null = null,
): Promise<ExportedFile> {
  const svg = viewSvgDocument(view, panel, household, fontFamily, estate)
  const data = format === 'svg' ? new Blob([svg], { type: MEDIA_TYPE.svg }) : await svgToPng(svg)
  return {
    fileName: exportFileName(household.household.name, view, new Date(), format),
    mediaType: MEDIA_TYPE[format],
    data,
  }
}
