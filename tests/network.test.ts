/**
 * The network module on its own (src/sim/kernel/network.ts): connections, their order, stalls,
 * generations, delays, duplicates and request timeouts, as TCP and Kafka's NetworkClient behave.
 */
import { describe, expect, it } from 'vitest';
import { connectionKey, Network, type RequestOptions, type SendOptions } from '../src/sim/kernel/network';

const C = 'app.producer';
const S = 'broker-0';
const KEY = connectionKey(C, S);

let nextId = 0;
function request(net: Network, now: number, o: Partial<RequestOptions> = {}) {
  const id = nextId++;
  const route = net.sendRequest(
    { id, rpc: 'Produce', from: C, to: S, payload: { correlationId: id }, background: false, connection: KEY },
    { now, latency: 1, fault: null, delayMs: 0, timeoutMs: 30000, ...o },
  );
  return { id, route };
}
function response(net: Network, now: number, inReplyTo: number, generation: number, o: Partial<SendOptions> = {}) {
  const id = nextId++;
  const route = net.sendResponse({ id, rpc: 'ProduceResponse', from: S, to: C, inReplyTo, connection: KEY }, generation, {
    now,
    latency: 1,
    fault: null,
    delayMs: 0,
    ...o,
  });
  return { id, route };
}
const arrive = (net: Network, id: number, generation: number, isResponse: boolean, inReplyTo: number | null = null, sentAt = 0) =>
  net.arrive(
    isResponse
      ? { id, from: S, to: C, inReplyTo, generation, sentAt, connection: KEY }
      : { id, from: C, to: S, inReplyTo: null, generation, sentAt, connection: KEY },
    isResponse,
  );

describe('network: one connection per (client, server), FIFO in each direction', () => {
  it('a later envelope never arrives before an earlier one, whatever its own latency', () => {
    const net = new Network();
    const a = request(net, 0, { latency: 9 });
    const b = request(net, 1, { latency: 1 });
    expect(a.route.at).toBe(9);
    // its own latency would bring it at 2: it waits behind the first
    expect(b.route.at).toBe(9);
    expect(b.route.heldBack).toBe(true);
    expect(a.route.connection).toBe(KEY);
    expect(b.route.generation).toBe(0);
  });

  it('each direction keeps its own order: a slow request does not hold back responses', () => {
    const net = new Network();
    const a = request(net, 0, { latency: 50 });
    const r = response(net, 1, a.id, 0);
    expect(a.route.at).toBe(50);
    expect(r.route.at).toBe(2);
  });

  it('a delay holds everything sent after it on that direction', () => {
    const net = new Network();
    const a = request(net, 0, { fault: 'delay', delayMs: 300 });
    const b = request(net, 1);
    const c = request(net, 2);
    expect(a.route.at).toBe(301);
    expect(b.route.at).toBe(301);
    expect(c.route.at).toBe(301);
  });

  it('a duplicate is delivered right after its original, and nothing sent later comes between them', () => {
    const net = new Network();
    const a = request(net, 0, { fault: 'duplicate' });
    const b = request(net, 0);
    expect(a.route.copyAt).toBe(a.route.at);
    expect(b.route.at).toBeGreaterThanOrEqual(a.route.copyAt as number);
  });
});

