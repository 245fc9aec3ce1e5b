// The web app: finds out who is signed in, then draws the page the URL names. Signed out, it
// offers sign-in and comes back to the same URL afterwards.
import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api, ApiProblem, whenSignedOut } from './api.ts'
import { problemText } from './format.ts'
import { interceptLinks, useLocation } from './router.ts'
import { MeContext, type Me } from './session.ts'
import { Layout } from './layout.tsx'
import { routePage } from './routes.tsx'
import { SignInPage } from './pages/sign-in.tsx'
import './app.css'

type SessionState =
  { kind: 'loading' } | { kind: 'signedIn'; me: Me } | { kind: 'signedOut' } | { kind: 'failed'; message: string }

function App() {
  const [session, setSession] = useState<SessionState>({ kind: 'loading' })
  const location = useLocation()

  useEffect(() => {
    whenSignedOut(() => setSession({ kind: 'signedOut' }))
    api<Me>('/api/v1/me').then(
      ({ body }) => setSession({ kind: 'signedIn', me: body }),
      (error: unknown) => {
        if (error instanceof ApiProblem && error.status === 401) setSession({ kind: 'signedOut' })
        else setSession({ kind: 'failed', message: problemText(error) })
      },
    )
  }, [])

  if (session.kind === 'loading')
    return (
      <p class="loading" role="status">
        Loading Hearth…
      </p>
    )
  if (session.kind === 'failed') {
    return (
      <main class="message-page">
        <h1>Hearth could not start</h1>
        <p role="alert">{session.message}</p>
        <p>
          <a class="button" href={location.path} data-reload>
            Try again
          </a>
        </p>
      </main>
    )
  }
  if (session.kind === 'signedOut') return <SignInPage location={location} />
  return (
    <MeContext.Provider value={session.me}>
      <Layout location={location}>{routePage(location, session.me)}</Layout>
    </MeContext.Provider>
  )
}

const root = document.getElementById('app')
if (root) {
  interceptLinks(root)
  root.textContent = ''
  render(<App />, root)
}
