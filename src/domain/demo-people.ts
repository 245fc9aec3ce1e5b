// The people of the demo organization who sign in to the web app, one per role, and one person
// nobody invited. The development identity provider offers them on its sign-in page; the demo
// organization gives the first three their roles. Jordan Avery is also an advisor of the sample
// households (sample-households.ts).
import type { UserRole } from './user-roles.ts'

export interface DemoPerson {
  /** The subject the development identity provider gives this person. */
  subject: string
  email: string
  name: string
  /** Their role in the demo organization, or null when they were never invited. */
  role: UserRole | null
}

export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { subject: 'demo-admin', email: 'dana.brooks@example.com', name: 'Dana Brooks', role: 'admin' },
  { subject: 'demo-advisor', email: 'jordan.avery@example.com', name: 'Jordan Avery', role: 'advisor' },
  { subject: 'demo-viewer', email: 'morgan.lee@example.com', name: 'Morgan Lee', role: 'viewer' },
  { subject: 'demo-uninvited', email: 'riley.stone@example.com', name: 'Riley Stone', role: null },
]
