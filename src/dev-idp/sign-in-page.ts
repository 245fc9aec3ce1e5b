// The development identity provider's sign-in page: one button per demo person, and a field for
// any other address (to try an uninvited person, or a user of another organization).
import { DEMO_PEOPLE, type DemoPerson } from '../domain/demo-people.ts'
import { escapeHtml } from '../http/html.ts'

const EMAIL_SUBJECT_PREFIX = 'email:'
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Who a subject of this provider is: a demo person, or "email:<address>" for anyone else. */
export function identityOf(subject: string): { email: string; name: string } | undefined {
  const person = DEMO_PEOPLE_BY_SUBJECT.get(subject)
  if (person) return person
  if (!subject.startsWith(EMAIL_SUBJECT_PREFIX)) return undefined
  const email = subject.slice(EMAIL_SUBJECT_PREFIX.length)
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) return undefined
  return { email, name: email.split('@')[0] ?? email }
}

const DEMO_PEOPLE_BY_SUBJECT = new Map(DEMO_PEOPLE.map((person) => [person.subject, person]))

export function signInPage(uid: string, people: readonly DemoPerson[]): string {
  const action = `/interaction/${encodeURIComponent(uid)}/login`
  const buttons = people
    .map(
      (
        person,
      ) => `<li><form method="post" action="${action}"><input type="hidden" name="subject" value="${escapeHtml(person.subject)}">
<button type="submit"><strong>${escapeHtml(person.name)}</strong> <span>${escapeHtml(person.email)} · ${person.role ?? 'not invited'}</span></button></form></li>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development sign-in</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2630}
h1{font-size:1.4rem}ul{list-style:none;padding:0}li{margin:.5rem 0}
button{width:100%;text-align:left;padding:.7rem 1rem;border:1px solid #9aa7b4;border-radius:.5rem;background:#fff;font:inherit;cursor:pointer}
button:hover{background:#eef3f8}button:focus-visible,input:focus-visible{outline:3px solid #1f6feb;outline-offset:2px}
span{display:block;color:#4a5663;font-size:.9rem}label{display:block;margin-top:1.5rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #9aa7b4;border-radius:.4rem;font:inherit;margin:.3rem 0}
.note{color:#4a5663;font-size:.9rem}
</style></head><body><main>
<h1>Development identity provider</h1>
<p class="note">For trying Hearth on this machine only: choose who you are. A real identity provider would ask for a password here.</p>
<ul>${buttons}</ul>
<form method="post" action="${action}"><label for="email">Or sign in as another address</label>
<input id="email" name="email" type="email" required autocomplete="email" placeholder="name@example.com">
<button type="submit">Continue</button></form>
</main></body></html>`
}
