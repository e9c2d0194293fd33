/**
 * What `kafka-consumer-groups.sh --list [--state [S,…]] [--type [T,…]]` would print at a step
 * (ConsumerGroupCommand.ConsumerGroupService.listGroups, Kafka 4.0), and the groups
 * `--describe --all-groups` describes:
 *
 * - ListGroups to every coordinator (GroupMetadataManager.listGroups): the groups it holds, whatever
 *   their state — a Dead group is no longer in its map;
 * - plain `--list` prints each group id on a line of its own (listConsumerGroups);
 * - with `--state` or `--type`, printGroupInfo prints a table: GROUP padded to
 *   `max(15, longest id) + 10` (`%-Ns`), then STATE and/or TYPE at `%-20s`, each line ending in its
 *   padding. `--state stable,empty` keeps those states only (ConsumerGroupState.parse, case-insensitive;
 *   a name it does not know: "Invalid state list '…'. Valid states are: …"); `--state` alone lists every
 *   state; `--type` likewise with GroupType (Classic, Consumer, Share).
 *
 * The model's groups are all classic groups (the `classic` rebalance protocol, KIP-848's `consumer`
 * one is not modelled): TYPE is always Classic.
 *
 * Simplified: read at one instant; the groups in id order (Kafka: the order the coordinators answer
 * in, each its own map's); a coordinator that is down answers with none (Kafka: with the fixed
 * one-process coordinator down, the command times out — that is what this prints).
 */
import type { GroupState } from '../coordinator/classicGroup';
import type { SimView } from '../run';
import { coordinatorGroups } from '../trace/coordinatorGroups';

/** ConsumerGroupState's names, in its declaration order (UNKNOWN left out, as the tool's message does). */
export const CONSUMER_GROUP_STATES = [
  'PreparingRebalance',
  'CompletingRebalance',
  'Stable',
  'Dead',
  'Empty',
  'Assigning',
  'Reconciling',
] as const;

/** GroupType's names, in its declaration order (UNKNOWN left out). */
export const GROUP_TYPES = ['Consumer', 'Classic', 'Share'] as const;

export interface GroupListing {
  readonly groupId: string;
  readonly state: GroupState;
  readonly type: 'Classic';
}

export type ListGroupsResult = { readonly kind: 'unavailable' } | { readonly kind: 'listed'; readonly groups: readonly GroupListing[] };

/**
 * ConsumerGroupCommand.consumerGroupStatesFromString / consumerGroupTypesFromString: the names
 * (comma-separated, trimmed, any case) as the enum's, or the tool's complaint.
 */
export function parseNames(input: string, names: readonly string[], what: 'state' | 'types'): readonly string[] | string {
  const parsed = input.split(',').map((s) => names.find((n) => n.toUpperCase() === s.trim().toUpperCase()));
  if (parsed.some((p) => p === undefined))
    return `Invalid ${what} list '${input}'. Valid ${what === 'state' ? 'states' : 'types'} are: ${names.join(', ')}`;
  return [...new Set(parsed as string[])];
}

/** ListGroups at the step `view` shows, kept to these states and types (empty: all). */
export function listGroupsAt(view: SimView, states: readonly string[] = [], types: readonly string[] = []): ListGroupsResult {
  if (view.processes.get('group-coordinator')?.down === true) return { kind: 'unavailable' };
  const groups = Object.values(coordinatorGroups(view.actors))
    .filter((g) => g.state !== 'Dead')
    .filter((g) => states.length === 0 || states.includes(g.state))
    .filter(() => types.length === 0 || types.includes('Classic'))
    .map((g): GroupListing => ({ groupId: g.groupId, state: g.state, type: 'Classic' }))
    .sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
  return { kind: 'listed', groups };
}

const pad = (s: string, width: number) => (s.length >= width ? s : s + ' '.repeat(width - s.length));

/** The tool's output: the ids alone, or printGroupInfo's table when `--state` or `--type` was given. */
export function listGroupsText(r: ListGroupsResult, columns: { readonly state: boolean; readonly type: boolean }): string {
  if (r.kind === 'unavailable')
    return 'Error: Executing consumer group command failed due to org.apache.kafka.common.errors.TimeoutException';
  if (!columns.state && !columns.type) return r.groups.map((g) => g.groupId).join('\n');
  const width = Math.max(15, ...r.groups.map((g) => g.groupId.length)) + 10;
  const line = (group: string, type: string, state: string) =>
    [pad(group, width), ...(columns.type ? [pad(type, 20)] : []), ...(columns.state ? [pad(state, 20)] : [])].join(' ');
  return [line('GROUP', 'TYPE', 'STATE'), ...r.groups.map((g) => line(g.groupId, g.type, g.state))].join('\n');
}
