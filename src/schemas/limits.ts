// GET and PATCH /api/v1/limits: the organization's rate-limit budgets.
import { Type, type Static } from 'typebox'

const Budget = Type.Object(
  {
    limit: Type.Integer({ description: 'Units per window in force.' }),
    ceiling: Type.Integer({
      description:
        "What the operator allows: the instance default or the operator's override for this organization. Admins can lower the budget below it, never raise it.",
    }),
    operatorOverride: Type.Union([Type.Integer(), Type.Null()], {
      description: "The operator's override (hearth orgs limits), or null for the instance default.",
    }),
    adminLowered: Type.Union([Type.Integer(), Type.Null()], {
      description: 'What an admin of this organization lowered it to, or null.',
    }),
  },
  { additionalProperties: false },
)

export const Limits = Type.Object(
  {
    windowSeconds: Type.Integer({ description: 'The sliding window the budgets are counted over.' }),
    organization: Type.Intersect([Budget], {
      description: 'Shared by all the organization\'s keys and users (policy "org" in RateLimit-Policy).',
    }),
    perCredential: Type.Intersect([Budget], {
      description:
        'Each API key\'s own budget (policy "default"). Signed-in users have the instance\'s per-user budget, whatever this says, so an admin cannot lock themselves out.',
    }),
    costs: Type.Array(Type.Object({ request: Type.String(), units: Type.Number() }, { additionalProperties: false }), {
      description: 'What requests cost in units; anything not listed costs 1.',
    }),
  },
  { additionalProperties: false, title: 'Limits' },
)
export type Limits = Static<typeof Limits>

const Lowered = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])

export const LimitsChange = Type.Object(
  {
    requests: Type.Optional(
      Type.Intersect([Lowered], {
        description: "Lower the organization's budget to this (at most its ceiling); null removes the lowering.",
      }),
    ),
    keyRequests: Type.Optional(
      Type.Intersect([Lowered], {
        description: "Lower each API key's budget to this (at most its ceiling); null removes the lowering.",
      }),
    ),
  },
  { additionalProperties: false, title: 'LimitsChange' },
)
export type LimitsChange = Static<typeof LimitsChange>
