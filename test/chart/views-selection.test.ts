// The selection the 0.2.0 views share (chart/src/views/selection.ts): listeners hear every change
// and only changes, so a view re-selecting what is already selected starts no event loop.
import { describe, expect, it } from 'vitest'
import { createSelection, type Selected } from '../../chart/src/views/selection.ts'

describe('the shared selection', () => {
  it('starts empty, tells listeners each change once, and stops telling one that unsubscribed', () => {
    const selection = createSelection()
    const heard: (Selected | null)[] = []
    const other: (Selected | null)[] = []
    const stop = selection.subscribe((selected) => heard.push(selected))
    selection.subscribe((selected) => other.push(selected))
    expect(selection.current()).toBeNull()

    selection.select('robert', 'person')
    selection.select('robert', 'person') // already selected: no change
    selection.select('rlt', 'entity')
    stop()
    selection.clear()
    selection.clear() // already clear: no change

    expect(heard).toEqual([
      { id: 'robert', kind: 'person' },
      { id: 'rlt', kind: 'entity' },
    ])
    expect(other).toEqual([{ id: 'robert', kind: 'person' }, { id: 'rlt', kind: 'entity' }, null])
    expect(selection.current()).toBeNull()
  })

  it('lets a listener select again from inside its call, and tells everyone the latest', () => {
    const selection = createSelection()
    const heard: (string | null)[] = []
    selection.subscribe((selected) => {
      if (selected?.id === 'a') selection.select('b', 'entity')
    })
    selection.subscribe((selected) => heard.push(selected?.id ?? null))
    selection.select('a', 'person')
    expect(selection.current()).toEqual({ id: 'b', kind: 'entity' })
    expect(heard).toEqual(['b']) // never the stale 'a' after 'b'
  })
})
