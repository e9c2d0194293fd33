/**
 * KIP-320: what the consumer commits as "the consumed offsets" is SubscriptionState.allConsumed, the
 * positions of the partitions with a valid position (hasValidPosition): a partition in
 * AWAIT_VALIDATION is left out of the auto-commit, onJoinPrepare's and close()'s commits and a
 * commitSync() without offsets. On the old model it was committed with the rest.
 */
import { describe, expect, it } from 'vitest';
import { maybeAutoCommit, needsJoinPrepare, onCommitSync } from '../../src/sim/consumer/commits';
import type { ConsumerContext } from '../../src/sim/consumer/consumerContext';
import type { Awaiting } from '../../src/sim/consumer/positionValidation';
import { narrate } from '../../src/sim/narration';
import { PRESETS } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { appCall, context, run, sent, tp0, tp1 } from './fixture';

const awaiting = (offset: number): Awaiting => ({ offset, offsetEpoch: 0, leaderEpoch: 2, state: 'inFlight', correlationId: 9 });

/** A member of generation 2 at offsets 3 (t-0) and 8 (t-1); `t-0` awaits validation at `awaitingAt`. */
const member = (awaitingAt: number, partitions = 2): ConsumerContext =>
  context({ 'enable.auto.commit': true }, partitions, {
    memberId: 'c-0',
    generationId: 2,
    assignment: partitions === 2 ? [tp0, tp1] : [tp0],
    positions: partitions === 2 ? { 't-0': 3, 't-1': 8 } : { 't-0': 3 },
    nextAutoCommitAt: 0,
    validation: {
      offsetEpochs: { 't-0': { offset: 3, epoch: 0 } },
      leaderEpochs: { 't-0': 2 },
      awaiting: { 't-0': awaiting(awaitingAt) },
      fetched: {},
    },
  });

const committed = (effects: Parameters<typeof sent>[0]) => sent(effects).flatMap((s) => (s.rpc === 'OffsetCommit' ? [s.offsets] : []));

describe('allConsumed: a partition awaiting validation is not committed', () => {
  it('the auto-commit leaves out the partition in AWAIT_VALIDATION', () => {
    const { effects } = run(member(3), (d, out) => maybeAutoCommit(d, 0, out));
    expect(committed(effects)).toEqual([[{ ...tp1, offset: 8 }]]);
  });

  it('commitSync() without offsets leaves it out too (commitSync(allConsumed))', () => {
    const { effects } = run(member(3), (d, out) => onCommitSync(d, appCall('commitSync', {}) as never, out));
    expect(committed(effects)).toEqual([[{ ...tp1, offset: 8 }]]);
  });

  it('a validation left behind by a moved position (a seek) does not hold the new position back', () => {
    const { effects } = run(member(1), (d, out) => maybeAutoCommit(d, 0, out));
    expect(committed(effects)).toEqual([
      [
        { ...tp0, offset: 3, committedLeaderEpoch: 0 },
        { ...tp1, offset: 8 },
      ],
    ]);
  });

  it('with only that partition there is nothing to commit: no auto-commit, no onJoinPrepare commit', () => {
    const ctx = member(3, 1);
    expect(sent(run(ctx, (d, out) => maybeAutoCommit(d, 0, out)).effects)).toEqual([]);
    expect(needsJoinPrepare(ctx)).toBe(false);
  });
});

describe('narration', () => {
  it('the OffsetsForLeaderEpoch step says the partition is neither fetched nor committed until the answer (en, ko)', () => {
    const preset = PRESETS.find((p) => p.id === 'acks-1-leader-failover-loss');
    if (!preset) throw new Error('no preset');
    const t = runScenario(preset.scenario);
    const s = t.steps.find((st) => st.label === 'OffsetsForLeaderEpoch');
    if (!s) throw new Error('no OffsetsForLeaderEpoch step');
    expect(narrate(t, s.i, 'en')).toContain('until the answer it neither fetches nor commits that partition');
    expect(narrate(t, s.i, 'ko')).toContain('답이 올 때까지 그 파티션은 가져오지도 커밋하지도 않습니다');
  });
});
