/**
 * Where the message diagram's tooltip reads an envelope's payload: its model carries none
 * (mscModel.ts, `MscEnvelope`). The embed's diagram comes from the engine's worker (a trace rebuilds each payload by
 * replaying the step that sent it, so sending them all would cost a second run), and its tooltip
 * asks for the one envelope it shows (src/embed/payloadCache.ts). The page's diagram reads them from
 * its trace (`tracePayloadsOf`): there, one comes at once.
 */
import type { Trace } from '../../sim/views';
import { perTrace } from '../perTrace';

export interface EnvelopePayloads {
  /** Envelope `id`'s payload once it has come; undefined until then (the first call asks for it). */
  get(id: number): Readonly<Record<string, unknown>> | undefined;
  /** Calls `listener` whenever a payload comes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** The page's payloads: from its trace, at once (it rebuilds one by replaying the step that sent it). */
export const tracePayloadsOf = perTrace(
  (trace: Trace): EnvelopePayloads => ({
    get: (id) => trace.envelopes.at(id)?.payload ?? {},
    subscribe: () => () => undefined,
  }),
);
