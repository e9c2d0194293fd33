/**
 * A commit built while the member rebalances: ConsumerCoordinator.sendOffsetCommitRequest reads
 * generationIfStable(), null unless MemberState.STABLE; with `rebalanceInProgress()` (PREPARING_ or
 * COMPLETING_REBALANCE) it fails with RebalanceInProgressException without a request ("Offset commit
 * cannot be completed since the consumer is undergoing a rebalance…"), else CommitFailedException.
 * On the old model a queued commit whose turn came during the SyncGroup went out with the new
 * generation (the coordinator answers REBALANCE_IN_PROGRESS in CompletingRebalance: a rejoin), one
 * during the JoinGroup after a reset failed with CommitFailedException, and commitSync() during the
 * SyncGroup was never answered.
 */
import { describe, expect, it } from 'vitest';
import { commit, onCommitRetry, onOffsetCommitResponse, queuedRefusalNote } from '../../src/sim/consumer/commits';
import { membershipState } from '../../src/sim/consumer/consumer.machine';
import type { ConsumerContext, Draft } from '../../src/sim/consumer/consumerContext';
import type { EventOf } from '../../src/sim/consumer/events';
import type { Effect } from '../../src/sim/kernel/effects';
import { translateNote } from '../../src/sim/narration/notes';
import { bootAndPoll, joinedAsLeader } from '../machines/consumerDriver';
import { inputOf } from '../machines/harness';
import { context, replies, response, run, sent, tp0 } from './fixture';
import { autoThen, generation2 } from './queuedCommits';

const answeredIn = (ctx: ConsumerContext, state: 'PREPARING_REBALANCE' | 'COMPLETING_REBALANCE') =>
  run(ctx, (d, out) =>
    onOffsetCommitResponse(
      d,
      response(
        'OffsetCommitResponse',
        { correlationId: ctx.commitInFlight?.correlationId, error: 'NONE' },
        50,
      ) as unknown as EventOf<'OffsetCommitResponse'>,
      out,
      state,
    ),
  );

const clientErrors = (effects: readonly Effect[]) =>
  effects.flatMap((e) => (e.type === 'fact' && e.fact.kind === 'clientError' ? [(e.fact as { error?: string }).error] : []));

describe('a commit built while the member rebalances fails with RebalanceInProgressException, unsent', () => {
  it('a queued commit whose turn comes during the SyncGroup (the new generation taken) is not sent', () => {
    const queued = autoThen((d, out) => commit(d, out, [{ ...tp0, offset: 6 }], 'c.app', 'sync', 0));
    // the JoinGroup answer gave generation 3; the SyncGroup is in flight
    const { d, effects } = answeredIn({ ...queued, generationId: 3, memberId: 'c-0' }, 'COMPLETING_REBALANCE');
    expect(sent(effects)).toEqual([]);
    expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'RebalanceInProgressException' }]);
    expect(d).toMatchObject({ commitInFlight: null, commitQueued: null });
    expect(effects).toContainEqual(
      expect.objectContaining({
        type: 'fact',
        fact: expect.objectContaining({ kind: 'note', text: queuedRefusalNote('sync', 'RebalanceInProgressException') }),
      }),
    );
  });

  it('…and during the JoinGroup, its generation reset, an auto-commit fails with RebalanceInProgressException, not CommitFailedException', () => {
    const queued = autoThen((d, out) => {
      d.commitQueued = { ...(d.commitInFlight as NonNullable<Draft['commitInFlight']>), correlationId: 9 };
      void out;
    });
    const { effects } = answeredIn({ ...queued, generationId: -1, memberId: '' }, 'PREPARING_REBALANCE');
    expect(sent(effects)).toEqual([]);
    expect(clientErrors(effects)).toEqual(['RebalanceInProgressException']);
  });

  it("a commitSync()'s retry that falls due during a rebalance is not sent", () => {
    const ctx = run(context({}, 1, generation2), (d, out) => commit(d, out, [{ ...tp0, offset: 5 }], 'c.app', 'sync', 0)).d;
    const { effects } = run(ctx, (d, out) => onCommitRetry(d, out, 100, 'PREPARING_REBALANCE'));
    expect(sent(effects)).toEqual([]);
    expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'RebalanceInProgressException' }]);
  });

  it('the application calls commitSync(offsets) while the SyncGroup is in flight: RebalanceInProgressException at once', () => {
    const { m } = joinedAsLeader(inputOf(scenarioOf(), 'c.consumer'));
    expect(membershipState(m.state())).toBe('COMPLETING_REBALANCE');
    const fx = m.send({ type: 'commitSync', from: 'c.app', args: { offsets: [{ ...tp0, offset: 3 }] } }, 12);
    expect(fx.filter((e) => e.type === 'send')).toEqual([]);
    expect(replies(fx)).toEqual([{ call: 'commitSync', ok: false, error: 'RebalanceInProgressException' }]);
    expect(clientErrors(fx)).toEqual(['RebalanceInProgressException']);
  });

  it('commitSync() with nothing consumed during a rebalance succeeds without a request (commitOffsetsSync: offsets.isEmpty())', () => {
    // rebalancing: the JoinGroup of the first poll() in flight
    const { m } = bootAndPoll(inputOf(scenarioOf(), 'c.consumer'));
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    expect(replies(m.send({ type: 'commitSync', from: 'c.app', args: {} }, 1))).toEqual([{ call: 'commitSync', ok: true, error: null }]);
    const fx = m.send({ type: 'commitSync', from: 'c.app', args: { offsets: [{ ...tp0, offset: 3 }] } }, 2);
    expect(replies(fx)).toEqual([{ call: 'commitSync', ok: false, error: 'RebalanceInProgressException' }]);
  });

  it('the note reads in both languages', () => {
    expect(translateNote(queuedRefusalNote('auto', 'RebalanceInProgressException'), 'ko')).toBe(
      '자동 커밋은 진행 중인 커밋 뒤에서 기다렸습니다. 차례가 왔을 때 컨슈머는 리밸런스 중(JoinGroup 또는 SyncGroup 진행 중)이었으므로 요청을 보내지 않고 RebalanceInProgressException으로 실패합니다',
    );
  });
});

function scenarioOf() {
  return {
    version: 1,
    seed: 1,
    topics: [{ name: 't', partitions: 1 }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['t'] }],
  };
}
