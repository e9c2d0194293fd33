/**
 * The server's side of a connection: Kafka's SocketServer reads one request of a connection at a
 * time. When a request has been read, its channel is muted (`Processor.processCompletedReceives` →
 * `selector.mute`) until the response to it has been sent (`processCompletedSends` →
 * `tryUnmuteChannel`); a request that gets no response (acks=0: `NoOpResponse`) unmutes it at once.
 * Requests that arrive on a muted channel wait in its socket buffer, unread and in order. So on one
 * connection nothing is handled before the request ahead of it has been answered: a Produce waiting
 * for its acks=all holds the next Produce of the same producer unread.
 *
 * The network (network.ts) keeps the state of each connection's current generation
 * (`Connection.reading`); this file decides, when a request reaches its server, whether it is read
 * now or waits, and releases the next one when a response is sent.
 *
 * *Simplified*: a connection generation the client has closed (a request timeout, a crash) is not
 * muted any more: what it still carries is read at once, in order (its responses are lost anyway).
 * A reset or a server that goes down loses what was waiting unread.
 */
import type { KernelCore } from './core';
import type { Envelope } from './envelope';
import type { Connection, ServerReading } from './network';

/**
 * A request has reached its (live) server: true when the server reads it now; false when it waits
 * unread behind the request being served (the kernel then records no step for it yet).
 */
export function readOrHold(k: KernelCore, env: Envelope, fg: boolean, duplicate: boolean): boolean {
  // the model's Fetch requests are per partition where Kafka sends one per broker with every
  // partition in it: they stand for that one request, so they neither wait nor hold (simplified)
  if (env.rpc === 'Fetch') return true;
  const c = k.network.get(env.connection);
  if (!c || c.generation !== env.generation) return true;
  const r = c.reading;
  if (r && r.generation === c.generation && r.current) {
    if (!r.answering && r.current.id === env.id && r.current.copy === duplicate) {
      read(k, c, env, duplicate, r.unread);
      return true;
    }
    k.network.setReading(c.key, { ...r, unread: [...r.unread, { envelope: env, fg, duplicate }] });
    if (fg) k.deferredForeground++;
    return false;
  }
  read(k, c, env, duplicate, []);
  return true;
}

/** `env` is read: it mutes the channel until answered, unless it gets no response (then the next is released). */
function read(k: KernelCore, c: Connection, env: Envelope, duplicate: boolean, unread: ServerReading['unread']): void {
  // a request the client waits on is in its in-flight table; acks=0 is not
  const expectsResponse = k.network.inFlight(c.key, c.generation, env.id) !== null;
  if (expectsResponse) {
    k.network.setReading(c.key, { generation: c.generation, current: { id: env.id, copy: duplicate }, answering: true, unread });
    return;
  }
  releaseNext(k, c.key, c.generation, unread);
}

/** The response to `request` has been sent: its channel is unmuted, and the next request waiting is read. */
export function answered(k: KernelCore, request: Envelope): void {
  const c = k.network.get(request.connection);
  const r = c?.reading;
  if (!c || !r || r.generation !== request.generation || !r.answering || r.current?.id !== request.id) return;
  releaseNext(k, c.key, r.generation, r.unread);
}

/**
 * A request released to be read was lost on the way after all (its server went down, or its
 * connection was reset): the one behind it is released instead.
 */
export function notRead(k: KernelCore, env: Envelope, duplicate: boolean): void {
  const c = k.network.get(env.connection);
  const r = c?.reading;
  if (!c || !r || r.generation !== env.generation || r.answering) return;
  if (r.current?.id !== env.id || r.current.copy !== duplicate) return;
  releaseNext(k, c.key, r.generation, r.unread);
}

function releaseNext(k: KernelCore, key: string, generation: number, unread: ServerReading['unread']): void {
  const [head, ...rest] = unread;
  if (!head) {
    k.network.setReading(key, null);
    return;
  }
  k.network.setReading(key, { generation, current: { id: head.envelope.id, copy: head.duplicate }, answering: false, unread: rest });
  if (head.fg) k.deferredForeground--;
  k.push(k.now, { kind: 'deliver', envelope: head.envelope, fg: head.fg, duplicate: head.duplicate });
}

/**
 * The client closed the connection (a timeout, its crash, the peer's close noticed): what was
 * waiting unread is still read, at once and in order (*simplified*: without the mute).
 */
export function releaseAfterClose(k: KernelCore, key: string): void {
  const r = k.network.get(key)?.reading;
  if (!r) return;
  k.network.setReading(key, null);
  for (const u of r.unread) {
    if (u.fg) k.deferredForeground--;
    k.push(k.now, { kind: 'deliver', envelope: u.envelope, fg: u.fg, duplicate: u.duplicate });
  }
}

/** The connection is gone for the server (it went down, or a reset): what waited unread is lost. */
export function dropUnread(k: KernelCore, key: string): void {
  const r = k.network.get(key)?.reading;
  if (!r) return;
  k.network.setReading(key, null);
  for (const u of r.unread) {
    if (u.fg) k.deferredForeground--;
    if (!u.duplicate) k.envelopeLostWhileHeld(u.envelope.id);
  }
}
