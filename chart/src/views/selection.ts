// The selection the three views share: at most one person or entity. A view selects on click or
// Enter, the shell marks the selected id in every view and the summary panel describes it; the
// SDK's `select` event is this selection's change. Listeners hear only real changes, so a view
// that re-selects what is already selected starts no loop.

export type SelectedKind = 'person' | 'entity'

export interface Selected {
  readonly id: string
  readonly kind: SelectedKind
}

export type SelectionListener = (selected: Selected | null) => void

export interface Selection {
  current(): Selected | null
  select(id: string, kind: SelectedKind): void
  clear(): void
  /** Calls `listener` on every change from now on; the returned function stops it. */
  subscribe(listener: SelectionListener): () => void
}

export function createSelection(): Selection {
  let selected: Selected | null = null
  const listeners = new Set<SelectionListener>()
  const change = (next: Selected | null) => {
    if (next?.id === selected?.id && next?.kind === selected?.kind) return
    selected = next
    for (const listener of [...listeners]) {
      // A listener that selected again has had every listener told of the newer selection.
      if (selected !== next) return
      listener(next)
    }
  }
  return {
    current: () => selected,
    select: (id, kind) => change({ id, kind }),
    clear: () => change(null),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
