/**
 * What the kernel's event queue holds: envelopes on their way, timers, local calls, boots,
 * scheduled faults, and the network's own notices (a request's timeout, a broken connection, a
 * request that completed as a disconnect).
 */
import type { ActorId, Envelope, RpcName } from './envelope';
import type { ProcessId } from './faults';
import type { CloseReason } from './network';

/** A request as its client's disconnect notice carries it. */
export interface LostRequest {
  readonly id: number;
  readonly rpc: RpcName;
  readonly to: ActorId;
  readonly payload: Readonly<Record<string, unknown>>;
}

export type QueueItem =
  | { kind: 'deliver'; envelope: Envelope; fg: boolean; duplicate: boolean }
  | {
      kind: 'timer';
      actor: ActorId;
      key: string;
      /** Its key in the kernel's timer index (`actor|key`), made once when it is armed. */
      index: string;
      name: string;
      data: Record<string, unknown>;
      incarnation: number;
      fg: boolean;
    }
  | {
      kind: 'call';
      actor: ActorId;
      from: ActorId;
      name: string;
      args: Record<string, unknown>;
      incarnation: number;
      fg: true;
    }
  | { kind: 'boot'; actor: ActorId; fg: true }
  | { kind: 'fault'; fault: number; fg: true }
  | { kind: 'restart'; process: ProcessId; label: string; fg: true }
  | { kind: 'resume'; process: ProcessId; label: string; fg: true }
  | {
      kind: 'disconnected';
      actor: ActorId;
      request: LostRequest;
      incarnation: number;
      fg: boolean;
      reason: CloseReason;
      connection: string;
      generation: number;
    }
  /** A request's timeout (the client's NetworkClient checks it). */
  | {
      kind: 'requestTimeout';
      actor: ActorId;
      connection: string;
      generation: number;
      envelopeId: number;
      incarnation: number;
      fg: boolean;
    }
  /** The client notices that its connection broke (its peer went down or refused it). */
  | {
      kind: 'connectionClosed';
      actor: ActorId;
      connection: string;
      generation: number;
      reason: CloseReason;
      incarnation: number;
      fg: boolean;
    };

/** The actor an item is handed to, or null for the kernel's own items (faults on processes). */
export function targetOf(item: QueueItem): ActorId | null {
  switch (item.kind) {
    case 'deliver':
      return item.envelope.to;
    case 'fault':
    case 'restart':
    case 'resume':
      return null;
    default:
      return item.actor;
  }
}
