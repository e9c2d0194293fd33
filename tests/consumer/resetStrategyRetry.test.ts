/**
 * A partition whose position is being reset keeps the reset asked for (SubscriptionState: AWAIT_RESET
 * with its resetStrategy): a ListOffsets answered NOT_LEADER_OR_FOLLOWER or OFFSET_NOT_AVAILABLE is
 * asked again for the same one — seekToBeginning's earliest, whatever auto.offset.reset says. Before,
 * the retry took auto.offset.reset's, so a seekToBeginning that met a leader change read from the end.
 */
import { describe, expect, it } from 'vitest';
import { onListOffsetsResponse, resetPositionsIfNeeded } from '../../src/sim/consumer/offsetFetcher';
import { onSeekToBeginning } from '../../src/sim/consumer/positions';
import { appCall, context, response, run, sent, tp0 } from './fixture';

describe('a reset retried after an error answer asks for the same reset', () => {
  it.each(['latest', 'none'])('seekToBeginning with auto.offset.reset=%s: the retry asks for earliest again', (policy) => {
    const member = context({ 'auto.offset.reset': policy }, 1, {
      memberId: 'c-0',
      generationId: 1,
      assignment: [tp0],
      positions: { 't-0': 7 },
      pollWaiting: 'c.app',
    });
    const seek = run(member, (d, out) => {
      onSeekToBeginning(d, appCall('seekToBeginning', {}) as never, out);
      resetPositionsIfNeeded(d, 0, out);
    });
    const asked = sent(seek.effects).find((s) => s.rpc === 'ListOffsets');
    expect(asked).toMatchObject({ partitions: [{ timestamp: -2 }] });
    const refused = run(seek.d, (d, out) =>
      onListOffsetsResponse(
        d,
        response('ListOffsetsResponse', {
          correlationId: asked?.correlationId as number,
          partitions: [{ ...tp0, error: 'NOT_LEADER_OR_FOLLOWER', offset: -1 }],
        }) as never,
        out,
      ),
    );
    expect(refused.d.resetTo).toEqual({ 't-0': 'earliest' });
    // the first pass of poll() after retry.backoff.ms asks again
    const again = run(refused.d, (d, out) => resetPositionsIfNeeded(d, 100, out));
    expect(sent(again.effects)).toMatchObject([{ rpc: 'ListOffsets', partitions: [{ timestamp: -2 }] }]);
  });
});
