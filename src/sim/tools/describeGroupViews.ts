/**
 * The two other views of `kafka-consumer-groups.sh --describe --group G` (ConsumerGroupCommand,
 * Kafka 4.0), read off the coordinator's state at a step as describeGroup.ts reads the offsets view:
 *
 * - `--members` (`collectGroupsMembers`, `printMembers`): one row per member in the order DescribeGroups
 *   lists them — GROUP, CONSUMER-ID, (GROUP-INSTANCE-ID when a member is static), HOST, CLIENT-ID,
 *   #PARTITIONS, and with `--verbose` ASSIGNMENT;
 * - `--state` (`collectGroupsState`, `printStates`): GROUP, COORDINATOR (ID), ASSIGNMENT-STRATEGY,
 *   STATE, #MEMBERS.
 *
 * DescribeGroups (`GroupMetadataManager.describeGroups`): a Stable group answers its protocol name as
 * `protocolData` (the Admin client's `partitionAssignor`) and its members with metadata; any other
 * state answers no protocol ("") and `describeNoMetadata` members, which still carry the assignment;
 * a group the coordinator does not know is `Dead` with no member. The members come from
 * `ClassicGroup.allMembers()`, the values of a `HashMap` keyed by member id: their order is the
 * member ids' hash order (javaHashMap.ts).
 *
 * The protocol name of a Stable group (`ClassicGroup.selectProtocol`, the protocol every member
 * supports that most members list first): `stream` for a Kafka Streams application
 * (`StreamsPartitionAssignor.name()`: Streams sets `partition.assignment.strategy` to its own
 * assignor), else `range` — the first of a plain consumer's default `partition.assignment.strategy`
 * (`RangeAssignor`, `CooperativeStickyAssignor`), so the one every member votes for. The model's
 * coordinator assigns by the same rule (classicGroup.ts `assign`).
 *
 * Simplified: HOST is the member's process (`/billing`), the COORDINATOR's host the coordinator's
 * broker (`broker-1:9092  (1)`), or, for the unreplicated `__consumer_offsets` the model keeps in
 * the process `group-coordinator`, that process's name in place of a broker's host and id.
 */
import type { ConsumerGroup, GroupMember, GroupState } from '../coordinator/classicGroup';
import type { ActorId } from '../kernel/envelope';
import { processOf } from '../kernel/faults';
import type { SimView } from '../run';
import { coordinatorGroups, groupCoordinatorOf } from '../trace/coordinatorGroups';
import { MISSING } from './describeGroup';
import { membersInDescribeOrder } from './javaHashMap';

export interface MemberRow {
  readonly group: string;
  readonly consumerId: string;
  /** group.instance.id; "" for a dynamic member (`groupInstanceId().orElse("")`). */
  readonly groupInstanceId: string;
  readonly host: string;
  readonly clientId: string;
  readonly numPartitions: number;
  /** The member's partitions as the coordinator holds them (what `--verbose` prints). */
  readonly assignment: readonly { readonly topic: string; readonly partition: number }[];
}

export type DescribeMembersResult =
  | { readonly kind: 'unavailable'; readonly group: string }
  | { readonly kind: 'described'; readonly group: string; readonly state: GroupState; readonly rows: readonly MemberRow[] };

export interface GroupStateRow {
  readonly group: string;
  /** `host:port  (id)`, as printStates writes the coordinator Node. */
  readonly coordinator: string;
  /** The protocol name of a Stable group; "" in any other state (DescribeGroups sends none). */
  readonly assignmentStrategy: string;
  readonly state: GroupState;
  readonly numMembers: number;
}

export type DescribeStateResult =
  | { readonly kind: 'unavailable'; readonly group: string }
  | { readonly kind: 'described'; readonly group: string; readonly row: GroupStateRow };

