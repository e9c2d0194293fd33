/**
 * The network as TCP and Kafka's NetworkClient make it look: one connection per (client actor,
 * server node) — the server actor, or for a client that connects per node (`ActorSpec.connectsByNode`:
 * the producer) the broker its hosted coordinators live on; a request and its response travel on the
 * same connection; each direction is FIFO; a connection has a generation that every close bumps.
 *
 * - A lost message does not exist on a live TCP connection: what is lost is the connection. A
 *   dropped envelope therefore *stalls* its connection: nothing behind it in its direction arrives
 *   (TCP's head-of-line blocking), nor anything sent the other way once it would have arrived;
 *   envelopes sent before it still do. The client notices only when a request
 *   on it exceeds its request timeout (NetworkClient.handleTimedOutRequests), closes the
 *   connection, and every request in flight on it completes as a disconnect
 *   (InFlightRequests.clearAll, oldest first): REQUEST_TIMED_OUT when the close was a timeout,
 *   NETWORK_EXCEPTION otherwise (processDisconnection).
 * - A delayed envelope holds everything behind it on its connection and direction.
 * - A duplicated envelope is delivered twice, the copy right after the original (TCP never
 *   duplicates: the fault stands for the same bytes handled twice, as a proxy replaying them would).
 * - A reset breaks the connection at once for both sides: what is travelling on it is lost.
 * - A peer that goes down breaks its connections: the client notices (an RST) one latency later.
 * - After a client closes a connection (a timeout), requests already on their way still reach the
 *   server (TCP delivers what was sent before the FIN), but no response travelling on the old
 *   generation is ever delivered.
 *
 * Pure bookkeeping: the kernel asks it where an envelope goes and when, and does the queueing.
 * Every state is an immutable value, so a checkpoint is a copy of the map.
 */
import type { ActorId, Envelope, RpcName } from './envelope';

/**
 * Why a connection was closed; 'timeout' is the client's own close after request.timeout.ms,
 * 'client-close' its close for a reason of its own (NetworkClient.disconnect: e.g. a consumer that
 * marks its group coordinator unknown, AbstractCoordinator.markCoordinatorUnknown).
 */
export type CloseReason = 'timeout' | 'client-close' | 'reset' | 'peer-down' | 'refused';

export type NetworkFault = 'drop' | 'delay' | 'duplicate' | 'reset';

export interface InFlightRequest {
  readonly envelopeId: number;
  readonly rpc: RpcName;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly sentAt: number;
  /** The server actor it was sent to (on a per-node connection, one of the node's actors). */
  readonly to: ActorId;
  /** sentAt + the client's timeout for this request. */
  readonly deadline: number;
  readonly background: boolean;
  /** When its response reaches the client; null while none is on its way. */
  readonly responseAt: number | null;
}

export interface Connection {
  readonly key: string;
  readonly client: ActorId;
  /** The server's node: its actor, or on a per-node connection the broker (`nodeOf`). */
  readonly server: ActorId;
  readonly generation: number;
  /**
   * open; stalled: an envelope on it was lost, and what it holds back never arrives until the
   * connection is closed; broken: the peer went away (or refused it) and the client has not noticed yet.
   */
  readonly status: 'open' | 'stalled' | 'broken';
  readonly brokenBy: CloseReason | null;
  /** Where each generation stalled (a dropped envelope): what it holds back never arrives. */
  readonly stalls: readonly Stall[];
  /** Delivery time of the last envelope queued in each direction, this generation (FIFO). */
  readonly toServerAt: number;
  readonly toClientAt: number;
  /** Requests waiting for their response, oldest first. */
  readonly inFlight: readonly InFlightRequest[];
  /** Generations that ended in a reset: nothing still travelling on them arrives. */
  readonly resetGenerations: readonly number[];
  /** The server's side, per generation still holding something: what it reads one request at a time (serverReads.ts). */
  readonly readings: readonly ServerReading[];
}

/**
 * Kafka's SocketServer reads one request of a connection at a time: it mutes the channel when a
 * request is read and unmutes it when that request's response has been sent (a request that gets
 * no response, acks=0, unmutes it at once). Requests that arrive meanwhile wait unread, in order.
 */
export interface ServerReading {
  readonly generation: number;
  /** The request being served (read, its response not sent yet), or released to be read next. */
  readonly current: { readonly id: number; readonly copy: boolean } | null;
  /** True once `current` has been read (false: it was released and its delivery is queued). */
  readonly answering: boolean;
  /** Requests that arrived while the channel was muted, oldest first. */
  readonly unread: readonly UnreadRequest[];
}

