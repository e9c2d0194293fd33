/**
 * Envelopes: every message between actors travels through the kernel's network as an envelope
 * named after the Kafka RPC it carries. Actors never call each other directly.
 */
export type ActorId = string;

/** Kafka RPCs (request and response), plus the few non-Kafka calls the sinks outside Kafka need. */
export const RPCS = {
  // producer path
  InitProducerId: { response: 'InitProducerIdResponse' },
  Produce: { response: 'ProduceResponse' },
  AddPartitionsToTxn: { response: 'AddPartitionsToTxnResponse' },
  AddOffsetsToTxn: { response: 'AddOffsetsToTxnResponse' },
  TxnOffsetCommit: { response: 'TxnOffsetCommitResponse' },
  EndTxn: { response: 'EndTxnResponse' },
  WriteTxnMarkers: { response: 'WriteTxnMarkersResponse' },
  // consumer path
  Fetch: { response: 'FetchResponse' },
  ListOffsets: { response: 'ListOffsetsResponse' },
  OffsetsForLeaderEpoch: { response: 'OffsetsForLeaderEpochResponse' },
  OffsetCommit: { response: 'OffsetCommitResponse' },
  OffsetFetch: { response: 'OffsetFetchResponse' },
  JoinGroup: { response: 'JoinGroupResponse' },
  SyncGroup: { response: 'SyncGroupResponse' },
  Heartbeat: { response: 'HeartbeatResponse' },
  LeaveGroup: { response: 'LeaveGroupResponse' },
  // replication (KRaft): clients' metadata (any broker answers from its metadata cache), brokers and the controller
  Metadata: { response: 'MetadataResponse' },
  FindCoordinator: { response: 'FindCoordinatorResponse' },
  BrokerHeartbeat: { response: 'BrokerHeartbeatResponse' },
  AlterPartition: { response: 'AlterPartitionResponse' },
  PartitionChange: { response: 'PartitionChangeResponse' },
  // outside Kafka: a database and an HTTP API
  DbTransaction: { response: 'DbTransactionResult' },
  DbQuery: { response: 'DbQueryResult' },
  HttpRequest: { response: 'HttpResponse' },
} as const;

export type RequestRpc = keyof typeof RPCS;
export type ResponseRpc = (typeof RPCS)[RequestRpc]['response'];
export type RpcName = RequestRpc | ResponseRpc;

const RESPONSES = new Set<string>(Object.values(RPCS).map((r) => r.response));

export function isRequestRpc(rpc: string): rpc is RequestRpc {
  return Object.hasOwn(RPCS, rpc);
}

export function isResponseRpc(rpc: string): rpc is ResponseRpc {
  return RESPONSES.has(rpc);
}

export const ALL_RPCS: readonly RpcName[] = [
  ...(Object.keys(RPCS) as RequestRpc[]),
  ...(Object.values(RPCS).map((r) => r.response) as ResponseRpc[]),
];

/** What happened to an envelope in the network. */
export type EnvelopeFate = 'in-flight' | 'delivered' | 'dropped' | 'lost';

export interface Envelope {
  readonly id: number;
  readonly rpc: RpcName;
  readonly from: ActorId;
  readonly to: ActorId;
  /** Incarnation of the sending process: a response to a crashed and restarted client is not delivered. */
  readonly fromIncarnation: number;
  /**
   * Incarnation of the receiving process when sent: a response is only for the incarnation that
   * asked, a request only for the server it was sent to (one restarted since never reads it).
   */
  readonly toIncarnation: number | null;
  readonly payload: Readonly<Record<string, unknown>>;
  /** Id of the request envelope this one answers, if it is a response. */
  readonly inReplyTo: number | null;
  readonly sentAt: number;
  readonly sentStep: number;
  /** Periodic traffic (heartbeats, idle fetches) that alone does not keep a run going. */
  readonly background: boolean;
  /** The connection it travels on ("client>server", src/sim/kernel/network.ts) and its generation then. */
  readonly connection: string;
  readonly generation: number;
}

/** The network's record of one envelope, kept in the trace. */
export interface EnvelopeRecord extends Envelope {
  deliverAt: number | null;
  deliveredStep: number | null;
  fate: EnvelopeFate;
  /** The fault applied to this envelope, described in words, if any. */
  fault: string | null;
  /** For a duplicate made by the network: the envelope it copies. */
  duplicateOf: number | null;
  /** For a request that expects an answer: how long its client waits for one (its request timeout). */
  timeoutMs: number | null;
}
