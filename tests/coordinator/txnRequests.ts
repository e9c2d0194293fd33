/**
 * What the transaction coordinator's request tests share: a scenario with producer `p`
 * (transactional.id `tx`) and topic `t`, requests from it with fresh envelope and correlation ids,
 * the coordinator's reply of one type among a step's effects, and the broker's acknowledgement of
 * the WriteTxnMarkers it sent (every marker of producer 1000 on t-0 written).
 */
import type { Effect } from '../../src/sim/kernel/effects';

export const txnScenario = (protocol: 1 | 2 = 1, partitions = 1) => ({
  version: 1,
  seed: 1,
  cluster: { 'transaction.version': protocol },
  topics: [{ name: 't', partitions }],
  clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] }],
});

let envelope = 100;

/** A request from producer `p` for transactional.id `tx` (the payload may override it). */
export const txnRequest = (type: string, payload: Record<string, unknown>) => ({
  type,
  from: 'p.producer',
  envelopeId: envelope,
  inReplyTo: null,
  payload: { correlationId: envelope++, transactionalId: 'tx', ...payload },
});

/** The payload of the first `rpc` the coordinator sent among `fx`. */
export const replyOf = <T>(fx: readonly Effect[], rpc: string): T | undefined =>
  fx.flatMap((e) => (e.type === 'send' && e.rpc === rpc ? [e.payload as unknown as T] : []))[0];

/** The broker's answer to the WriteTxnMarkers among `fx`: every marker written. */
export const markersAcked = (fx: readonly Effect[]) => {
  const sent = fx.find((e) => e.type === 'send' && e.rpc === 'WriteTxnMarkers') as unknown as {
    to: string;
    payload: { correlationId: number };
  };
  return {
    type: 'WriteTxnMarkersResponse',
    from: sent.to,
    envelopeId: envelope++,
    inReplyTo: 0,
    payload: {
      correlationId: sent.payload.correlationId,
      markers: [{ producerId: 1000, partitions: [{ topic: 't', partition: 0, error: 'NONE' }] }],
    },
  };
};
