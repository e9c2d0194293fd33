/**
 * kafka-topics.sh --describe --topic T (sim/tools/describeTopic.ts; TopicCommand.describeTopic,
 * TopicDescription / PartitionDescription.printDescription, Kafka 4.0): the topic line (PartitionCount,
 * ReplicationFactor, the configs that are not defaults) and a line per partition (Leader or none,
 * Replicas in assignment order, Isr, empty Elr and LastKnownElr) from the controller's registrations.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { describeTopicAt, describeTopicText, nonDefaultConfigs } from '../../src/sim/tools/describeTopic';

const traceOf = (id: string): Trace => runScenario(findPreset(id)?.scenario ?? {});

/** Each distinct partition line of the run, in order (the ISR and leader as they change). */
function partitionLines(trace: Trace, topic: string): string[] {
  const out: string[] = [];
  for (let i = 0; i <= trace.steps.length; i++) {
    const line = describeTopicText(describeTopicAt(stateAt(trace, i), trace.scenario, topic)).split('\n')[1] as string;
    if (out.at(-1) !== line) out.push(line);
  }
  return out;
}

describe('kafka-topics.sh --describe', () => {
  it('min-insync-blocks-writes: the ISR shrinks to the leader alone below min.insync.replicas, set on the brokers', () => {
    const trace = traceOf('min-insync-blocks-writes');
    const text = describeTopicText(describeTopicAt(stateAt(trace, 0), trace.scenario, 'orders'));
    expect(text.split('\n')[0]).toBe('Topic: orders\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: min.insync.replicas=2');
    expect(partitionLines(trace, 'orders')).toEqual([
      '\tTopic: orders\tPartition: 0\tLeader: 0\tReplicas: 0,1,2\tIsr: 0,1,2\tElr: \tLastKnownElr: ',
      '\tTopic: orders\tPartition: 0\tLeader: 0\tReplicas: 0,1,2\tIsr: 0,1\tElr: \tLastKnownElr: ',
      '\tTopic: orders\tPartition: 0\tLeader: 0\tReplicas: 0,1,2\tIsr: 0\tElr: \tLastKnownElr: ',
    ]);
  });

  it('unclean-election-loses-committed: no leader while the last ISR member is fenced, then the out-of-sync replica leads alone', () => {
    const lines = partitionLines(traceOf('unclean-election-loses-committed'), 'orders');
    expect(lines.map((l) => /Leader: (\S+)\tReplicas: (\S+)\tIsr: (\S+)/.exec(l)?.slice(1).join(' '))).toEqual([
      '0 0,1 0,1',
      '0 0,1 0',
      'none 0,1 0',
      '1 0,1 1',
      '1 0,1 1,0',
    ]);
  });

  it('a one-replica topic without a controller: each partition its broker’s, in partition order; no Configs', () => {
    const trace = traceOf('lost-ack-idempotent');
    const r = describeTopicAt(stateAt(trace, trace.steps.length), trace.scenario, 'orders');
    expect(r.kind === 'described' && r.description.partitions.map((p) => [p.partition, p.leader, p.replicas, p.isr])).toEqual([
      [0, '0', ['0'], ['0']],
    ]);
    expect(describeTopicText(r).split('\n')[0]).toBe('Topic: orders\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: ');
  });

  it('Configs: the topic’s own values, then a broker’s static value of a synonym the topic does not set, by name; the internal topics’ creation configs', () => {
    const scenario: Pick<Scenario, 'cluster' | 'topics'> = {
      cluster: { 'min.insync.replicas': 2 },
      topics: [
        { name: 'a', config: { 'unclean.leader.election.enable': true, 'cleanup.policy': 'compact' } },
        { name: 'b', config: { 'min.insync.replicas': 1 } },
      ],
    };
    expect(nonDefaultConfigs(scenario, 'a')).toEqual([
      'cleanup.policy=compact',
      'min.insync.replicas=2',
      'unclean.leader.election.enable=true',
    ]);
    expect(nonDefaultConfigs(scenario, 'b')).toEqual(['min.insync.replicas=1']);
    expect(nonDefaultConfigs({ topics: [{ name: 'c' }] }, 'c')).toEqual([]);
    // the internal topics: the configs their coordinators create them with
    expect(nonDefaultConfigs({ topics: [], cluster: { 'transaction.state.log.min.isr': 1 } }, '__transaction_state')).toEqual([
      'cleanup.policy=compact',
      'compression.type=uncompressed',
      'min.insync.replicas=1',
      'segment.bytes=104857600',
      'unclean.leader.election.enable=false',
    ]);
    expect(nonDefaultConfigs({ topics: [] }, '__consumer_offsets')).toEqual([
      'cleanup.policy=compact',
      'compression.type=producer',
      'segment.bytes=104857600',
    ]);
  });

  it('a topic the cluster does not have: the tool’s error', () => {
    const trace = traceOf('lost-ack-idempotent');
    const r = describeTopicAt(stateAt(trace, 0), trace.scenario, 'nope');
    expect(describeTopicText(r)).toBe("Error while executing topic command : Topic 'nope' does not exist as expected");
  });
});
