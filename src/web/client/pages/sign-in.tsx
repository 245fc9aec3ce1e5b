// Signed out: one way in, through the organization's identity provider, back to this same page.
import type { Location } from '../router.ts'

export function SignInPage({ location }: { location: Location }) {
  const here = location.path + (location.query.size ? `?${location.query.toString()}` : '')
  const signedOut = location.path === '/signed-out'
  const returnTo = signedOut ? '/households' : here
  return (
    <main class="message-page" id="main">
      <p class="brand">Hearth</p>
      <h1>{signedOut ? 'You are signed out' : 'Sign in to Hearth'}</h1>
      <p>Households, their members and charts, for your organization's advisors.</p>
      <p>
        <a class="button primary" href={`/auth/sign-in?returnTo=${encodeURIComponent(returnTo)}`} data-reload>
          Sign in
        </a>
      </p>
      <p class="hint">You sign in with your organization's identity provider. Hearth never sees your password.</p>
    </main>
  )
}
