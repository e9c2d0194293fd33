/**
 * What `kafka-consumer-groups.sh --describe --group G` would print at a step (ConsumerGroupCommand,
 * Kafka 4.0: collectGroupsOffsets, describePartitions, printOffsets), read off the coordinator's and
 * the partitions' state at that instant:
 *
 * - the group as DescribeGroups answers it: its state and members, each member's assignment as the
 *   coordinator holds it (ClassicGroupMember.assignment, also while rebalancing: describeNoMetadata);
 *   a group the coordinator does not know is Dead ("Error: Consumer group 'G' does not exist.");
 * - CURRENT-OFFSET: the group's committed offset (OffsetFetch: pending transactional offsets are not
 *   committed yet), "-" when none;
 * - LOG-END-OFFSET: ListOffsets with OffsetSpec.latest() and the Admin client's default isolation,
 *   READ_UNCOMMITTED — the leader's **high watermark**, not the LSO; "-" when the leader cannot answer;
 * - LAG: LOG-END-OFFSET − CURRENT-OFFSET when both are known.
 *
 * Rows: the members with partitions, the most partitions first (ties in DescribeGroups' order,
 * javaHashMap.ts), each one's partitions by partition number; then the partitions with a committed offset that no member holds, with "-" for the
 * member. So the tool counts a read_committed group's lag from the high watermark: a group held back
 * by an open transaction shows the records behind it as LAG here, while its consumers' own
 * records-lag (counted from the LSO) reads 0 — the two numbers an on-call engineer compares.
 *
 * Simplified: the tool's requests (FindCoordinator, DescribeGroups, OffsetFetch, ListOffsets) are
 * read at one instant; HOST is the member's process (`/billing`; Kafka: the client's address).
 */
import type { ConsumerGroup, GroupState } from '../coordinator/classicGroup';
import { processOf } from '../kernel/faults';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { SimView } from '../run';
import { coordinatorGroups, groupOffsetsHeld } from '../trace/coordinatorGroups';
import { partitionHeads } from '../trace/logView';
import { membersInDescribeOrder } from './javaHashMap';

/** The tool's MISSING_COLUMN_VALUE. */
export const MISSING = '-';

export interface DescribeGroupRow {
  readonly group: string;
  readonly topic: string;
  readonly partition: number;
  readonly currentOffset: number | null;
  readonly logEndOffset: number | null;
  readonly lag: number | null;
  readonly consumerId: string;
  readonly host: string;
  readonly clientId: string;
}

export type DescribeGroupResult =
  | { readonly kind: 'unavailable'; readonly group: string }
  | { readonly kind: 'dead'; readonly group: string }
  | { readonly kind: 'described'; readonly group: string; readonly state: GroupState; readonly rows: readonly DescribeGroupRow[] };

/** The HW of each partition whose leader is up, by `topic-partition` (ListOffsets LATEST, READ_UNCOMMITTED). */
function logEndOffsets(view: SimView): Map<string, number> {
  const out = new Map<string, number>();
  for (const { head } of partitionHeads(view.actors)) {
    if (view.processes.get(processOf(head.leader))?.down) continue;
    out.set(topicPartitionKey(head.topic, head.partition), head.highWatermark);
  }
  return out;
}

