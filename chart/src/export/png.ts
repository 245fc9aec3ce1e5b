// A standalone SVG document (standalone-svg.ts) as a PNG, made in the browser: the SVG is loaded
// into an Image from a data: URL and drawn on a canvas at a pixel ratio.
//
// Why a data: URL: the chart page's CSP allows images from 'self' and data: only, so a blob: URL
// would be refused. Nothing leaves the browser: a data: URL is decoded in place. An SVG image that
// has no foreignObject and no external references does not taint the canvas, so it can be read
// back; the check is that toBlob works, and a SecurityError is reported as such.

/** The ratio of PNG pixels to chart units when none is given: sharp on high-density screens and in print. */
const DEFAULT_PIXEL_RATIO = 2

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.onload = () => {
      resolve(image)
    }
    image.onerror = () => {
      reject(new Error('svgToPng: the browser could not load the SVG as an image (is it a valid SVG document?)'))
    }
    image.src = url
  })
}

function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    try {
      canvas.toBlob((blob) => {
        if (blob) resolve(blob)
        else
          reject(
            new Error(
              `svgToPng: the browser could not make a PNG of ${String(canvas.width)}×${String(canvas.height)} px ` +
                '(larger than its canvas limit? try a smaller pixel ratio)',
            ),
          )
      }, 'image/png')
    } catch (error) {
      reject(
        new Error('svgToPng: the canvas cannot be read back (tainted by the image); the PNG cannot be made', {
          cause: error,
        }),
      )
    }
  })
}

/**
 * `svgDocument` as a PNG of (its width × pixelRatio) by (its height × pixelRatio) pixels, rounded up.
 * The SVG must carry width and height; they are its size in CSS pixels.
 */
export async function svgToPng(svgDocument: string, pixelRatio = DEFAULT_PIXEL_RATIO): Promise<Blob> {
  if (!Number.isFinite(pixelRatio) || pixelRatio <= 0) {
    throw new RangeError(`svgToPng: the pixel ratio must be a positive number, got ${String(pixelRatio)}`)
  }
  const image = await loadImage('data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgDocument))
  const { naturalWidth: width, naturalHeight: height } = image
  if (!width || !height) throw new Error('svgToPng: the SVG has no size (it needs width and height attributes)')
  const canvas = document.createElement('canvas')
  canvas.width = Math.ceil(width * pixelRatio)
  canvas.height = Math.ceil(height * pixelRatio)
  const context = canvas.getContext('2d')
  if (!context) throw new Error('svgToPng: this browser gives no 2D canvas to draw the PNG on')
  context.drawImage(image, 0, 0, canvas.width, canvas.height)
  return canvasToPng(canvas)
}