export interface UnreadRequest {
  readonly envelope: Envelope;
  readonly fg: boolean;
  /** A duplicate fault's copy of the envelope (it has the original's id). */
  readonly duplicate: boolean;
}

/** A dropped envelope and the point from which its connection generation delivers nothing. */
export interface Stall {
  readonly generation: number;
  /** Direction of the lost envelope. */
  readonly toServer: boolean;
  readonly envelopeId: number;
  /** "Produce #3". */
  readonly name: string;
  /** When it would have arrived: nothing sent the other way from then on arrives either. */
  readonly at: number;
}

export type RouteOutcome =
  /** On its way: arrives at `at` (and a copy at `copyAt`). */
  | 'queued'
  /** Lost by a drop fault; the connection stalls behind it. */
  | 'dropped'
  /** Lost: the connection is broken (its peer went down) and the client has not noticed yet. */
  | 'broken'
  /** Lost: a response on a connection generation its client has already closed. */
  | 'closed'
  /** Lost with its connection, which a reset fault breaks now. */
  | 'reset';

export interface Route {
  readonly connection: string;
  readonly generation: number;
  readonly outcome: RouteOutcome;
  readonly at: number | null;
  readonly copyAt: number | null;
  /** For a lost envelope: why, in words. */
  readonly why: string | null;
  /** A request now waiting in the client's in-flight table (for its response or a disconnect). */
  readonly tracked: boolean;
  /** Queued on a stalled connection behind a lost envelope: it will not arrive (why, in words). */
  readonly doomed: string | null;
  /** The delivery time was pushed back by the connection's order (something earlier was slower). */
  readonly heldBack: boolean;
}

export interface SendOptions {
  readonly now: number;
  /** This envelope's own latency (base + jitter). */
  readonly latency: number;
  readonly fault: NetworkFault | null;
  readonly delayMs: number;
}

export interface RequestOptions extends SendOptions {
  /** The client's timeout for this request; null when no response is expected (acks=0). */
  readonly timeoutMs: number | null;
}

export type Arrival = { readonly ok: true; readonly completed: InFlightRequest | null } | { readonly ok: false; readonly why: string };

/** An envelope that arrives and completes no request (every request does): one value for all. */
const ARRIVED: Arrival = { ok: true, completed: null };

/** Each (client, server)'s key, made once: every envelope sent looks its connection up. */
const keys = new Map<ActorId, Map<ActorId, string>>();

export function connectionKey(client: ActorId, server: ActorId): string {
  let byServer = keys.get(client);
  if (!byServer) {
    // a bound on what a long-lived page could gather (ids come from scenarios)
    if (keys.size > 4096) keys.clear();
    byServer = new Map();
    keys.set(client, byServer);
  }
  let key = byServer.get(server);
  if (key === undefined) {
    key = `${client}>${server}`;
    byServer.set(server, key);
  }
  return key;
}

/**
 * The node a server actor lives on: `broker-1` for `broker-1.txn-coordinator`. Kafka's producer
 * reaches its coordinators as plain broker nodes (TransactionManager: `new Node(coordinatorData.nodeId(), …)`),
 * on the one connection NetworkClient keeps per node id.
 */
export function nodeOf(server: ActorId): string {
  const dot = server.indexOf('.');
  return dot < 0 ? server : server.slice(0, dot);
}

/** A connection in words: "orders-service.producer→broker-0". */
export function connectionName(key: string): string {
  return key.replace('>', '→');
}

function fresh(key: string, client: ActorId): Connection {
  return {
    key,
    client,
    // the key is `client>server`
    server: key.slice(client.length + 1),
    generation: 0,
    status: 'open',
    brokenBy: null,
    stalls: [],
    toServerAt: 0,
    toClientAt: 0,
    inFlight: [],
    resetGenerations: [],
    readings: [],
  };
}

/**
 * A copy of a connection with new delivery clocks and requests in flight: as
 * `{ ...c, toServerAt, toClientAt, inFlight }` (the same keys in fresh()'s order), written out —
 * every envelope sent or answered makes one, and a spread of a spread (`{ ...c, ...held }`) takes
 * V8's slow path.
 */
function moved(
  c: Connection,
  toServerAt: number,
  toClientAt: number,
  inFlight: readonly InFlightRequest[],
  readings: readonly ServerReading[] = c.readings,
): Connection {
  return {
    key: c.key,
    client: c.client,
    server: c.server,
    generation: c.generation,
    status: c.status,
    brokenBy: c.brokenBy,
    stalls: c.stalls,
    toServerAt,
    toClientAt,
    inFlight,
    resetGenerations: c.resetGenerations,
    readings,
  };
}

