/**
 * kafka-consumer-groups.sh --describe --members [--verbose] and --describe --state
 * (sim/tools/describeGroupViews.ts), as ConsumerGroupCommand prints them (printMembers, printStates,
 * shouldPrintMemberState) from DescribeGroups (GroupMetadataManager.describeGroups): the protocol name
 * only for a Stable group (stream for Kafka Streams, range for a plain consumer), the assignment also
 * while rebalancing, members in ClassicGroup’s HashMap order, the header of --members printed even for
 * an Empty or Dead group, --state’s table for an Empty group but not a Dead one, the coordinator as
 * host:port  (id).
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { javaStringHashCode as javaStringHash } from '../../src/sim/producer/partitioner';
import { runScenario, type SimView, stateAt, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import {
  assignmentCell,
  describeMembersAt,
  describeMembersText,
  describeStateAt,
  describeStateText,
} from '../../src/sim/tools/describeGroupViews';
import { javaHashMapOrder } from '../../src/sim/tools/javaHashMap';
import { HOSTED_GROUP_CONSUMER } from '../fixtures/hostedGroup';

const presetTrace = (id: string) => {
  const preset = findPreset(id);
  if (!preset) throw new Error(`${id} is missing`);
  return runScenario(preset.scenario);
};

/** The first step from `from` whose view satisfies `p` (the run’s length when none does). */
function firstStep(trace: Trace, p: (v: SimView) => boolean, from = 0): number {
  let s = from;
  for (; s <= trace.steps.length; s++) if (p(stateAt(trace, s))) break;
  return s;
}

const stateOf = (v: SimView, group: string) => {
  const r = describeStateAt(v, group);
  return r.kind === 'described' ? r.row : null;
};

describe('java.util.HashMap order (ClassicGroup.members)', () => {
  it('String.hashCode as Java computes it, 32-bit overflow included', () => {
    expect(javaStringHash('')).toBe(0);
    expect(javaStringHash('hello')).toBe(99162322);
    expect(javaStringHash('polygenelubricants')).toBe(-2147483648);
    expect(javaStringHash('Aa')).toBe(javaStringHash('BB'));
  });

  it('by bucket, then by insertion within a bucket', () => {
    // "b" (98) and "a" (97) land in buckets 2 and 1; "BB" and "Aa" share bucket 0 (2112 & 15) in insertion order
    expect(javaHashMapOrder(['b', 'a', 'BB', 'Aa'], (k) => k)).toEqual(['BB', 'Aa', 'a', 'b']);
    // more than 12 keys: the table has 32 buckets, "q" (113) moves to bucket 17 after "a" … "p"
    const keys = 'qabcdefghijklmnop'.split('');
    expect(javaHashMapOrder(keys, (k) => k)).toEqual([...'abcdefghijklmnop'.split(''), 'q']);
  });
});