/** A member whose client is Kafka Streams' main consumer (it subscribes COOPERATIVE with its owned partitions). */
function isStreamsMember(view: SimView, m: GroupMember): boolean {
  if (m.ownedPartitions !== undefined) return true;
  const ctx = view.actors.get(m.clientId)?.context as { revocationListener?: boolean } | undefined;
  return ctx?.revocationListener === true;
}

/** The protocol name DescribeGroups answers: a Stable group's (selectProtocol), "" otherwise. */
export function assignmentStrategyOf(view: SimView, g: ConsumerGroup): string {
  if (g.state !== 'Stable') return '';
  const members = Object.values(g.members);
  return members.length > 0 && members.every((m) => isStreamsMember(view, m)) ? 'stream' : 'range';
}

/** The coordinator Node as printStates writes it: `host:port  (id)`. */
export function coordinatorText(coordinator: ActorId): string {
  const broker = coordinator.endsWith('.group-coordinator') ? coordinator.slice(0, coordinator.indexOf('.')) : null;
  if (broker) return `${broker}:9092  (${broker.slice(broker.lastIndexOf('-') + 1)})`;
  return `${coordinator}:9092  (${coordinator})`;
}

/** The coordinator that answers for the group (null: none can, the tool times out) and its group (absent: Dead). */
function described(view: SimView, groupId: string): { coordinator: ActorId; group: ConsumerGroup | null } | null {
  if (view.processes.get('group-coordinator')?.down === true) return null;
  const coordinator = groupCoordinatorOf(view.actors, groupId);
  if (coordinator === null) return null;
  const g = coordinatorGroups(view.actors)[groupId];
  return { coordinator, group: g && g.state !== 'Dead' ? g : null };
}

/** `kafka-consumer-groups.sh --describe --members --group <groupId>` at the step `view` shows. */
export function describeMembersAt(view: SimView, groupId: string): DescribeMembersResult {
  const d = described(view, groupId);
  if (!d) return { kind: 'unavailable', group: groupId };
  if (!d.group) return { kind: 'described', group: groupId, state: 'Dead', rows: [] };
  const rows = membersInDescribeOrder(d.group).map(
    (m): MemberRow => ({
      group: groupId,
      consumerId: m.memberId,
      groupInstanceId: m.groupInstanceId ?? '',
      host: `/${processOf(m.clientId)}`,
      clientId: m.clientId,
      numPartitions: m.assignment.length,
      assignment: m.assignment,
    }),
  );
  return { kind: 'described', group: groupId, state: d.group.state, rows };
}

/** `kafka-consumer-groups.sh --describe --state --group <groupId>` at the step `view` shows. */
export function describeStateAt(view: SimView, groupId: string): DescribeStateResult {
  const d = described(view, groupId);
  if (!d) return { kind: 'unavailable', group: groupId };
  const g = d.group;
  return {
    kind: 'described',
    group: groupId,
    row: {
      group: groupId,
      coordinator: coordinatorText(d.coordinator),
      assignmentStrategy: g ? assignmentStrategyOf(view, g) : '',
      state: g ? g.state : 'Dead',
      numMembers: g ? Object.keys(g.members).length : 0,
    },
  };
}

const pad = (s: string, width: number) => (s.length >= width ? s : s + ' '.repeat(width - s.length));
const TIMEOUT = 'Error: Executing consumer group command failed due to org.apache.kafka.common.errors.TimeoutException';

/**
 * shouldPrintMemberState's line for the state ("" when Stable) and whether the table follows: not for
 * a Dead group, nor without a row.
 */
function stateLine(group: string, state: GroupState): string {
  if (state === 'Dead') return `Error: Consumer group '${group}' does not exist.`;
  if (state === 'Empty') return `Consumer group '${group}' has no active members.`;
  if (state === 'PreparingRebalance' || state === 'CompletingRebalance') return `Warning: Consumer group '${group}' is rebalancing.`;
  return '';
}

