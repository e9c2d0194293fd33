/**
 * A lane's name cut in the middle when it does not fit the gutter, so that the partition number and
 * the end of the topic name (`…changelog-0`, `…repartition-1`) stay visible: they are what tell
 * lanes apart. `fits` says whether a text fits (measured on a canvas in the page; by length
 * elsewhere).
 */
export function shortLaneName(key: string, fits: (text: string) => boolean = (t) => t.length <= 20): string {
  if (fits(key)) return key;
  // the last word of the topic name and the partition number, kept whole while a head still fits
  const parts = key.split('-');
  const ending = parts.length >= 3 ? parts.slice(-2).join('-') : '';
  for (let n = key.length - 1; n >= 2; n--) {
    const tail = ending && ending.length <= n - 5 ? ending.length : Math.ceil((n - 1) * 0.6);
    const text = `${key.slice(0, n - 1 - tail)}…${key.slice(-tail)}`;
    if (fits(text)) return text;
  }
  return '…';
}

/** Under a lane's name: its broker, or a replicated partition's leader and leader epoch, or "offline". */
export function laneLeaderText(
  lane:
    | { readonly leader: string; readonly replication: { readonly leader: string | null; readonly leaderEpoch: number } | null }
    | undefined,
  text: {
    readonly onLeader: (leader: string) => string;
    readonly onLeaderEpoch: (leader: string, epoch: number) => string;
    readonly offlineLane: string;
  },
): string {
  const repl = lane?.replication;
  if (!repl) return text.onLeader(lane?.leader ?? '');
  return repl.leader === null ? text.offlineLane : text.onLeaderEpoch(repl.leader, repl.leaderEpoch);
}
