// Collapsing branches of the family for chart 0.2.0: a wide household is drawn with some branches
// folded ("+14 descendants") instead of being shrunk until its names cannot be read. Pure: which
// people are shown for a set of folded people, how many each fold hides, which people to fold so
// that a household fits a budget of boxes, and which folds to open so that a person found by name
// is shown.
//
// Folding a person hides their descendants (through parent kinships, any depth) and everyone who
// hangs on the family only through hidden people (a hidden grandchild's spouse). Who "hangs on"
// is decided by reachability: the shown people are those still connected to the clients (or, in a
// household without clients, to any person not hidden) through partner and parent kinships once
// the descendants are taken out.

/** The kinships collapse needs: 0.1.x relationships and 0.2.0 kinships alike. */
export interface FamilyInput {
  people: readonly { id: string; name: string; role: string }[]
  relationships?: readonly { from: string; to: string; type: string }[]
}

const PARTNER_TYPES: ReadonlySet<string> = new Set(['spouse', 'partner', 'exSpouse'])
const CLIENT_ROLES: ReadonlySet<string> = new Set(['primaryClient', 'coClient'])

interface FamilyGraph {
  ids: readonly string[]
  children: ReadonlyMap<string, readonly string[]>
  parents: ReadonlyMap<string, readonly string[]>
  /** Partner and parent kinships, both ways. */
  neighbours: ReadonlyMap<string, readonly string[]>
  /** Spouses, partners and former spouses, both ways. */
  partners: ReadonlyMap<string, readonly string[]>
  clients: readonly string[]
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

function graphOf(family: FamilyInput): FamilyGraph {
  const known = new Set(family.people.map((person) => person.id))
  const children = new Map<string, string[]>()
  const parents = new Map<string, string[]>()
  const neighbours = new Map<string, string[]>()
  const partners = new Map<string, string[]>()
  for (const { from, to, type } of family.relationships ?? []) {
    if (!known.has(from) || !known.has(to) || from === to) continue
    if (type === 'parent') {
      push(children, from, to)
      push(parents, to, from)
    } else if (PARTNER_TYPES.has(type)) {
      push(partners, from, to)
      push(partners, to, from)
    } else continue
    push(neighbours, from, to)
    push(neighbours, to, from)
  }
  return {
    ids: family.people.map((person) => person.id),
    children,
    parents,
    neighbours,
    partners,
    clients: family.people.filter((person) => CLIENT_ROLES.has(person.role)).map((person) => person.id),
  }
}

/** Everyone below `id` through parent kinships, any depth (not `id` itself; cycle-safe). */
function descendantsOf(graph: FamilyGraph, id: string): Set<string> {
  const found = new Set<string>()
  const stack = [...(graph.children.get(id) ?? [])]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next === id || found.has(next)) continue
    found.add(next)
    stack.push(...(graph.children.get(next) ?? []))
  }
  return found
}

/** The people reachable from `starts` through kinships, never entering `removed`. */
function reachable(graph: FamilyGraph, starts: Iterable<string>, removed: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>()
  const stack = [...starts].filter((id) => !removed.has(id))
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (seen.has(next)) continue
    seen.add(next)
    for (const other of graph.neighbours.get(next) ?? []) if (!removed.has(other) && !seen.has(other)) stack.push(other)
  }
  return seen
}

export interface FoldedFamily {
  /** The people drawn. */
  shown: ReadonlySet<string>
  /** For each folded person who is shown, how many people their fold hides ("+14 descendants"). */
  hiddenBy: ReadonlyMap<string, number>
}

/** Who is shown when `folded` people have their branches folded. */
export function foldFamily(family: FamilyInput, folded: ReadonlySet<string>): FoldedFamily {
  const graph = graphOf(family)
  return foldGraph(graph, folded)
}