/**
 * printMembers' ASSIGNMENT cell: the partitions grouped by topic, each group's partition numbers
 * sorted as strings in parentheses, the groups sorted as strings and joined by ", " — the topic's
 * name is not printed (4.0's Java tool; 3.x's Scala tool printed `topic(0,1)`); "-" when none.
 */
export function assignmentCell(assignment: readonly { readonly topic: string; readonly partition: number }[]): string {
  if (assignment.length === 0) return MISSING;
  const byTopic = new Map<string, string[]>();
  for (const tp of assignment) byTopic.set(tp.topic, [...(byTopic.get(tp.topic) ?? []), String(tp.partition)]);
  const sorted = (xs: string[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted([...byTopic.values()].map((ps) => `(${sorted(ps).join(',')})`)).join(', ');
}

/**
 * The tool's `--members` output: the state's line, then — always, even for a Dead or Empty group —
 * the header (printMembers prints it outside shouldPrintMemberState's test), then a row per member.
 * Widths (`%-Ns`): group, consumer id, host and client id at least 15, group instance id 17, computed
 * only when shouldPrintMemberState let the table through; #PARTITIONS `%-15s ` (a space after it).
 */
export function describeMembersText(r: DescribeMembersResult, verbose: boolean): string {
  if (r.kind === 'unavailable') return TIMEOUT;
  const lines: string[] = [];
  const said = stateLine(r.group, r.state);
  if (said) lines.push(said, '');
  const w = { group: 15, consumerId: 15, instance: 17, host: 15, clientId: 15 };
  let withInstance = false;
  if (r.state !== 'Dead' && r.rows.length > 0)
    for (const row of r.rows) {
      w.group = Math.max(w.group, row.group.length);
      w.consumerId = Math.max(w.consumerId, row.consumerId.length);
      w.instance = Math.max(w.instance, row.groupInstanceId.length);
      w.host = Math.max(w.host, row.host.length);
      w.clientId = Math.max(w.clientId, row.clientId.length);
      withInstance ||= row.groupInstanceId !== '';
    }
  const line = (group: string, consumerId: string, instance: string, host: string, clientId: string, parts: string) =>
    `${[pad(group, w.group), pad(consumerId, w.consumerId), ...(withInstance ? [pad(instance, w.instance)] : []), pad(host, w.host), pad(clientId, w.clientId), pad(parts, 15)].join(' ')} `;
  lines.push(line('GROUP', 'CONSUMER-ID', 'GROUP-INSTANCE-ID', 'HOST', 'CLIENT-ID', '#PARTITIONS') + (verbose ? 'ASSIGNMENT' : ''));
  for (const row of r.rows)
    lines.push(
      line(row.group, row.consumerId, row.groupInstanceId, row.host, row.clientId, String(row.numPartitions)) +
        (verbose ? assignmentCell(row.assignment) : ''),
    );
  return lines.join('\n');
}

/**
 * The tool's `--state` output: the state's line, then (not for a Dead group) the header and the
 * group's row, `%-Ns` with the GROUP column as wide as the coordinator's text (at least 25 — printStates
 * sizes the first column by it), COORDINATOR (ID) 25, ASSIGNMENT-STRATEGY 20, STATE 15.
 */
export function describeStateText(r: DescribeStateResult): string {
  if (r.kind === 'unavailable') return TIMEOUT;
  const { row } = r;
  const said = stateLine(r.group, row.state);
  if (row.state === 'Dead') return said;
  const first = Math.max(25, row.coordinator.length);
  const line = (c: readonly string[]) =>
    [pad(c[0] ?? '', first), pad(c[1] ?? '', 25), pad(c[2] ?? '', 20), pad(c[3] ?? '', 15), c[4] ?? ''].join(' ');
  return [
    ...(said ? [said, ''] : []),
    line(['GROUP', 'COORDINATOR (ID)', 'ASSIGNMENT-STRATEGY', 'STATE', '#MEMBERS']),
    line([row.group, row.coordinator, row.assignmentStrategy, row.state, String(row.numMembers)]),
  ].join('\n');
}
