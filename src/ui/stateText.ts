/**
 * A state as the trace writes it, made readable. A machine with parallel regions is written as one
 * path per region joined by '|' ("running.membership.STABLE|running.fetching.ASSIGNED.IDLE"); a
 * person reads it as each region and its state ("membership STABLE, fetching ASSIGNED.IDLE"), and a
 * transition as the regions it changed.
 */

export interface RegionState {
  /** The region's name (the segment after the parallel state's path). */
  readonly region: string;
  /** Its state, as a path inside the region. */
  readonly value: string;
}

/** The regions of a parallel state value, or null for a state without regions. */
export function regionsOf(state: string): RegionState[] | null {
  if (!state.includes('|')) return null;
  const parts = state.split('|').map((p) => p.split('.'));
  // the parallel state's own path: the segments every region's path starts with
  let common = 0;
  const first = parts[0] ?? [];
  while (common < first.length - 1 && parts.every((p) => p[common] === first[common])) common++;
  return parts.map((p) => ({ region: p[common] ?? '', value: p.slice(common + 1).join('.') }));
}

const joinRegions = (regions: readonly RegionState[]) => regions.map((r) => `${r.region} ${r.value}`).join(', ');

export function readableState(state: string): string {
  const regions = regionsOf(state);
  return regions ? joinRegions(regions) : state;
}

/** Before and after, told by the regions that changed when both are in the same parallel state. */
export function readableTransition(before: string, after: string): { before: string; after: string } {
  const b = regionsOf(before);
  const a = regionsOf(after);
  if (!b || !a || b.length !== a.length || b.some((r, i) => r.region !== a[i]?.region))
    return { before: readableState(before), after: readableState(after) };
  const changed = b.flatMap((r, i) => (r.value === a[i]?.value ? [] : [i]));
  if (changed.length === 0) return { before: joinRegions(b), after: joinRegions(a) };
  return {
    before: joinRegions(changed.map((i) => b[i] as RegionState)),
    after: joinRegions(changed.map((i) => a[i] as RegionState)),
  };
}
