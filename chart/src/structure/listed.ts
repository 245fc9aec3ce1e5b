// Lists kept in a map by key (neighbours by node, arcs by box), made the first time a key is used.

/** The list kept under `key`, made empty the first time. */
export function listed<K, V>(lists: Map<K, V[]>, key: K): V[] {
  let list = lists.get(key)
  if (list === undefined) {
    list = []
    lists.set(key, list)
  }
  return list
}