describe('network: a lost message stalls its connection', () => {
  it('after a drop nothing behind it arrives, nor anything sent back once it would have arrived; what went before still does', () => {
    const net = new Network();
    const before = request(net, 0);
    const dropped = request(net, 1, { fault: 'drop' });
    expect(dropped.route.outcome).toBe('dropped');
    // behind it in its direction: queued in order, and doomed (TCP's head-of-line blocking)
    const after = request(net, 2);
    expect(after.route.outcome).toBe('queued');
    expect(after.route.doomed).toMatch(/stalled behind Produce #\d+ on app\.producer→broker-0/);
    expect(arrive(net, after.id, 0, false, null, 2)).toMatchObject({ ok: false, why: expect.stringMatching(/stalled behind/) });
    // the other way: an answer sent before the lost request would have arrived (at 2) still arrives …
    const early = response(net, 1, before.id, 0);
    expect(early.route.doomed).toBeNull();
    expect(arrive(net, early.id, 0, true, before.id, 1)).toMatchObject({ ok: true, completed: { envelopeId: before.id } });
    // … one sent from then on does not
    const late = response(net, 2, before.id, 0);
    expect(late.route.doomed).toMatch(/stalled behind/);
    // what was sent before the loss still arrives
    expect(arrive(net, before.id, 0, false)).toEqual({ ok: true, completed: null });
    // the requests still waiting: each will end in its timeout's disconnect
    expect(net.get(KEY)?.inFlight.map((r) => r.envelopeId)).toEqual([dropped.id, after.id]);
    expect(net.get(KEY)?.status).toBe('stalled');
  });

  it('the first timeout closes the connection: every request on it is returned oldest first, and a new generation starts open', () => {
    const net = new Network();
    const a = request(net, 0, { fault: 'drop', timeoutMs: 1000 });
    const b = request(net, 20, { timeoutMs: 1000 });
    const lost = net.expire(KEY, 0, a.id, 1000);
    expect(lost?.map((r) => r.envelopeId)).toEqual([a.id, b.id]);
    const c = net.get(KEY);
    expect(c?.generation).toBe(1);
    expect(c?.status).toBe('open');
    expect(c?.inFlight).toEqual([]);
    // b's own timeout now finds nothing to do
    expect(net.expire(KEY, 0, b.id, 1020)).toBeNull();
    const retry = request(net, 1100);
    expect(retry.route).toMatchObject({ outcome: 'queued', generation: 1, at: 1101 });
  });

  it('a timeout does nothing once the request was answered, or once its answer has arrived', () => {
    const net = new Network();
    const a = request(net, 0, { timeoutMs: 100 });
    const r = response(net, 1, a.id, 0);
    // the answer is at the client at 2, but not yet handled: NetworkClient reads it before checking timeouts
    expect(net.expire(KEY, 0, a.id, 100)).toBeNull();
    expect(arrive(net, r.id, 0, true, a.id)).toMatchObject({ ok: true, completed: { envelopeId: a.id } });
    expect(net.expire(KEY, 0, a.id, 100)).toBeNull();
    expect(net.get(KEY)?.generation).toBe(0);
  });
});

describe('network: generations', () => {
  it('after the client closes a connection, a response of the old generation is never delivered, but a request already on its way is', () => {
    const net = new Network();
    const a = request(net, 0, { fault: 'delay', delayMs: 5000, timeoutMs: 1000 });
    net.expire(KEY, 0, a.id, 1000);
    // TCP delivers what was sent before the client's FIN
    expect(arrive(net, a.id, 0, false).ok).toBe(true);
    // the server's answer goes into the void: its connection is closed
    const r = response(net, 5001, a.id, 0);
    expect(r.route.outcome).toBe('closed');
    // and an answer that was already on its way when the client closed is discarded on arrival
    const net2 = new Network();
    const b = request(net2, 0, { timeoutMs: 1000 });
    const late = net2.sendResponse({ id: 999, rpc: 'ProduceResponse', from: S, to: C, inReplyTo: b.id, connection: KEY }, 0, {
      now: 1,
      latency: 1,
      fault: 'delay',
      delayMs: 2000,
    });
    net2.expire(KEY, 0, b.id, 1000);
    expect(late.at).toBe(2002);
    expect(net2.arrive({ id: 999, from: S, to: C, inReplyTo: b.id, generation: 0, sentAt: 1, connection: KEY }, true)).toMatchObject({
      ok: false,
    });
  });

  it('a reset breaks the connection for both sides: what was on its way in either direction is lost', () => {
    const net = new Network();
    const a = request(net, 0, { latency: 10 });
    const b = request(net, 1, { fault: 'reset' });
    expect(b.route.outcome).toBe('reset');
    const lost = net.close(KEY, 'reset');
    expect(lost.map((r) => r.envelopeId)).toEqual([a.id, b.id]);
    expect(arrive(net, a.id, 0, false)).toMatchObject({ ok: false, why: expect.stringMatching(/reset/) });
    expect(net.get(KEY)?.generation).toBe(1);
  });

  it('a broken connection (its peer went down) loses what is sent on it until the client notices', () => {
    const net = new Network();
    const a = request(net, 0);
    expect(net.breakConnection(KEY, 'peer-down')).toBe(true);
    expect(net.breakConnection(KEY, 'peer-down')).toBe(false);
    const b = request(net, 1);
    expect(b.route.outcome).toBe('broken');
    expect(net.closeIfCurrent(KEY, 0, 'peer-down')?.map((r) => r.envelopeId)).toEqual([a.id, b.id]);
    expect(net.closeIfCurrent(KEY, 0, 'peer-down')).toBeNull();
  });

  it('a client that goes away forgets its requests, and its connections start over', () => {
    const net = new Network();
    const a = request(net, 0);
    expect(net.clientGone(C).map((r) => r.envelopeId)).toEqual([a.id]);
    expect(net.get(KEY)).toMatchObject({ generation: 1, inFlight: [] });
  });

  it('a request that expects no answer (acks=0) is not tracked', () => {
    const net = new Network();
    const a = request(net, 0, { timeoutMs: null });
    expect(a.route.tracked).toBe(false);
    expect(net.get(KEY)?.inFlight).toEqual([]);
  });

  it('its state is a value: a snapshot restores the same connections', () => {
    const net = new Network();
    request(net, 0, { fault: 'drop' });
    const copy = new Network(net.snapshot());
    request(net, 1);
    expect(copy.get(KEY)?.inFlight).toHaveLength(1);
    expect(net.get(KEY)?.inFlight).toHaveLength(2);
  });
});
