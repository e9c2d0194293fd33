/**
 * A commit that waits behind the one in flight is built when it is sent: Kafka's
 * ConsumerCoordinator.sendOffsetCommitRequest reads generationIfStable() as it builds the request, so
 * the queued commit carries the generation and member id of that moment — and with none (a heartbeat's
 * answer or the refusal ahead of it reset the member) it fails with CommitFailedException without a
 * request. On the old model the queued commit kept the generation it was queued with.
 */
import { describe, expect, it } from 'vitest';
import { commit, endsCloseCommit, endsJoinPrepare, onOffsetCommitResponse, queuedRefusalNote } from '../../src/sim/consumer/commits';
import type { ConsumerContext } from '../../src/sim/consumer/consumerContext';
import type { EventOf } from '../../src/sim/consumer/events';
import { translateNote } from '../../src/sim/narration/notes';
import { replies, response, run, sent, tp0 } from './fixture';
import { autoThen } from './queuedCommits';

const answered = (ctx: ConsumerContext, error: string) =>
  run(ctx, (d, out) =>
    onOffsetCommitResponse(
      d,
      response(
        'OffsetCommitResponse',
        { correlationId: ctx.commitInFlight?.correlationId, error },
        50,
      ) as unknown as EventOf<'OffsetCommitResponse'>,
      out,
    ),
  );

describe('a queued commit is built when it is sent', () => {
  it('it carries the generation and member id the member has when its turn comes', () => {
    const queued = autoThen((d, out) => commit(d, out, [{ ...tp0, offset: 6 }], 'c.app', 'sync', 0));
    // the member moved to generation 3 meanwhile (a rebalance completed)
    const { effects } = answered({ ...queued, generationId: 3, memberId: 'c-1' }, 'NONE');
    expect(sent(effects)).toMatchObject([{ rpc: 'OffsetCommit', generationId: 3, memberId: 'c-1', offsets: [{ ...tp0, offset: 6 }] }]);
  });

  it('with no generation by then (a heartbeat answered UNKNOWN_MEMBER_ID) it sends nothing: commitSync() throws CommitFailedException', () => {
    const queued = autoThen((d, out) => commit(d, out, [{ ...tp0, offset: 6 }], 'c.app', 'sync', 0));
    const { d, effects } = answered({ ...queued, generationId: -1, memberId: '' }, 'NONE');
    expect(sent(effects)).toEqual([]);
    expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'CommitFailedException' }]);
    expect(d.commitInFlight).toBeNull();
    expect(effects).toContainEqual(
      expect.objectContaining({ type: 'fact', fact: expect.objectContaining({ kind: 'note', text: queuedRefusalNote('sync') }) }),
    );
  });

  it('the refusal ahead of it (ILLEGAL_GENERATION) resets the member: the queued commit fails unsent instead of a second refusal', () => {
    const queued = autoThen((d, out) => commit(d, out, [{ ...tp0, offset: 6 }], 'c.app', 'sync', 0));
    const { effects } = answered(queued, 'ILLEGAL_GENERATION');
    expect(sent(effects)).toEqual([]);
    expect(replies(effects)).toEqual([{ call: 'commitSync', ok: false, error: 'CommitFailedException' }]);
  });

  it("endsJoinPrepare / endsCloseCommit: onJoinPrepare's or close()'s commit queued behind a refused one ends with it", () => {
    const joinPrepare = autoThen((d, out) => commit(d, out, [{ ...tp0, offset: 5 }], null, 'joinPrepare', 0));
    const auto = joinPrepare.commitInFlight?.correlationId as number;
    expect(endsJoinPrepare(joinPrepare, auto, 'ILLEGAL_GENERATION', 50)).toBe(true);
    // the auto-commit succeeded: onJoinPrepare's commit goes out, it is not over
    expect(endsJoinPrepare(joinPrepare, auto, 'NONE', 50)).toBe(false);
    const close = autoThen((d, out) => commit(d, out, [{ ...tp0, offset: 5 }], null, 'close', 0));
    expect(endsCloseCommit(close, auto, 'UNKNOWN_MEMBER_ID', 50)).toBe(true);
    expect(endsCloseCommit({ ...close, generationId: -1 }, auto, 'NONE', 50)).toBe(true);
    expect(endsCloseCommit(close, auto, 'NONE', 50)).toBe(false);
  });

  it('the note reads in both languages', () => {
    expect(translateNote(queuedRefusalNote('sync'), 'ko')).toBe(
      'commitSync()는 진행 중인 커밋 뒤에서 기다렸습니다. 차례가 왔을 때 컨슈머는 더 이상 활성 그룹의 멤버가 아니었으므로 요청을 보내지 않고 CommitFailedException으로 실패합니다',
    );
    expect(translateNote(queuedRefusalNote('auto'), 'ko')).toMatch(/^자동 커밋은 /);
  });
});
