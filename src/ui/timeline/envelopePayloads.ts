/**
 * Where the message diagram reads an envelope's payload when its model carries none. The embed's
 * diagram comes from the engine's worker without payloads (a trace rebuilds each payload by
 * replaying the step that sent it, so sending them all would cost a second run), and its tooltip
 * asks for the one envelope it shows (src/embed/payloadCache.ts). The page's diagram reads them from
 * its trace and needs none.
 */
export interface EnvelopePayloads {
  /** Envelope `id`'s payload once it has come; undefined until then (the first call asks for it). */
  get(id: number): Readonly<Record<string, unknown>> | undefined;
  /** Calls `listener` whenever a payload comes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}
