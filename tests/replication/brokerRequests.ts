/** Requests sent by hand to a broker driven on its own (tests/machines/harness.ts): a fresh envelope and correlation id each. */
let envelope = 1;

export const rpc = (type: string, from: string, payload: Record<string, unknown>) => ({
  type,
  from,
  envelopeId: envelope++,
  inReplyTo: null,
  payload: { correlationId: envelope, ...payload },
});