/** A copy of a connection with new readings: as `{ ...c, readings }`, written out (see moved()). */
function withReadings(c: Connection, readings: readonly ServerReading[]): Connection {
  return moved(c, c.toServerAt, c.toClientAt, c.inFlight, readings);
}

/**
 * The readings with `generation`'s replaced by `reading` (null: removed), in generation order. A
 * connection's server mostly reads one generation: that case is a list of one, or none.
 */
function replaceReading(readings: readonly ServerReading[], generation: number, reading: ServerReading | null): readonly ServerReading[] {
  if (readings.length === 0 || (readings.length === 1 && (readings[0] as ServerReading).generation === generation))
    return reading ? [reading] : NO_READINGS;
  const others = readings.filter((r) => r.generation !== generation);
  return reading ? [...others, reading].sort((a, b) => a.generation - b.generation) : others;
}

const NO_READINGS: readonly ServerReading[] = [];

/** What a copy of a connection changes (changed()): every other field is the original's. */
type ConnectionChange = Partial<Omit<Connection, 'key' | 'client' | 'server'>>;

/**
 * A copy of a connection with some fields changed: as `{ ...c, ...change }`, written out like
 * moved(). Every connection then has fresh()'s keys in its order and one hidden class: a spread makes
 * hidden classes of its own, and code optimised for one is thrown away (and compiled again) when it
 * meets another.
 */
function changed(c: Connection, change: ConnectionChange): Connection {
  return {
    key: c.key,
    client: c.client,
    server: c.server,
    generation: change.generation ?? c.generation,
    status: change.status ?? c.status,
    // (null is a value of its own here: a connection closed is broken by nothing)
    brokenBy: change.brokenBy !== undefined ? change.brokenBy : c.brokenBy,
    stalls: change.stalls ?? c.stalls,
    toServerAt: change.toServerAt ?? c.toServerAt,
    toClientAt: change.toClientAt ?? c.toClientAt,
    inFlight: change.inFlight ?? c.inFlight,
    resetGenerations: change.resetGenerations ?? c.resetGenerations,
    readings: change.readings ?? c.readings,
  };
}

/** `c` with these requests in flight (itself when they are its own). */
function withInFlight(c: Connection, inFlight: readonly InFlightRequest[]): Connection {
  return inFlight === c.inFlight ? c : moved(c, c.toServerAt, c.toClientAt, inFlight);
}

/** The requests in flight, with the response to `request` (not on its way before) arriving at `at`. */
function responseOnItsWay(inFlight: readonly InFlightRequest[], request: number, at: number): readonly InFlightRequest[] {
  return inFlight.map((r) => (r.envelopeId === request && r.responseAt === null ? withResponseAt(r, at) : r));
}

/** `{ ...r, responseAt }`, written out: one hidden class for every request in flight (see changed()). */
function withResponseAt(r: InFlightRequest, responseAt: number): InFlightRequest {
  return {
    envelopeId: r.envelopeId,
    rpc: r.rpc,
    payload: r.payload,
    sentAt: r.sentAt,
    to: r.to,
    deadline: r.deadline,
    background: r.background,
    responseAt,
  };
}

/** The stall of `generation` that an envelope (sent at `sentAt`, in this direction) is caught behind, if any. */
function stallOf(c: Connection, generation: number, toServer: boolean, id: number, sentAt: number): Stall | null {
  for (const st of c.stalls) {
    if (st.generation !== generation) continue;
    if (st.toServer === toServer ? id > st.envelopeId : sentAt >= st.at) return st;
  }
  return null;
}

const stalledWhy = (c: Connection, st: Stall): string => `stalled behind ${st.name} on ${connectionName(c.key)}`;

export type NetworkSnapshot = readonly [string, Connection][];

export class Network {
  private readonly conns: Map<string, Connection>;

  constructor(snapshot: NetworkSnapshot = []) {
    this.conns = new Map(snapshot);
  }

  /** Connections are immutable values: the snapshot shares them. */
  snapshot(): NetworkSnapshot {
    return [...this.conns];
  }

  get(key: string): Connection | undefined {
    return this.conns.get(key);
  }

  /** A connection's current generation (0 for one never used: its first). */
  generationOf(key: string): number {
    return this.conns.get(key)?.generation ?? 0;
  }

  connections(): IterableIterator<Connection> {
    return this.conns.values();
  }

