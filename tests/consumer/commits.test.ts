/** commits.ts (ConsumerCoordinator's offsets): ordering, retries, the auto-commit timer, onJoinPrepare's end, OffsetFetch. */
import { describe, expect, it } from 'vitest';
import {
  commit,
  commitFailed,
  endsJoinPrepare,
  maybeAutoCommit,
  needsJoinPrepare,
  onCommitRetry,
  onCommitSync,
  onOffsetFetchResponse,
  onPoll,
  requestOffsets,
} from '../../src/sim/consumer/commits';
import type { PendingCommit } from '../../src/sim/consumer/consumerContext';
import { appCall, context, replies, response, run, sent, timers, tp0, tp1 } from './fixture';

const member = { memberId: 'c-0', generationId: 2, assignment: [tp0], positions: { 't-0': 5 } };
const inFlight = (purpose: PendingCommit['purpose'], deadline = 1000): PendingCommit => ({
  correlationId: 7,
  generationId: 2,
  memberId: 'c-0',
  offsets: [{ ...tp0, offset: 5 }],
  waiter: purpose === 'sync' ? 'c.app' : null,
  purpose,
  attempts: 0,
  deadline,
});

describe('commits', () => {
  it('one OffsetCommit in flight at a time: the next waits; a newer auto-commit does not replace a waiting commitSync', () => {
    const { d, effects } = run(context({}, 1, member), (d, out) => {
      commit(d, out, [{ ...tp0, offset: 5 }], null, 'auto', 0);
      commit(d, out, [{ ...tp0, offset: 6 }], 'c.app', 'sync', 0);
      commit(d, out, [{ ...tp0, offset: 7 }], null, 'auto', 0);
    });
    expect(sent(effects).map((s) => s.rpc)).toEqual(['OffsetCommit']);
    expect(d.commitInFlight?.offsets).toEqual([{ ...tp0, offset: 5 }]);
    expect(d.commitQueued).toMatchObject({ purpose: 'sync', offsets: [{ ...tp0, offset: 6 }] });
  });

  it('commitSync() with nothing consumed returns at once, without a request and whatever the generation (commitOffsetsSync: offsets.isEmpty())', () => {
    for (const ctx of [context(), context({}, 1, { ...member, positions: {} })]) {
      const { d, effects } = run(ctx, (draft, out) =>
        onCommitSync(draft, { type: 'commitSync', from: 'c.app', args: {}, now: 0 } as never, out),
      );
      expect(sent(effects)).toEqual([]);
      expect(replies(effects)).toEqual([{ call: 'commitSync', ok: true, error: null }]);
      expect(d.commitInFlight).toBeNull();
    }
  });

  it('a member without a generation sends nothing: commitSync fails with CommitFailedException', () => {
    const { effects } = run(context(), (d, out) => commit(d, out, [{ ...tp0, offset: 1 }], 'c.app', 'sync', 0));
    expect(sent(effects)).toEqual([]);
    expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'CommitFailedException' }]);
  });

  it('onCommitRetry builds the request anew: the generation and member id as they are now (sendOffsetCommitRequest reads generationIfStable() each attempt)', () => {
    const { effects } = run(
      context({}, 1, { ...member, generationId: 3, memberId: 'c-1', commitInFlight: inFlight('sync', 60000) }),
      (d, out) => onCommitRetry(d, out, 100),
    );
    expect(sent(effects)).toMatchObject([{ rpc: 'OffsetCommit', generationId: 3, memberId: 'c-1', offsets: [{ ...tp0, offset: 5 }] }]);
  });

  it('onCommitRetry after the generation was reset sends nothing: commitSync fails with CommitFailedException, and so does the commit queued behind it', () => {
    const queued = { ...inFlight('auto'), correlationId: 8 };
    const reset = { ...member, generationId: -1, memberId: '', commitInFlight: inFlight('sync', 60000), commitQueued: queued };
    const { d, effects } = run(context({}, 1, reset), (d, out) => onCommitRetry(d, out, 100));
    // neither the retry nor the queued auto-commit finds a generation (sendOffsetCommitRequest builds each when it is sent)
    expect(sent(effects)).toEqual([]);
    expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'CommitFailedException' }]);
    expect(d).toMatchObject({ commitInFlight: null, commitQueued: null });
  });

  it('endsJoinPrepare: an answer or a non-retriable error ends it; a retriable one only past the rebalance timeout', () => {
    const ctx = context({}, 1, { ...member, commitInFlight: inFlight('joinPrepare', 1000) });
    expect(endsJoinPrepare(ctx, 7, 'NONE', 10)).toBe(true);
    expect(endsJoinPrepare(ctx, 7, 'ILLEGAL_GENERATION', 10)).toBe(true);
    expect(endsJoinPrepare(ctx, 7, 'COORDINATOR_NOT_AVAILABLE', 10)).toBe(false);
    expect(endsJoinPrepare(ctx, 7, 'COORDINATOR_NOT_AVAILABLE', 1000)).toBe(true);
    expect(endsJoinPrepare(ctx, 8, 'NONE', 10)).toBe(false);
    expect(endsJoinPrepare({ ...ctx, commitInFlight: inFlight('auto') }, 7, 'NONE', 10)).toBe(false);
  });

  it('commitFailed: commitSync retries with exponential backoff until its deadline, then TimeoutException', () => {
    const retry = run(context({}, 1, { ...member, commitInFlight: inFlight('sync', 60000) }), (d, out) =>
      commitFailed(d, out, inFlight('sync', 60000), 'NOT_COORDINATOR', 10),
    );
    expect(timers(retry.effects)).toEqual([{ name: 'commitRetry', delay: 100 }]);
    expect(retry.d.commitInFlight?.attempts).toBe(1);
    const late = run(context({}, 1, { ...member, commitInFlight: inFlight('sync', 60000) }), (d, out) =>
      commitFailed(d, out, inFlight('sync', 60000), 'NOT_COORDINATOR', 60000),
    );
    expect(replies(late.effects)).toEqual([{ call: 'commitSync', ok: false, error: 'TimeoutException' }]);
    expect(late.d.commitInFlight).toBeNull();
  });

  it('commitFailed: ILLEGAL_GENERATION of the current generation makes the member rejoin at its next poll()', () => {
    const { d } = run(context({}, 1, { ...member, commitInFlight: inFlight('auto') }), (d, out) =>
      commitFailed(d, out, inFlight('auto'), 'ILLEGAL_GENERATION', 10),
    );
    expect(d).toMatchObject({ generationId: -1, rejoinNeeded: true, commitInFlight: null });
  });

  describe('OffsetCommitResponseHandler: UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION of a generation the member has left', () => {
    // the commit went out in generation 2; the member is now in generation 3
    const moved = { ...member, generationId: 3 };

    it('while it rejoins (PREPARING_REBALANCE): commitSync throws RebalanceInProgressException and the member keeps its state', () => {
      const { d, effects } = run(context({}, 1, { ...moved, commitInFlight: inFlight('sync') }), (d, out) =>
        commitFailed(d, out, inFlight('sync'), 'UNKNOWN_MEMBER_ID', 10, 'PREPARING_REBALANCE'),
      );
      expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'RebalanceInProgressException' }]);
      expect(d).toMatchObject({ memberId: 'c-0', generationId: 3, rejoinNeeded: false, commitInFlight: null });
    });

    it('otherwise (a stable member of the new generation): the state is reset and the member rejoins; CommitFailedException', () => {
      const { d, effects } = run(context({}, 1, { ...moved, commitInFlight: inFlight('sync') }), (d, out) =>
        commitFailed(d, out, inFlight('sync'), 'UNKNOWN_MEMBER_ID', 10, 'STABLE'),
      );
      expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'CommitFailedException' }]);
      expect(d).toMatchObject({ memberId: '', generationId: -1, rejoinNeeded: true });
      // ILLEGAL_GENERATION keeps the member id (resetStateOnResponseError(…, shouldResetMemberId = false))
      const illegal = run(context({}, 1, { ...moved, commitInFlight: inFlight('auto') }), (d, out) =>
        commitFailed(d, out, inFlight('auto'), 'ILLEGAL_GENERATION', 10, 'STABLE'),
      );
      expect(illegal.d).toMatchObject({ memberId: 'c-0', generationId: -1, rejoinNeeded: true });
    });

    it('REBALANCE_IN_PROGRESS asks to rejoin whatever the generation, and keeps it', () => {
      const { d, effects } = run(context({}, 1, { ...moved, commitInFlight: inFlight('sync') }), (d, out) =>
        commitFailed(d, out, inFlight('sync'), 'REBALANCE_IN_PROGRESS', 10, 'STABLE'),
      );
      expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'RebalanceInProgressException' }]);
      expect(d).toMatchObject({ memberId: 'c-0', generationId: 3, rejoinNeeded: true });
    });
  });

  it('maybeAutoCommit commits the consumed positions only once nextAutoCommitTimer expired, and re-arms it', () => {
    const ctx = context({ 'enable.auto.commit': true }, 1, { ...member, nextAutoCommitAt: 5000 });
    expect(sent(run(ctx, (d, out) => maybeAutoCommit(d, 4999, out)).effects)).toEqual([]);
    const due = run(ctx, (d, out) => maybeAutoCommit(d, 5000, out));
    expect(sent(due.effects)).toMatchObject([{ rpc: 'OffsetCommit', offsets: [{ ...tp0, offset: 5 }] }]);
    expect(due.d.nextAutoCommitAt).toBe(10000);
  });

  it('needsJoinPrepare: auto-commit on, a member id and a consumed position', () => {
    expect(needsJoinPrepare(context({ 'enable.auto.commit': true }, 1, member))).toBe(true);
    expect(needsJoinPrepare(context({ 'enable.auto.commit': false }, 1, member))).toBe(false);
    expect(needsJoinPrepare(context({ 'enable.auto.commit': true }, 1, { ...member, positions: {} }))).toBe(false);
  });

  it('onPoll auto-commits when due, then fetches and waits for records (the auto-commit timer stands in for the poll loop)', () => {
    const { d, effects } = run(context({ 'enable.auto.commit': true }, 1, { ...member, nextAutoCommitAt: 100 }), (d, out) =>
      onPoll(d, appCall('poll', {}, 200), out),
    );
    expect(d.pollWaiting).toBe('c.app');
    // ConsumerCoordinator.poll's auto-commit, then pollForFetches' sendFetches
    expect(sent(effects).map((s) => s.rpc)).toEqual(['OffsetCommit', 'Fetch']);
  });

  it('requestOffsets asks the committed offsets of the partitions without a position (requireStable); the answer sets positions or resets', () => {
    const ctx = context({ 'auto.offset.reset': 'earliest' }, 2, { ...member, assignment: [tp0, tp1], positions: {} });
    const asked = run(ctx, requestOffsets);
    expect(sent(asked.effects)).toMatchObject([{ rpc: 'OffsetFetch', partitions: [tp0, tp1], requireStable: true }]);
    const offsets = [
      { ...tp0, offset: 3, error: 'NONE' },
      { ...tp1, offset: -1, error: 'NONE' },
    ] as const;
    const answered = run(asked.d, (d, out) =>
      onOffsetFetchResponse(
        d,
        response('OffsetFetchResponse', { correlationId: asked.d.offsetsRequest as number, error: 'NONE', offsets }),
        out,
      ),
    );
    expect(answered.d.positions).toEqual({ 't-0': 3 });
    expect(answered.d.knownCommitted).toEqual({ 't-0': 3 });
    // no poll() waits: t-1 awaits its reset and t-0 is fetched from, both at the next poll()
    expect(sent(answered.effects)).toEqual([]);
    expect(answered.d.resetTo).toEqual({ 't-1': 'earliest' });
    const inPoll = run({ ...asked.d, pollWaiting: 'c.app' }, (d, out) =>
      onOffsetFetchResponse(
        d,
        response('OffsetFetchResponse', { correlationId: asked.d.offsetsRequest as number, error: 'NONE', offsets }),
        out,
      ),
    );
    expect(sent(inPoll.effects).map((s) => s.rpc)).toEqual(['ListOffsets', 'Fetch']);
  });

  it('UNSTABLE_OFFSET_COMMIT: asked again after retry.backoff.ms', () => {
    const ctx = context({}, 1, { ...member, positions: {}, offsetsRequest: 4 });
    const { d, effects } = run(ctx, (d, out) =>
      onOffsetFetchResponse(d, response('OffsetFetchResponse', { correlationId: 4, error: 'UNSTABLE_OFFSET_COMMIT', offsets: [] }), out),
    );
    expect(d.offsetsRequest).toBeNull();
    expect(timers(effects)).toEqual([{ name: 'offsetsRetry', delay: 100 }]);
  });
});
