// Where an API refusal belongs in a form. The API names the part of the request it is about as a
// JSON Pointer (`field`: "/members/0/email"), and inputs are named by that same path written with
// dots ("members.0.email"), so the pointer alone finds the input, whatever the sentence says.

/** The keys of a JSON Pointer (RFC 6901), unescaped: "/a~1b/0" → ["a/b", "0"]. */
function keysOf(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'))
}

/**
 * The input among `inputs` that `field` is about: the one its path names, else the nearest one
 * that holds it ("metadata.a.b" is about metadata, "relationships.1.memberId" about the
 * relationships group). `prefix` places the pointer of a part's own request in the whole form
 * ("members.0." for one person's POST). None for no field or "" (the body as a whole).
 */
export function inputOfField(field: string | undefined, inputs: readonly string[], prefix = ''): string | undefined {
  if (!field) return undefined
  const path = prefix + keysOf(field).join('.')
  return inputs.filter((input) => path === input || path.startsWith(`${input}.`)).sort((a, b) => b.length - a.length)[0]
}

/**
 * The API's sentence, to show next to the input labelled `label`: the API starts a sentence about
 * a field with that field's path ("email must …", "relationships.1.type must …"); those words
 * become the label ("Email of person 2 must …"). Any other sentence is shown as it is.
 */
export function sentenceFor(message: string, field: string | undefined, label: string | undefined): string {
  if (!field || !label) return message
  const path = keysOf(field).join('.')
  return message.startsWith(`${path} `) ? `${label} ${message.slice(path.length + 1)}` : message
}