function foldGraph(graph: FamilyGraph, folded: ReadonlySet<string>): FoldedFamily {
  const below = new Map<string, Set<string>>()
  const descendants = new Set<string>()
  for (const id of folded) {
    const hidden = descendantsOf(graph, id)
    below.set(id, hidden)
    for (const person of hidden) descendants.add(person)
  }
  // The clients are never hidden by a fold (a cycle in a partner's payload could put them below someone).
  for (const client of graph.clients) descendants.delete(client)
  const anchors = graph.clients.length > 0 ? graph.clients : graph.ids.filter((id) => !descendants.has(id))
  const connected = reachable(graph, anchors, descendants)
  // A group of people not connected to the clients at all (a second family in one payload) is shown
  // as it is, unless a fold hides them.
  const everConnected = reachable(graph, anchors, new Set())
  const shown = new Set(graph.ids.filter((id) => connected.has(id) || (!everConnected.has(id) && !descendants.has(id))))
  const hiddenBy = new Map<string, number>()
  for (const [id, hidden] of below) {
    // What a shown fold hides: its descendants, and the people who hang on the family only through them.
    if (shown.has(id)) hiddenBy.set(id, reachable(graph, hidden, shown).size)
  }
  return { shown, hiddenBy }
}

/**
 * The people to fold so that at most `budget` people are shown: whole generations are folded from
 * the deepest up (every person of the generation above the cut who has children), so a reader
 * sees the same depth across the family, never one branch deeper than its cousins. Nothing is
 * folded when the household fits; when no cut meets the budget, the top generation's fold is the
 * answer and the rest is left to panning.
 */
export function foldToFit(family: FamilyInput, budget: number): Set<string> {
  const graph = graphOf(family)
  if (graph.ids.length <= budget) return new Set()
  const depth = generations(graph)
  const deepest = Math.max(0, ...depth.values())
  let folded = new Set<string>()
  for (let cut = deepest - 1; cut >= 0; cut--) {
    folded = new Set(graph.ids.filter((id) => depth.get(id) === cut && (graph.children.get(id)?.length ?? 0) > 0))
    if (foldGraph(graph, folded).shown.size <= budget) return folded
  }
  return folded
}

/**
 * Each person's generation below the household's top: 0 for the clients' eldest known ancestors'
 * level, counted down parent kinships (longest path, so a child is always below both parents);
 * partners share the deeper of their two levels. Cycle-safe: a person is placed once.
 */
function generations(graph: FamilyGraph): Map<string, number> {
  const depth = new Map<string, number>()
  const pending = new Map(graph.ids.map((id) => [id, graph.parents.get(id)?.length ?? 0]))
  const ready = graph.ids.filter((id) => pending.get(id) === 0)
  for (const id of ready) depth.set(id, 0)
  for (let next = ready.shift(); next !== undefined; next = ready.shift()) {
    for (const child of graph.children.get(next) ?? []) {
      depth.set(child, Math.max(depth.get(child) ?? 0, (depth.get(next) ?? 0) + 1))
      const left = (pending.get(child) ?? 1) - 1
      pending.set(child, left)
      if (left === 0) ready.push(child)
    }
  }
  // People in a parent cycle (only a partner payload could have one) sit at the top.
  for (const id of graph.ids) if (!depth.has(id)) depth.set(id, 0)
  // A married-in partner is at their partner's level, so folding a generation folds couples together.
  for (const id of graph.ids) {
    if ((graph.parents.get(id)?.length ?? 0) > 0) continue
    for (const other of graph.partners.get(id) ?? []) depth.set(id, Math.max(depth.get(id) ?? 0, depth.get(other) ?? 0))
  }
  return depth
}

/** What a search by name finds, and the folds to keep so that every match is shown. */
export interface FoundPeople {
  ids: readonly string[]
  /** `folded` without the folds that hid a match. */
  unfolded: Set<string>
}

/** Case- and accent-insensitive form of a name, for search ("Zoë" is found by "zoe"). */
export function searchable(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase()
}

/** The people whose names contain `query`, and the folds to open (only those) so that all of them are shown. */
export function findPeople(family: FamilyInput, query: string, folded: ReadonlySet<string>): FoundPeople {
  const wanted = searchable(query.trim())
  if (wanted === '') return { ids: [], unfolded: new Set(folded) }
  const ids = family.people.filter((person) => searchable(person.name).includes(wanted)).map((person) => person.id)
  const graph = graphOf(family)
  // A fold hides a match when the match is below it, or is the partner of someone below it (a
  // grandchild's spouse): every such fold opens, nested ones included, and no other.
  const hides = (fold: string, match: string) => {
    const below = descendantsOf(graph, fold)
    return below.has(match) || (graph.partners.get(match) ?? []).some((other) => below.has(other))
  }
  const unfolded = new Set([...folded].filter((fold) => !ids.some((match) => hides(fold, match))))
  return { ids, unfolded }
}
