/**
 * Kafka error codes (org.apache.kafka.common.protocol.Errors) that the simulator produces, with
 * their numeric codes and how clients treat them.
 */
export const KAFKA_ERRORS = {
  NONE: { code: 0, retriable: false },
  OFFSET_OUT_OF_RANGE: { code: 1, retriable: false },
  CORRUPT_MESSAGE: { code: 2, retriable: true },
  UNKNOWN_TOPIC_OR_PARTITION: { code: 3, retriable: true },
  LEADER_NOT_AVAILABLE: { code: 5, retriable: true },
  NOT_LEADER_OR_FOLLOWER: { code: 6, retriable: true },
  REQUEST_TIMED_OUT: { code: 7, retriable: true },
  NETWORK_EXCEPTION: { code: 13, retriable: true },
  COORDINATOR_LOAD_IN_PROGRESS: { code: 14, retriable: true },
  COORDINATOR_NOT_AVAILABLE: { code: 15, retriable: true },
  NOT_COORDINATOR: { code: 16, retriable: true },
  NOT_ENOUGH_REPLICAS: { code: 19, retriable: true },
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: { code: 20, retriable: true },
  REPLICA_NOT_AVAILABLE: { code: 9, retriable: true },
  KAFKA_STORAGE_ERROR: { code: 56, retriable: true },
  OFFSET_NOT_AVAILABLE: { code: 78, retriable: true },
  FENCED_LEADER_EPOCH: { code: 74, retriable: true },
  UNKNOWN_LEADER_EPOCH: { code: 76, retriable: true },
  INVALID_REQUEST: { code: 42, retriable: false },
  INVALID_UPDATE_VERSION: { code: 95, retriable: false },
  INELIGIBLE_REPLICA: { code: 107, retriable: false },
  DUPLICATE_BROKER_REGISTRATION: { code: 101, retriable: false },
  ILLEGAL_GENERATION: { code: 22, retriable: false },
  GROUP_ID_NOT_FOUND: { code: 69, retriable: false },
  UNKNOWN_MEMBER_ID: { code: 25, retriable: false },
  MEMBER_ID_REQUIRED: { code: 79, retriable: false },
  REBALANCE_IN_PROGRESS: { code: 27, retriable: false },
  INVALID_SESSION_TIMEOUT: { code: 26, retriable: false },
  OUT_OF_ORDER_SEQUENCE_NUMBER: { code: 45, retriable: false },
  DUPLICATE_SEQUENCE_NUMBER: { code: 46, retriable: false },
  INVALID_PRODUCER_EPOCH: { code: 47, retriable: false },
  INVALID_TXN_STATE: { code: 48, retriable: false },
  INVALID_PRODUCER_ID_MAPPING: { code: 49, retriable: false },
  INVALID_TRANSACTION_TIMEOUT: { code: 50, retriable: false },
  CONCURRENT_TRANSACTIONS: { code: 51, retriable: true },
  TRANSACTION_COORDINATOR_FENCED: { code: 52, retriable: false },
  UNKNOWN_PRODUCER_ID: { code: 59, retriable: false },
  FENCED_INSTANCE_ID: { code: 82, retriable: false },
  UNSTABLE_OFFSET_COMMIT: { code: 88, retriable: true },
  INVALID_RECORD: { code: 87, retriable: false },
  PRODUCER_FENCED: { code: 90, retriable: false },
  TRANSACTION_ABORTABLE: { code: 120, retriable: false },
} as const;

export type KafkaError = keyof typeof KAFKA_ERRORS;

/** Client-side exceptions that are not broker error codes, named as the Java client names them. */
export type ClientException =
  | 'TimeoutException'
  | 'CommitFailedException'
  | 'RebalanceInProgressException'
  | 'ConfigException'
  | 'KafkaException'
  | 'TransactionAbortedException'
  /** send(): the record is larger than max.request.size or buffer.memory (KafkaProducer.ensureValidRecordSize). */
  | 'RecordTooLargeException'
  /** send(): no room in buffer.memory within max.block.ms (BufferPool.allocate). */
  | 'BufferExhaustedException'
  /** send() throws: a new batch larger than buffer.memory (BufferPool.allocate's hard limit). */
  | 'IllegalArgumentException'
  /** poll(): the group coordinator refused the JoinGroup's session.timeout.ms (AbstractCoordinator.JoinGroupResponseHandler). */
  | 'InvalidSessionTimeoutException'
  /**
   * poll() or commitSync(): the group coordinator fenced this static member's group.instance.id —
   * another instance joined with it (FENCED_INSTANCE_ID, AbstractCoordinator / ConsumerCoordinator: fatal).
   */
  | 'FencedInstanceIdException'
  /** poll(): no committed offset and auto.offset.reset=none (SubscriptionState.resetInitializingPositions). */
  | 'NoOffsetForPartitionException'
  /** poll(): the position is outside the log and auto.offset.reset=none (FetchCollector.handleInitializeErrors). */
  | 'OffsetOutOfRangeException'
  /** poll(): OffsetsForLeaderEpoch found the log truncated below the position and auto.offset.reset=none (SubscriptionState.maybeCompleteValidation). */
  | 'LogTruncationException'
  | 'IllegalStateException'
  /** A transactional call once the producer is fenced (TransactionManager.maybeFailWithError throws it as itself). */
  | 'ProducerFencedException'
  /** A transactional call after a Produce was refused INVALID_PRODUCER_EPOCH (maybeFailWithError throws it as itself). */
  | 'InvalidProducerEpochException';

export function errorCode(error: KafkaError): number {
  return KAFKA_ERRORS[error].code;
}
