/**
 * The kernel's public shapes: what an actor is made of, the options a run takes, and one step of a
 * trace as the engine hands it out.
 */
import type { AnyStateMachine } from 'xstate';
import type { FactBase } from './effects';
import type { ActorId, RpcName } from './envelope';
import type { KernelFault } from './faults';

export interface ActorSpec {
  readonly id: ActorId;
  readonly kind: string;
  readonly logic: AnyStateMachine;
  readonly input: unknown;
  /** Receives { type: 'boot' } at `bootAt` (default 0): applications start their work this way. */
  readonly boot?: boolean;
  readonly bootAt?: number;
  /**
   * The actor keeps connection states (Kafka's NetworkClient: the producer, the consumer) and hears
   * of every close of its connections: one with nothing in flight too, as a `connectionClosed` event
   * (a `disconnected` step with no envelope). Other actors hear of a close only through the requests
   * it failed.
   */
  readonly connectionNotices?: boolean;
  /**
   * The actor keeps one connection per broker, whichever of the broker's actors it asks (Kafka's
   * producer: its transaction and group coordinators are plain broker nodes to its NetworkClient, so
   * a TxnOffsetCommit or AddPartitionsToTxn shares the connection — its order, the broker reading one
   * request at a time, its request timeouts — with the Produce requests to that broker). Otherwise
   * one connection per server actor (the consumer's group coordinator has a node of its own).
   */
  readonly connectsByNode?: boolean;
  /**
   * The actor speaks for its process's listeners (a broker: BrokerServer enables its SocketServer's
   * acceptors only once it is unfenced). Given the actor's context and a request's RPC, it returns
   * why the process does not accept the connection yet, or null. While it gives a reason, a request
   * to any actor of the process is refused as one to a process that is down is: never read, its
   * connection breaks ('refused') and its client notices one latency later.
   */
  readonly refusesConnections?: (context: unknown, rpc: RpcName) => string | null;
}

export interface NetworkSpec {
  readonly latencyMs: number;
  readonly jitterMs: number;
  readonly links: readonly { from: string; to: string; latencyMs: number }[];
}

export interface KernelOptions {
  readonly seed: number;
  readonly network: NetworkSpec;
  readonly faults: readonly KernelFault[];
  /** Take a checkpoint every this many steps (seeking replays at most this many). */
  readonly checkpointEvery: number;
  readonly maxSteps: number;
  readonly maxTimeMs: number;
  /** How long to keep running background traffic once no foreground work is left. */
  readonly settleMs: number;
  /** The same, while some process is down (lets session timeouts and transaction timeouts show). */
  readonly settleMsWhileDown: number;
  /** The same, right after a fault was applied (lets request timeouts and retries show). */
  readonly settleMsAfterFault: number;
  /** When false (replay for seeking), no trace is recorded. */
  readonly record: boolean;
  /**
   * How actors run: 'compiled' (the default: each machine's compiled form, kernel/compiledMachine.ts)
   * or 'xstate' (XState's interpreter, the reference: the same steps, contexts and traceHash, slower).
   */
  readonly runner?: 'xstate' | 'compiled';
  /** Steps a run may take without virtual time advancing before it is stopped as a livelock. */
  readonly maxStepsPerInstant?: number;
  /**
   * Completes a timed signal's event at its instant from what live actors hold (the scenario
   * layer's: an offset reset reads its partitions' bounds from their leaders, as the tool's
   * ListOffsets does — coordinator/offsetReset.ts). `contextOf` is undefined for an actor whose
   * process is down or paused. An event that names `deliverTo` is handed to that actor instead of
   * the fault's (an operator's transaction abort reaching the partition's leader of the moment —
   * broker/operatorAbort.ts). An event that names `tryAgainInMs` is delivered now and the same
   * timed signal is prepared again that much later (an operator's tool retrying until its timeout).
   */
  readonly prepareSignal?: (event: SignalEvent, contextOf: (actor: string) => unknown, now: number) => SignalEvent;
}

/** The event a timed signal hands its actor. */
export type SignalEvent = Record<string, unknown> & { type: string };

/** Enough for a burst of every record a scenario may send at one instant, far short of a hang. */
export const DEFAULT_MAX_STEPS_PER_INSTANT = 1_000_000;

export type StepKind = 'deliver' | 'timer' | 'call' | 'fault' | 'lost' | 'disconnected' | 'boot';

export interface TraceStep {
  readonly i: number;
  readonly t: number;
  readonly actor: ActorId;
  readonly kind: StepKind;
  /** RPC name, timer name, call name or fault label. */
  readonly label: string;
  readonly from: ActorId | null;
  readonly envelope: number | null;
  readonly detail: Readonly<Record<string, unknown>> | null;
  readonly before: string;
  readonly after: string;
  readonly sent: readonly number[];
  readonly facts: readonly FactBase[];
  /** Faults applied during this step, in words. */
  readonly faults: readonly string[];
}

/**
 * Why a run ended. 'livelock': too many steps without virtual time advancing; 'invalid-time': an
 * event was scheduled at a time that is not a finite number at or after now. Both are the model's
 * defects, reported by the invariant checker.
 */
export type StopReason = 'quiescent' | 'max-steps' | 'max-time' | 'empty' | 'livelock' | 'invalid-time';