function rowsOf(g: ConsumerGroup, ends: ReadonlyMap<string, number>): DescribeGroupRow[] {
  const row = (topic: string, partition: number, member: { memberId: string; clientId: string } | null): DescribeGroupRow => {
    const key = topicPartitionKey(topic, partition);
    const currentOffset = g.committed[key] ?? null;
    const logEndOffset = ends.get(key) ?? null;
    return {
      group: g.groupId,
      topic,
      partition,
      currentOffset,
      logEndOffset,
      lag: currentOffset !== null && logEndOffset !== null ? logEndOffset - currentOffset : null,
      consumerId: member?.memberId ?? MISSING,
      host: member ? `/${processOf(member.clientId)}` : MISSING,
      clientId: member?.clientId ?? MISSING,
    };
  };
  const rows: DescribeGroupRow[] = [];
  const assigned = new Set<string>();
  // the members with partitions, the most first (a stable sort keeps DescribeGroups' order otherwise)
  const members = membersInDescribeOrder(g)
    .filter((m) => m.assignment.length > 0)
    .sort((a, b) => b.assignment.length - a.assignment.length);
  for (const m of members)
    for (const tp of [...m.assignment].sort((a, b) => a.partition - b.partition)) {
      assigned.add(topicPartitionKey(tp.topic, tp.partition));
      rows.push(row(tp.topic, tp.partition, m));
    }
  const unassigned = Object.keys(g.committed)
    .filter((key) => !assigned.has(key))
    .map((key) => {
      const dash = key.lastIndexOf('-');
      return { topic: key.slice(0, dash), partition: Number(key.slice(dash + 1)) };
    })
    .sort((a, b) => a.partition - b.partition || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
  for (const tp of unassigned) rows.push(row(tp.topic, tp.partition, null));
  return rows;
}

/** `kafka-consumer-groups.sh --describe --group <groupId>` at the step `view` shows. */
export function describeGroupAt(view: SimView, groupId: string): DescribeGroupResult {
  const coordinatorDown = view.processes.get('group-coordinator')?.down === true;
  if (coordinatorDown || !groupOffsetsHeld(view.actors, groupId)) return { kind: 'unavailable', group: groupId };
  const g = coordinatorGroups(view.actors)[groupId];
  if (!g || g.state === 'Dead') return { kind: 'dead', group: groupId };
  return { kind: 'described', group: groupId, state: g.state, rows: rowsOf(g, logEndOffsets(view)) };
}

const cell = (v: number | null) => (v === null ? MISSING : String(v));
const pad = (s: string, width: number) => (s.length >= width ? s : s + ' '.repeat(width - s.length));

/**
 * The tool's output, as it prints it: the state's line (stderr: "has no active members", "is
 * rebalancing"; an error for a Dead group), then the table with printOffsetFormat's column widths.
 */
export function describeGroupText(r: DescribeGroupResult): string {
  // the Admin client retries FindCoordinator until default.api.timeout.ms, then gives up
  if (r.kind === 'unavailable')
    return 'Error: Executing consumer group command failed due to org.apache.kafka.common.errors.TimeoutException';
  if (r.kind === 'dead') return `Error: Consumer group '${r.group}' does not exist.`;
  const lines: string[] = [];
  if (r.state === 'Empty') lines.push(`Consumer group '${r.group}' has no active members.`);
  if (r.state === 'PreparingRebalance' || r.state === 'CompletingRebalance')
    lines.push(`Warning: Consumer group '${r.group}' is rebalancing.`);
  if (r.rows.length === 0) return lines.join('\n');
  const w = { group: 15, topic: 15, consumerId: 15, host: 15 };
  for (const row of r.rows) {
    w.group = Math.max(w.group, row.group.length);
    w.topic = Math.max(w.topic, row.topic.length);
    w.consumerId = Math.max(w.consumerId, row.consumerId.length);
    w.host = Math.max(w.host, row.host.length);
  }
  const line = (c: readonly string[]) =>
    [
      pad(c[0] ?? '', w.group),
      pad(c[1] ?? '', w.topic),
      pad(c[2] ?? '', 10),
      pad(c[3] ?? '', 15),
      pad(c[4] ?? '', 15),
      pad(c[5] ?? '', 15),
      pad(c[6] ?? '', w.consumerId),
      pad(c[7] ?? '', w.host),
      c[8] ?? '',
    ].join(' ');
  if (lines.length > 0) lines.push('');
  lines.push(line(['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'CONSUMER-ID', 'HOST', 'CLIENT-ID']));
  for (const row of r.rows)
    lines.push(
      line([
        row.group,
        row.topic,
        String(row.partition),
        cell(row.currentOffset),
        cell(row.logEndOffset),
        cell(row.lag),
        row.consumerId,
        row.host,
        row.clientId,
      ]),
    );
  return lines.join('\n');
}
