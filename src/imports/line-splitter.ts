// Splits an upload into its lines as the bytes arrive, never holding more than one line: a line
// longer than the limit is dropped as it streams (only the fact that it was too long is kept), so
// a huge line costs no memory. Lines are numbered from 1 as a text editor numbers them; a final
// line without a newline counts, "\r\n" is a newline too.

export interface SplitLine {
  /** Its number in the upload, from 1. */
  line: number
  /** Its bytes without the newline; null when it was longer than the limit. */
  bytes: Buffer | null
}

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

export class LineSplitter {
  private parts: Buffer[] = []
  private size = 0
  private tooLong = false
  private next = 1

  constructor(private readonly maxLineBytes: number) {}

  /** The lines this chunk completes. */
  *push(chunk: Buffer): Generator<SplitLine> {
    let start = 0
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start)
      if (end < 0) {
        this.keep(chunk.subarray(start))
        return
      }
      this.keep(chunk.subarray(start, end))
      yield this.take()
      start = end + 1
    }
  }

  /** The last line, when the upload does not end with a newline. */
  *end(): Generator<SplitLine> {
    if (this.size > 0 || this.tooLong) yield this.take()
  }

  private keep(piece: Buffer): void {
    if (this.tooLong || piece.length === 0) return
    if (this.size + piece.length > this.maxLineBytes + 1) {
      this.tooLong = true
      this.parts = []
      this.size = 0
      return
    }
    this.parts.push(piece)
    this.size += piece.length
  }

  private take(): SplitLine {
    const line = this.next++
    let bytes: Buffer | null = null
    if (!this.tooLong) {
      bytes = Buffer.concat(this.parts, this.size)
      if (bytes.at(-1) === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1)
      if (bytes.length > this.maxLineBytes) bytes = null
    }
    this.parts = []
    this.size = 0
    this.tooLong = false
    return { line, bytes }
  }
}
