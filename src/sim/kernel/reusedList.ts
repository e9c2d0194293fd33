/**
 * Lists the kernel reuses from one step (or event) to the next instead of making new ones.
 */

/**
 * Empties a reused list, keeping its storage: `list.length = 0` frees the storage, and the next push
 * allocates it again — on every step, for each such list.
 */
export function clear(list: unknown[]): void {
  while (list.length !== 0) list.pop();
}
