// Text PostgreSQL can store exactly: no NUL characters (text and jsonb refuse them) and no
// unpaired UTF-16 surrogates (jsonb refuses them; text would silently get U+FFFD instead).
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000')
}