  private conn(key: string, client: ActorId): Connection {
    return this.conns.get(key) ?? fresh(key, client);
  }

  private put(c: Connection): void {
    this.conns.set(c.key, c);
  }

  /** Sets the server's reading state of one generation of a connection; null: nothing held (serverReads.ts). */
  setReading(key: string, generation: number, reading: ServerReading | null): void {
    const c = this.conns.get(key);
    if (!c) return;
    this.put(withReadings(c, replaceReading(c.readings, generation, reading)));
  }

  /** A request from `env.from` (the client) to `env.to` (the server), on `env.connection`. */
  sendRequest(env: Pick<Envelope, 'id' | 'rpc' | 'from' | 'to' | 'payload' | 'background' | 'connection'>, o: RequestOptions): Route {
    const c = this.conn(env.connection, env.from);
    const tracked = o.timeoutMs !== null;
    let inFlight = c.inFlight;
    if (tracked) {
      const entry: InFlightRequest = {
        envelopeId: env.id,
        rpc: env.rpc,
        payload: env.payload,
        sentAt: o.now,
        to: env.to,
        deadline: o.now + (o.timeoutMs as number),
        background: env.background,
        responseAt: null,
      };
      inFlight = [...c.inFlight, entry];
    }
    return this.route(c, inFlight, 'toServer', env.id, env.rpc, o, tracked, null);
  }

  /**
   * A response from `env.from` (the server) to `env.to` (the client). `requestGeneration` is the
   * generation its request travelled on (null when unknown: the current one).
   */
  sendResponse(
    env: Pick<Envelope, 'id' | 'rpc' | 'from' | 'to' | 'inReplyTo' | 'connection'>,
    requestGeneration: number | null,
    o: SendOptions,
  ): Route {
    const c = this.conn(env.connection, env.to);
    const generation = requestGeneration ?? c.generation;
    if (generation !== c.generation || c.status === 'broken') {
      this.put(c);
      return lost(c, generation, 'closed', `its connection ${connectionName(c.key)} was closed before it was sent`, false);
    }
    return this.route(c, c.inFlight, 'toClient', env.id, env.rpc, o, false, env.inReplyTo);
  }

  /**
   * Routes an envelope on `c`, whose requests in flight are now `inFlight` (a request adds itself);
   * a response (`answers`: the request it answers) on its way records when it reaches the client.
   * Puts the connection once, with its new clock and requests in flight.
   */
  private route(
    c: Connection,
    inFlight: readonly InFlightRequest[],
    dir: 'toServer' | 'toClient',
    id: number,
    rpc: RpcName,
    o: SendOptions,
    tracked: boolean,
    answers: number | null,
  ): Route {
    if (c.status === 'broken') {
      this.put(withInFlight(c, inFlight));
      return lost(c, c.generation, 'broken', `its connection ${connectionName(c.key)} is broken (${c.brokenBy ?? 'peer-down'})`, tracked);
    }
    if (o.fault === 'reset') {
      this.put(withInFlight(c, inFlight));
      return lost(c, c.generation, 'reset', `lost with its connection ${connectionName(c.key)}, reset`, tracked);
    }
    const toServer = dir === 'toServer';
    const clock = toServer ? c.toServerAt : c.toClientAt;
    const own = o.now + o.latency + (o.fault === 'delay' ? o.delayMs : 0);
    const at = Math.max(own, clock);
    const stall = stallOf(c, c.generation, toServer, id, o.now);
    if (o.fault === 'drop') {
      // it would have arrived at `at`: everything behind it waits for it, for ever
      const st: Stall = { generation: c.generation, toServer, envelopeId: id, name: `${rpc} #${id}`, at };
      const held = toServer ? { toServerAt: at } : { toClientAt: at };
      this.put(changed(c, { ...held, inFlight, status: 'stalled', stalls: stall ? c.stalls : [...c.stalls, st] }));
      return lost(c, c.generation, 'dropped', null, tracked);
    }
    const doomed = stall ? stalledWhy(c, stall) : null;
    const requests = answers !== null && doomed === null ? responseOnItsWay(inFlight, answers, at) : inFlight;
    this.put(toServer ? moved(c, at, c.toClientAt, requests) : moved(c, c.toServerAt, at, requests));
    return {
      connection: c.key,
      generation: c.generation,
      outcome: 'queued',
      at,
      copyAt: o.fault === 'duplicate' ? at : null,
      why: null,
      tracked,
      heldBack: at > own,
      doomed,
    };
  }

