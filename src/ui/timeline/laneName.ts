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

/**
 * A lane's name on a phone, where the gutter is narrow: one line when it fits, else two, broken after
 * a `-` or `_` (`__transaction_` / `state-0`), else shortened in the middle: the head with `…` on the
 * first line, the end that tells lanes apart (`store-changelog-0`) whole on the second. Each line is
 * drawn on one line (no wrapping of its own), so what `fits` measured is what the gutter shows: the
 * browser's own wrapping of a name with an ellipsis in it used to take three lines, the third cut
 * off. The whole name stays in the label's title and leads the lane's text alternative.
 */
export function laneNameLines(key: string, fits: (text: string) => boolean = (t) => t.length <= 14): readonly string[] {
  if (fits(key)) return [key];
  const breaks: number[] = [];
  for (let i = key.length - 1; i > 0; i--) if (key[i - 1] === '-' || key[i - 1] === '_') breaks.push(i);
  // whole on two lines, the first as long as it can be
  for (const i of breaks) if (fits(key.slice(0, i)) && fits(key.slice(i))) return [key.slice(0, i), key.slice(i)];
  // the second line: the longest end that fits, from a break where one does, else from any character
  const from = [...breaks].reverse().find((i) => fits(key.slice(i))) ?? firstFitting(key, fits);
  const tail = key.slice(from);
  if (fits(key.slice(0, from))) return [key.slice(0, from), tail];
  for (let n = from - 1; n >= 1; n--) {
    const head = `${key.slice(0, n)}…`;
    if (fits(head)) return [head, tail];
  }
  return [`${key.slice(0, 1)}…`, tail];
}

/** The first position from which the rest of `key` fits (the last character's, at worst). */
function firstFitting(key: string, fits: (text: string) => boolean): number {
  for (let i = 1; i < key.length; i++) if (fits(key.slice(i))) return i;
  return key.length - 1;
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
