/**
 * Renders an XState state value as a short string: "READY", "up.serving", and for parallel
 * regions each active leaf's full path joined by "|": "running.membership.STABLE|running.fetching.IDLE".
 */
export function stateValueToString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  const leaves: string[] = [];
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const rest = stateValueToString(child);
    if (!rest) leaves.push(key);
    else for (const leaf of rest.split('|')) leaves.push(`${key}.${leaf}`);
  }
  return leaves.join('|');
}
