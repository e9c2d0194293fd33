/**
 * A partition whose position is being reset keeps the reset asked for (SubscriptionState: AWAIT_RESET
 * with its resetStrategy): a ListOffsets answered NOT_LEADER_OR_FOLLOWER or OFFSET_NOT_AVAILABLE is
 * asked again for the same one — seekToBeginning's earliest, whatever auto.offset.reset says. Before,
 * the retry took auto.offset.reset's, so a seekToBeginning that met a leader change read from the end.
 */
import { describe, expect, it } from 'vitest';
import { onListOffsetsResponse, onListOffsetsRetry } from '../../src/sim/consumer/offsetFetcher';
import { onSeekToBeginning } from '../../src/sim/consumer/positions';
import { appCall, context, response, run, sent, tp0 } from './fixture';

describe('a reset retried after an error answer asks for the same reset', () => {
  it.each(['latest', 'none'])('seekToBeginning with auto.offset.reset=%s: the retry asks for earliest again', (policy) => {
    const member = context({ 'auto.offset.reset': policy }, 1, {
      memberId: 'c-0',
      generationId: 1,
      assignment: [tp0],
      positions: { 't-0': 7 },
    });
    const seek = run(member, (d, out) => onSeekToBeginning(d, appCall('seekToBeginning', {}) as never, out));
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
    const retry = refused.effects.find((e) => e.type === 'timer' && e.name === 'listOffsetsRetry') as unknown as {
      data: { payload: { partitions: { timestamp: number }[] } };
    };
    expect(retry.data.payload.partitions.map((p) => p.timestamp)).toEqual([-2]);
    const again = run(refused.d, (d, out) => onListOffsetsRetry(d, { type: 'listOffsetsRetry', now: 100, data: retry.data } as never, out));
    expect(sent(again.effects)).toMatchObject([{ rpc: 'ListOffsets', partitions: [{ timestamp: -2 }] }]);
  });
});