  /**
   * An envelope reaches its destination: may it be handed over? A response that arrives completes
   * its request (the kernel then cancels that request's timeout).
   */
  arrive(env: Pick<Envelope, 'id' | 'from' | 'to' | 'inReplyTo' | 'generation' | 'sentAt' | 'connection'>, isResponse: boolean): Arrival {
    const key = env.connection;
    const c = this.conns.get(key);
    if (!c) return ARRIVED;
    if (c.resetGenerations.includes(env.generation)) return { ok: false, why: `its connection ${connectionName(key)} was reset` };
    const stall = stallOf(c, env.generation, !isResponse, env.id, env.sentAt);
    if (stall) return { ok: false, why: stalledWhy(c, stall) };
    if (!isResponse) return ARRIVED;
    if (env.generation !== c.generation)
      return { ok: false, why: `its connection ${connectionName(key)} was closed (the client gave up on it)` };
    const completed = c.inFlight.find((r) => r.envelopeId === env.inReplyTo) ?? null;
    if (completed)
      this.put(
        moved(
          c,
          c.toServerAt,
          c.toClientAt,
          c.inFlight.filter((r) => r !== completed),
        ),
      );
    return { ok: true, completed };
  }

  /**
   * The timeout of one request fired. Null when there is nothing to do: it was answered (or its
   * answer has already arrived — NetworkClient reads completed receives before it checks timeouts),
   * or its connection was closed since. Otherwise the client closes the connection, and every
   * request in flight on it is returned, oldest first.
   */
  expire(key: string, generation: number, envelopeId: number, now: number): InFlightRequest[] | null {
    const c = this.conns.get(key);
    if (!c || c.generation !== generation) return null;
    const r = c.inFlight.find((x) => x.envelopeId === envelopeId);
    if (!r || (r.responseAt !== null && r.responseAt <= now)) return null;
    return this.close(key, 'timeout');
  }

  /** Closes a connection (a new generation starts, open and empty); returns its requests in flight, oldest first. */
  close(key: string, reason: CloseReason): InFlightRequest[] {
    const c = this.conns.get(key);
    if (!c) return [];
    this.put(
      changed(c, {
        generation: c.generation + 1,
        status: 'open',
        brokenBy: null,
        toServerAt: 0,
        toClientAt: 0,
        inFlight: [],
        resetGenerations: reason === 'reset' ? [...c.resetGenerations, c.generation] : c.resetGenerations,
        // what the server holds of the old generation stays: it goes on reading it one request at a time
        readings: c.readings,
      }),
    );
    return [...c.inFlight];
  }

  /** The close notice for `generation` is due: close it, unless it was closed since. */
  closeIfCurrent(key: string, generation: number, reason: CloseReason): InFlightRequest[] | null {
    const c = this.conns.get(key);
    if (!c || c.generation !== generation) return null;
    return this.close(key, reason);
  }

  /**
   * The peer of a connection is gone (or refused it): it is broken until its client notices.
   * Returns false when it already was (a notice is already on its way).
   */
  breakConnection(key: string, reason: CloseReason): boolean {
    const c = this.conns.get(key);
    if (!c || c.status === 'broken') return false;
    this.put(changed(c, { status: 'broken', brokenBy: reason }));
    return true;
  }

  /** Connections whose server is `server`, open or stalled (to break when it goes down). */
  servedBy(server: ActorId): Connection[] {
    const out: Connection[] = [];
    for (const c of this.conns.values()) if (c.server === server && c.status !== 'broken') out.push(c);
    return out;
  }

  /**
   * The client closed all its connections (a crash, or close()): in-flight requests are forgotten
   * without callbacks (NetworkClient.close). Returns the requests that were in flight.
   */
  clientGone(client: ActorId): InFlightRequest[] {
    const out: InFlightRequest[] = [];
    for (const c of [...this.conns.values()]) if (c.client === client) out.push(...this.close(c.key, 'peer-down'));
    return out;
  }

  /** The request `envelopeId` in flight on `key` at `generation`, if it still is. */
  inFlight(key: string, generation: number, envelopeId: number): InFlightRequest | null {
    const c = this.conns.get(key);
    if (!c || c.generation !== generation) return null;
    return c.inFlight.find((r) => r.envelopeId === envelopeId) ?? null;
  }
}

function lost(c: Connection, generation: number, outcome: RouteOutcome, why: string | null, tracked: boolean): Route {
  return { connection: c.key, generation, outcome, at: null, copyAt: null, why, tracked, heldBack: false, doomed: null };
}
