/**
 * The server's side of a connection: Kafka's SocketServer reads one request of a connection at a
 * time. When a request has been read, its channel is muted (`Processor.processCompletedReceives` →
 * `selector.mute`) until the response to it has been sent (`processCompletedSends` →
 * `tryUnmuteChannel`); a request that gets no response (acks=0: `NoOpResponse`) unmutes it at once.
 * Requests that arrive on a muted channel wait in its socket buffer, unread and in order. So on one
 * connection nothing is handled before the request ahead of it has been answered: a Produce waiting
 * for its acks=all holds the next Produce of the same producer unread.
 *
 * The network (network.ts) keeps that state per connection generation (`Connection.readings`);
 * this file decides, when a request reaches its server, whether it is read now or waits, and
 * releases the next one when a response is sent. A generation the client has closed (a request
 * timeout, its crash) goes on the same way: the server still reads what reached it, one request at
 * a time, and its answers are lost. A reset, or a server that goes down, loses what waited unread.
 */
import type { KernelCore } from './core';
import type { Envelope } from './envelope';
import type { ServerReading } from './network';

/** A request its client waits an answer for: every one but an acks=0 Produce (its NoOpResponse unmutes at once). */
function expectsResponse(env: Envelope): boolean {
  return !(env.rpc === 'Produce' && env.payload.acks === 0);
}

function readingOf(k: KernelCore, env: Envelope): ServerReading | undefined {
  return k.network.get(env.connection)?.readings.find((r) => r.generation === env.generation);
}

/**
 * A request has reached its (live) server: true when the server reads it now; false when it waits
 * unread behind the request being served (the kernel then records no step for it yet).
 */
export function readOrHold(k: KernelCore, env: Envelope, fg: boolean, duplicate: boolean): boolean {
  // Fetches neither wait nor hold (simplified): a follower's are per partition where Kafka sends one
  // per leader, and a consumer's other requests to that broker (Metadata, ListOffsets,
  // OffsetsForLeaderEpoch) are read while its Fetch is held, where Kafka's would wait behind it
  if (env.rpc === 'Fetch') return true;
  const r = readingOf(k, env);
  if (r?.current) {
    if (!r.answering && r.current.id === env.id && r.current.copy === duplicate) {
      read(k, env, duplicate, r.unread);
      return true;
    }
    // (written out, not `{ ...r, unread }`: one hidden class for every reading, see network.ts changed())
    k.network.setReading(env.connection, env.generation, {
      generation: r.generation,
      current: r.current,
      answering: r.answering,
      unread: [...r.unread, { envelope: env, fg, duplicate }],
    });
    if (fg) k.deferredForeground++;
    return false;
  }
  read(k, env, duplicate, r?.unread ?? []);
  return true;
}

/** `env` is read: it mutes the channel until answered, unless it gets no response (then the next is released). */
function read(k: KernelCore, env: Envelope, duplicate: boolean, unread: ServerReading['unread']): void {
  if (expectsResponse(env)) {
    k.network.setReading(env.connection, env.generation, {
      generation: env.generation,
      current: { id: env.id, copy: duplicate },
      answering: true,
      unread,
    });
    return;
  }
  releaseNext(k, env.connection, env.generation, unread);
}

/** The response to `request` has been sent: its channel is unmuted, and the next request waiting is read. */
export function answered(k: KernelCore, request: Envelope): void {
  const r = readingOf(k, request);
  if (!r || !r.answering || r.current?.id !== request.id) return;
  releaseNext(k, request.connection, request.generation, r.unread);
}

/**
 * A request released to be read was lost on the way after all (its server went down, or its
 * connection was reset): the one behind it is released instead.
 */
export function notRead(k: KernelCore, env: Envelope, duplicate: boolean): void {
  const r = readingOf(k, env);
  if (!r || r.answering || r.current?.id !== env.id || r.current.copy !== duplicate) return;
  releaseNext(k, env.connection, env.generation, r.unread);
}

function releaseNext(k: KernelCore, key: string, generation: number, unread: ServerReading['unread']): void {
  const head = unread[0];
  if (!head) {
    k.network.setReading(key, generation, null);
    return;
  }
  k.network.setReading(key, generation, {
    generation,
    current: { id: head.envelope.id, copy: head.duplicate },
    answering: false,
    unread: unread.slice(1),
  });
  if (head.fg) k.deferredForeground--;
  k.push(k.now, { kind: 'deliver', envelope: head.envelope, fg: head.fg, duplicate: head.duplicate });
}

/** The connection is gone for the server (it went down, or a reset): what waited unread, in any generation, is lost. */
export function dropUnread(k: KernelCore, key: string): void {
  const c = k.network.get(key);
  if (!c) return;
  for (const r of c.readings) {
    k.network.setReading(key, r.generation, null);
    for (const u of r.unread) {
      if (u.fg) k.deferredForeground--;
      if (!u.duplicate) k.envelopeLostWhileHeld(u.envelope.id);
    }
  }
}
