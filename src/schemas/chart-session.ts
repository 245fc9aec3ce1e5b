import { Type, type Static } from 'typebox'

export const ChartSessionBody = Type.Object(
  {
    frameOrigin: Type.String({
      maxLength: 300,
      description:
        'Origin of the page that will frame the chart, e.g. https://app.example.com: scheme, host and port only; http only for localhost. Must be registered for the organization (hearth origins add).',
    }),
  },
  { title: 'ChartSessionRequest', additionalProperties: false },
)
export type ChartSessionBody = Static<typeof ChartSessionBody>

export const ChartSession = Type.Object(
  {
    token: Type.String({
      description: 'ES256 JWT for the render message; verify against the JWKS at {embed origin}/.well-known/jwks.json.',
    }),
    expiresAt: Type.String({ format: 'date-time', description: '10 minutes after minting.' }),
    embedUrl: Type.String({ description: 'The pinned chart page to load in the iframe.' }),
  },
  { title: 'ChartSession', additionalProperties: false },
)
export type ChartSession = Static<typeof ChartSession>
