// @vitest-environment happy-dom
/**
 * Replication on the page (happy-dom), from ReplicationRow fixtures until the engine produces them:
 * the partition lanes name the leader and leader epoch (or "offline") in the gutter and say replicas,
 * ISR and truncations in their text alternative; the legend explains the replica marks only when a
 * partition is replicated; a broker's injection actions are the broker's (crash / restart broker,
 * slow replication link).
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import type { Trace } from '../../src/sim/views';
import { simStore } from '../../src/store/simStore';
import { ActorActions } from '../../src/ui/inject/ActorActions';
import { ModelNotes } from '../../src/ui/layout/ModelNotes';
import { LanesLegend } from '../../src/ui/timeline/Legend';
import { buildLane } from '../../src/ui/timeline/laneModel';
import { PartitionLanes } from '../../src/ui/timeline/PartitionLanes';
import { timelineStrings } from '../../src/ui/timeline/timelineText';
import { failedOver, offline, partitionRow } from '../timeline/replicationFixtures';
import { pageInDom } from './pageInDom';

const page = pageInDom();

describe('replicated partitions on the page', () => {
  it('the lanes say leader and leader epoch, offline, replicas, ISR and truncations', async () => {
    const lanes = [
      buildLane(partitionRow(failedOver, 'orders', 0)),
      buildLane(partitionRow(offline, 'orders', 1)),
      buildLane(partitionRow(null, 'orders', 2)),
    ];
    page.render(
      createElement('div', null, [
        createElement(PartitionLanes, { key: 'l', lanes, extents: new Map(), selection: null, onSelect: () => {} }),
        createElement(LanesLegend, { key: 'g', replicated: true }),
      ]),
    );
    await page.settle();
    const leaders = [...page.host.querySelectorAll('.tl-lane-leader')].map((e) => e.textContent);
    expect(leaders).toEqual(['leader broker-1 · epoch 4', 'offline: no leader', 'on broker-1']);
    const alt = (key: string) => page.host.querySelector(`[data-lane="${key}"]`)?.getAttribute('aria-label') ?? '';
    expect(alt('orders-0')).toContain('leader broker-1, leader epoch 4; ISR broker-1, broker-2 (min.insync.replicas 2)');
    expect(alt('orders-0')).toContain('broker-0 truncated offsets 5–6 by leader epoch 4');
    expect(alt('orders-1')).toContain('offline: no leader (LEADER_NOT_AVAILABLE)');
    expect(alt('orders-2')).not.toContain('ISR');
    const legend = [...page.host.querySelectorAll('.tl-legend li')].map((e) => e.textContent);
    expect(legend).toContain('replica out of the ISR (dashed, hollow)');
    expect(legend).toContain('truncated record (dashed, struck through)');
  });

  it('the legend leaves the replica marks out when nothing is replicated', async () => {
    page.render(createElement(LanesLegend, { text: timelineStrings('ko') }));
    await page.settle();
    const legend = [...page.host.querySelectorAll('.tl-legend li')].map((e) => e.textContent);
    expect(legend.length).toBeGreaterThan(5);
    expect(legend).not.toContain(timelineStrings('ko').legendTruncated);
  });

  it("a broker's actions are the broker's: crash broker, restart broker, slow replication link", async () => {
    // a cluster of three (with one broker there is no follower to slow: tests/ui/slowReplicationOffer.dom.test.ts)
    const preset = findPreset('acks-1-leader-failover-loss');
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    await page.settle(30);
    page.render(createElement(ActorActions, { actorId: 'broker-1' }));
    await page.settle();
    const buttons = [...page.host.querySelectorAll('button')].map((b) => b.textContent);
    expect(buttons).toEqual(expect.arrayContaining(['Crash broker', 'Restart broker', 'Slow replication link']));
    expect(page.host.querySelector('[data-testid="replication-actions"]')?.textContent).toContain('replica.lag.time.max.ms');
    page.render(createElement(ActorActions, { actorId: 'orders-service' }));
    await page.settle();
    const client = [...page.host.querySelectorAll('button')].map((b) => b.textContent);
    expect(client).toContain('Crash');
    expect(client).not.toContain('Slow replication link');
  });
});

describe('the model notes', () => {
  const trace = (processes: string[], cluster: Record<string, unknown> = {}) =>
    ({
      resolved: {
        cluster: {
          'transaction.version': 2,
          'transaction.partition.verification.enable': true,
          'transaction.state.log.num.partitions': 3,
          'offsets.topic.num.partitions': 3,
          ...cluster,
        },
        producers: {},
        streams: {},
        scenario: { cluster },
      },
      built: { processes: processes.map((id) => ({ id, kind: id.startsWith('broker') ? 'broker' : 'controller' })) },
    }) as unknown as Trace;

  it('say replication is modelled when the run has a KRaft controller, and one replica per partition otherwise', async () => {
    page.render(createElement(ModelNotes, { trace: trace(['broker-0', 'broker-1', 'controller']) }));
    await page.settle();
    const first = () => page.host.querySelector('[data-testid="model-notes"] li')?.textContent ?? '';
    expect(first()).toMatch(/^Replication \(KRaft\) is modelled for topics with replicationFactor/);
    expect(first()).toContain('__transaction_state and __consumer_offsets keep one replica');
    page.render(createElement(ModelNotes, { trace: trace(['broker-0']) }));
    await page.settle();
    expect(first()).toMatch(/^One replica per partition in this run/);
  });

  it('say how many partitions the run’s internal topics have, and where one-replica coordinators live', async () => {
    const items = () => [...page.host.querySelectorAll('[data-testid="model-notes"] li')].map((li) => li.textContent ?? '');
    page.render(createElement(ModelNotes, { trace: trace(['broker-0']) }));
    await page.settle();
    expect(items()[0]).toContain('__transaction_state and __consumer_offsets keep one replica (their coordinators are fixed processes)');
    expect(items()[1]).toMatch(/^__transaction_state has 3 partitions and __consumer_offsets 3 partitions/);
    page.render(
      createElement(ModelNotes, {
        trace: trace(['broker-0'], { 'transaction.state.log.num.partitions': 1, 'offsets.topic.num.partitions': 7 }),
      }),
    );
    await page.settle();
    expect(items()[1]).toMatch(/^__transaction_state has 1 partition and __consumer_offsets 7 partitions/);
    expect(items().join(' ')).not.toContain('3 partitions, not 50');
  });

  it('say where the coordinators live when the scenario replicates the internal topics', async () => {
    const first = () => page.host.querySelector('[data-testid="model-notes"] li')?.textContent ?? '';
    page.render(createElement(ModelNotes, { trace: trace(['broker-0', 'controller'], { 'transaction.state.log.replication.factor': 3 }) }));
    await page.settle();
    expect(first()).toContain('__transaction_state is replicated too (transaction.state.log.replication.factor)');
    expect(first()).toContain('__consumer_offsets keeps one replica');
    page.render(
      createElement(ModelNotes, {
        trace: trace(['broker-0', 'controller'], { 'transaction.state.log.replication.factor': 3, 'offsets.topic.replication.factor': 3 }),
      }),
    );
    await page.settle();
    expect(first()).toContain('each coordinator lives on the leader of its partition and moves with it');
    expect(first()).not.toContain('keep one replica');
  });
});