describe('kafka-consumer-groups.sh --describe --state', () => {
  it('a Streams group: stream once Stable, no strategy while rebalancing, the warning first', () => {
    const trace = presetTrace('streams-task-migration');
    const rebalancing = firstStep(trace, (v) => stateOf(v, 'page-counter')?.state === 'PreparingRebalance');
    const stable = firstStep(trace, (v) => stateOf(v, 'page-counter')?.state === 'Stable', rebalancing);
    expect(stable).toBeLessThan(trace.steps.length);
    const during = describeStateAt(stateAt(trace, rebalancing), 'page-counter');
    expect(during).toMatchObject({ kind: 'described', row: { assignmentStrategy: '', state: 'PreparingRebalance' } });
    const text = describeStateText(during).split('\n');
    expect(text[0]).toBe("Warning: Consumer group 'page-counter' is rebalancing.");
    expect(text[1]).toBe('');
    const row = stateOf(stateAt(trace, stable), 'page-counter');
    expect(row).toEqual({
      group: 'page-counter',
      coordinator: 'group-coordinator:9092  (group-coordinator)',
      assignmentStrategy: 'stream',
      state: 'Stable',
      numMembers: 2,
    });
    // printStates: the GROUP column as wide as the coordinator’s text, then 25, 20 and 15
    const [header, line] = describeStateText(describeStateAt(stateAt(trace, stable), 'page-counter')).split('\n');
    const coordinator = 'group-coordinator:9092  (group-coordinator)';
    expect(header).toBe(
      `${'GROUP'.padEnd(coordinator.length)} ${'COORDINATOR (ID)'.padEnd(25)} ${'ASSIGNMENT-STRATEGY'.padEnd(20)} ${'STATE'.padEnd(15)} #MEMBERS`,
    );
    expect(line).toBe(`${'page-counter'.padEnd(coordinator.length)} ${coordinator} ${'stream'.padEnd(20)} ${'Stable'.padEnd(15)} 2`);
  });

  it('a plain consumer group: range; after its member left, Empty with 0 members and the table still printed', () => {
    const trace = presetTrace('offset-reset-replays-output');
    const stable = firstStep(trace, (v) => stateOf(v, 'settler')?.state === 'Stable');
    expect(stateOf(stateAt(trace, stable), 'settler')).toMatchObject({ assignmentStrategy: 'range', numMembers: 1 });
    const empty = firstStep(trace, (v) => stateOf(v, 'settler')?.state === 'Empty', stable);
    expect(empty).toBeLessThan(trace.steps.length);
    const lines = describeStateText(describeStateAt(stateAt(trace, empty), 'settler')).split('\n');
    expect(lines[0]).toBe("Consumer group 'settler' has no active members.");
    expect(lines[2]).toMatch(/^GROUP +COORDINATOR \(ID\) +ASSIGNMENT-STRATEGY +STATE +#MEMBERS$/);
    expect(lines[3]).toMatch(/^settler +group-coordinator:9092 {2}\(group-coordinator\) {22}Empty {11}0$/);
  });

  it('a Dead group (the coordinator does not know it): the error only; no coordinator able to answer: the timeout', () => {
    const trace = runScenario(HOSTED_GROUP_CONSUMER);
    // before broker-1 has loaded __consumer_offsets no coordinator answers
    expect(describeStateAt(stateAt(trace, 0), 'g')).toEqual({ kind: 'unavailable', group: 'g' });
    expect(describeStateText(describeStateAt(stateAt(trace, 0), 'g'))).toMatch(/TimeoutException$/);
    const loaded = firstStep(trace, (v) => describeStateAt(v, 'g').kind === 'described');
    expect(loaded).toBeLessThan(trace.steps.length);
    expect(describeStateText(describeStateAt(stateAt(trace, loaded), 'g'))).toBe("Error: Consumer group 'g' does not exist.");
    // the coordinator hosted on the __consumer_offsets leader: its broker’s host and node id
    expect(stateOf(stateAt(trace, trace.steps.length), 'g')).toMatchObject({ coordinator: 'broker-1:9092  (1)', state: 'Stable' });
  });
});

describe('kafka-consumer-groups.sh --describe --members', () => {
  it('a rebalancing Streams group: every member with the partitions the coordinator still holds, the warning first', () => {
    const trace = presetTrace('streams-task-migration');
    // a rebalance of a group that was Stable: a member still holds its partition (describeNoMetadata carries it)
    const step = firstStep(trace, (v) => {
      const r = describeMembersAt(v, 'page-counter');
      return r.kind === 'described' && r.state === 'PreparingRebalance' && r.rows.some((m) => m.numPartitions > 0);
    });
    expect(step).toBeLessThan(trace.steps.length);
    const r = describeMembersAt(stateAt(trace, step), 'page-counter');
    if (r.kind !== 'described') throw new Error('not described');
    const lines = describeMembersText(r, true).split('\n');
    expect(lines[0]).toBe("Warning: Consumer group 'page-counter' is rebalancing.");
    expect(lines[2]).toMatch(/^GROUP +CONSUMER-ID +HOST +CLIENT-ID +#PARTITIONS {5}ASSIGNMENT$/);
    expect(lines).toHaveLength(3 + r.rows.length);
    for (const [i, m] of r.rows.entries()) {
      expect(m.host).toBe(`/${m.clientId.split('.')[0]}`);
      const cell = m.numPartitions === 0 ? '-' : `(${m.assignment.map((tp) => tp.partition).join(',')})`;
      expect(lines[3 + i]?.split(/ +/)).toEqual(['page-counter', m.consumerId, m.host, m.clientId, String(m.numPartitions), cell]);
    }
    // without --verbose: no ASSIGNMENT, #PARTITIONS padded to 15 and a space
    const plain = describeMembersText(r, false).split('\n');
    expect(plain[2]).toMatch(/ #PARTITIONS {5}$/);
    expect(plain[3]).toMatch(/ \d {15}$/);
  });

  it('rows in ClassicGroup’s HashMap order, not the order the members joined', () => {
    const trace = presetTrace('streams-task-migration');
    let checked = 0;
    for (let s = 0; s <= trace.steps.length; s += 7) {
      const r = describeMembersAt(stateAt(trace, s), 'page-counter');
      if (r.kind !== 'described' || r.rows.length < 2) continue;
      checked++;
      expect(r.rows.map((m) => m.consumerId)).toEqual(javaHashMapOrder(r.rows, (m) => m.consumerId).map((m) => m.consumerId));
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('an Empty group after its member left: the message, then the header and no row; Dead: the error, then the header', () => {
    const trace = presetTrace('offset-reset-replays-output');
    const empty = firstStep(trace, (v) => {
      const r = describeMembersAt(v, 'settler');
      return r.kind === 'described' && r.state === 'Empty';
    });
    expect(empty).toBeLessThan(trace.steps.length);
    const header = `${['GROUP', 'CONSUMER-ID', 'HOST', 'CLIENT-ID', '#PARTITIONS'].map((h) => h.padEnd(15)).join(' ')} `;
    expect(describeMembersText(describeMembersAt(stateAt(trace, empty), 'settler'), false)).toBe(
      `Consumer group 'settler' has no active members.\n\n${header}`,
    );
    expect(describeMembersText(describeMembersAt(stateAt(trace, 0), 'settler'), true)).toBe(
      `Error: Consumer group 'settler' does not exist.\n\n${header}ASSIGNMENT`,
    );
  });

  it('static members: the GROUP-INSTANCE-ID column, at least 17 wide', () => {
    const consumer = (id: string, instance: string) => ({
      id,
      type: 'consumer' as const,
      config: { 'group.id': 'billing', 'group.instance.id': instance },
      topics: ['orders'],
    });
    const scenario: Scenario = {
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 3 }],
      clients: [consumer('c1', 'billing-1'), consumer('c2', 'billing-2')],
    };
    const trace = runScenario(scenario);
    const r = describeMembersAt(stateAt(trace, trace.steps.length), 'billing');
    if (r.kind !== 'described') throw new Error('not described');
    expect(r.state).toBe('Stable');
    expect(r.rows.map((m) => m.groupInstanceId).sort()).toEqual(['billing-1', 'billing-2']);
    expect(r.rows.map((m) => m.numPartitions).sort()).toEqual([1, 2]);
    const lines = describeMembersText(r, true).split('\n');
    expect(lines[0]).toMatch(/^GROUP {11}CONSUMER-ID {5}GROUP-INSTANCE-ID HOST {12}CLIENT-ID {7}#PARTITIONS {5}ASSIGNMENT$/);
    const two = r.rows.findIndex((m) => m.numPartitions === 2);
    expect(two).toBeGreaterThanOrEqual(0);
    expect(lines[1 + two]).toMatch(/ 2 {15}\(0,1\)$/);
    expect(describeStateAt(stateAt(trace, trace.steps.length), 'billing')).toMatchObject({
      row: { assignmentStrategy: 'range', numMembers: 2 },
    });
  });

  it('--verbose’s ASSIGNMENT: per topic, partition numbers sorted as strings; the topics’ names not printed', () => {
    expect(assignmentCell([])).toBe('-');
    expect(
      assignmentCell([
        { topic: 'b', partition: 10 },
        { topic: 'a', partition: 3 },
        { topic: 'b', partition: 2 },
        { topic: 'a', partition: 1 },
      ]),
    ).toBe('(1,3), (10,2)');
  });
});
