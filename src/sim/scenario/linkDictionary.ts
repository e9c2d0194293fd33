/**
 * The preset deflate dictionary of link format 1: words that scenario documents repeat (the
 * format's field names, Kafka's config keys, RPC names, crash points, processing modes, the seeds'
 * vocabulary). Deflate can refer back into it from the first byte, which shortens a typical link
 * by a quarter to a third — the margin that keeps every preset under 2,000 characters.
 *
 * FROZEN: links made with format 1 can only be read with exactly these bytes. Changing one
 * character here is a new link format (bump LINK_VERSION in link.ts and add a migration).
 * Deflate codes nearer distances more cheaply, so the most frequent words come last.
 */
export const LINK_DICTIONARY_V1 = [
  'transaction.version transaction.partition.verification.enable transaction.max.timeout.ms',
  'offsets.topic.num.partitions transaction.state.log.num.partitions group.initial.rebalance.delay.ms',
  'segment.ms segment.bytes delete.retention.ms min.cleanable.dirty.ratio',
  'fetch.max.wait.ms heartbeat.interval.ms max.poll.records request.timeout.ms retry.backoff.ms retry.backoff.max.ms',
  'batch.size linger.ms "retries":0 "acks":0 "acks":1 "acks":"all"',
  'WriteTxnMarkers AddPartitionsToTxn AddOffsetsToTxn TxnOffsetCommit InitProducerId OffsetCommit OffsetFetch',
  'JoinGroup SyncGroup Heartbeat HttpRequest HttpResponse FetchResponse EndTxnResponse ProduceResponse',
  'afterPoll afterProcess afterSideEffect afterProduce afterSendOffsets beforeCommit afterCommit',
  '"mode":"offsets-in-db" "mode":"upsert" "mode":"insert" "mode":"inbox" "mode":"plain" "mode":"idempotency-key" "mode":"lookup-before-retry"',
  '"type":"database" "type":"http-api" "type":"outbox" "type":"streams" "inputTopic":"outputTopic":"groupBy":"key"',
  '"processing.guarantee":"exactly_once_v2" "processing.guarantee":"at_least_once" "commit.interval.ms":',
  '"mode":"at-most-once" "mode":"auto-commit" "mode":"commit-last-processed" "mode":"consume-produce-no-transactions" "mode":"offsets-in-sink"',
  '"producerConfig":{"transactional.id":"processingMs":"latencyMs":"startAt":"durationMs":"leaders":[0,1],"startOffset":',
  '"cleanup.policy":"compact" {"type":"runCleaner","at": "network":{"latencyMs":"jitterMs":"links":[{"from":"to":',
  '"run":{"maxTimeMs":"settleMs":"maxSteps":"checkpointEvery":"cluster":{"brokers":',
  '"auto.commit.interval.ms":"session.timeout.ms":"delivery.timeout.ms":"transaction.timeout.ms":',
  '"max.in.flight.requests.per.connection":"enable.idempotence":false "enable.auto.commit":false',
  '"isolation.level":"read_uncommitted" "isolation.level":"read_committed" "auto.offset.reset":"earliest"',
  '{"op":"sleep","ms":{"op":"flush"},{"op":"restart"},{"op":"abortTransaction"},{"op":"beginTransaction"},{"op":"commitTransaction"}',
  '{"type":"pause","target":{"type":"resume","target":{"type":"restart","target":{"type":"crash","target":"point":"where":{"offset":',
  '{"type":"duplicate","rpc":{"type":"delay","rpc":"Produce","delayMs":{"type":"drop","rpc":"ProduceResponse","nth":1,"count":"from":"to":"broker-0"',
  '"note":"the application sends the same event again "headers":{"event_id":"evt-{i}"},"count":',
  'Kafka idempotence idempotent producer producerId epoch sequence broker appended duplicate retry offsets offset',
  'transaction transactional committed aborted open LSO high watermark read_committed consumer group commits',
  'processed twice exactly once at least once at most once the database the payment API side effect inbox outbox',
  '{"op":"send","topic":"orders","key":"order-123","value":"{\\"type\\":\\"OrderCreated\\",\\"orderId\\":\\"order-123\\"}","headers":{"event_id":"evt-789"}}',
  '"outputTopic":"sink":"processing":{"mode":"exactly-once" "processing":{"mode":"at-least-once"',
  '{"id":"billing","type":"consumer","config":{"group.id":"billing"},"topics":["orders"],',
  '"clients":[{"id":"orders-service","type":"producer","config":{"enable.idempotence":true,"transactional.id":"',
  '"topics":[{"name":"orders","partitions":1,"config":{',
  '"sinks":[{"id":"faults":[{"type":"crash","target":"',
  '{"scenario":{"version":1,"id":"","title":"","question":"","expected":"","description":"","seed":',
  '"view":{"step":0,"selection":null,"language":"en"}}',
].join(' ');
