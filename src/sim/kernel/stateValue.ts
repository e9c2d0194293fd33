/** Renders an XState state value as a short string: "READY", "up.serving", "a.b|c.d" (parallel). */
export function stateValueToString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  const parts: string[] = [];
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const rest = stateValueToString(child);
    parts.push(rest ? `${key}.${rest}` : key);
  }
  return parts.join('|');
}
