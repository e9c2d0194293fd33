/**
 * A Streams client's counts per key across its tasks' stores, for tests whose keys each live in one
 * task (one input partition). A key counted by two tasks has two counts: asking for one is an error.
 */
export function storeOf(
  s: { readonly stores: Readonly<Record<string, Readonly<Record<string, number>>>> } | undefined,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [task, store] of Object.entries(s?.stores ?? {}))
    for (const [key, count] of Object.entries(store)) {
      if (key in out) throw new Error(`key ${key} is counted by two tasks (${task} and another): read the stores per task`);
      out[key] = count;
    }
  return out;
}
