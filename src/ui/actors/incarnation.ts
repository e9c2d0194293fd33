/**
 * Which life of a process its card names. The kernel counts a crash at once (processFaults: the
 * incarnation goes up as the process goes down), so a crashed process that has not restarted yet
 * is still in the life that ended: its card read "down · incarnation 2" before any second start.
 */
export function incarnationShown(p: { readonly down: boolean; readonly incarnation: number }): number {
  return p.down ? p.incarnation : p.incarnation + 1;
}
