/**
 * The embed's envelope payloads (EnvelopePayloads), read from the engine's worker one at a time as
 * the message diagram's tooltip shows them: the run's diagram crosses the boundary without payloads
 * (embedPanels.ts). One cache per run; the last `keep` payloads are kept, each asked for once.
 */
import type { EnvelopePayload } from '../store/engine/protocol';
import type { EnvelopePayloads } from '../ui/timeline/envelopePayloads';

const EMPTY: EnvelopePayload = Object.freeze({});

export function payloadCache(read: (id: number) => Promise<EnvelopePayload | null>, keep = 64): EnvelopePayloads {
  const known = new Map<number, EnvelopePayload>();
  const asked = new Set<number>();
  const listeners = new Set<() => void>();
  return {
    get(id) {
      const payload = known.get(id);
      if (payload !== undefined || asked.has(id)) return payload;
      asked.add(id);
      void read(id).then((p) => {
        asked.delete(id);
        // null: the worker holds another run by now, or no such envelope; either way nothing to show
        known.set(id, p ?? EMPTY);
        if (known.size > keep) known.delete(known.keys().next().value as number);
        for (const f of listeners) f();
      });
      return undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
