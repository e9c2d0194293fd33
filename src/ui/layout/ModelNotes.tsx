/**
 * What model the run uses: the transaction protocol version (and what differs between them) when
 * the scenario uses transactions — a transactional.id on some producer or an exactly_once_v2 Streams
 * application (usesTransactions) — and where the simulator simplifies Kafka — said on the page, not
 * only in the docs. Replication is described as modelled when the run has a KRaft controller (some
 * topic with more than one replica).
 */
import { type Trace, usesTransactions } from '../../sim/views';
import { useSim } from '../../store/useSim';

/** Whether each internal topic is replicated in this run (its replication factor set: its coordinator on its leader). */
interface InternalTopics {
  readonly transactions: boolean;
  readonly offsets: boolean;
}

function internalTopicsEn({ transactions, offsets }: InternalTopics): string {
  if (transactions && offsets)
    return '__transaction_state and __consumer_offsets are replicated too (transaction.state.log.replication.factor, offsets.topic.replication.factor): each coordinator lives on the leader of its partition and moves with it.';
  if (transactions)
    return '__transaction_state is replicated too (transaction.state.log.replication.factor): the transaction coordinator lives on the leader of its partition and moves with it; __consumer_offsets keeps one replica (the group coordinator is a fixed process).';
  if (offsets)
    return '__consumer_offsets is replicated too (offsets.topic.replication.factor): the group coordinator lives on the leader of its partition and moves with it; __transaction_state keeps one replica (the transaction coordinator is a fixed process).';
  return '__transaction_state and __consumer_offsets keep one replica (their coordinators are fixed processes).';
}

function internalTopicsKo({ transactions, offsets }: InternalTopics): string {
  if (transactions && offsets)
    return '__transaction_state와 __consumer_offsets도 복제됩니다(transaction.state.log.replication.factor, offsets.topic.replication.factor). 각 코디네이터는 자기 파티션의 리더에 있고 리더와 함께 옮겨 갑니다.';
  if (transactions)
    return '__transaction_state도 복제됩니다(transaction.state.log.replication.factor). 트랜잭션 코디네이터는 자기 파티션의 리더에 있고 리더와 함께 옮겨 갑니다. __consumer_offsets는 복제본 하나입니다(그룹 코디네이터가 고정된 프로세스).';
  if (offsets)
    return '__consumer_offsets도 복제됩니다(offsets.topic.replication.factor). 그룹 코디네이터는 자기 파티션의 리더에 있고 리더와 함께 옮겨 갑니다. __transaction_state는 복제본 하나입니다(트랜잭션 코디네이터가 고정된 프로세스).';
  return '__transaction_state와 __consumer_offsets는 복제본 하나입니다(코디네이터가 고정된 프로세스).';
}

function partitionsEn(n: number): string {
  return n === 1 ? '1 partition' : `${n} partitions`;
}

const TEXT = {
  en: {
    protocol: (v: 1 | 2, verification: boolean) =>
      v === 2
        ? 'Transaction protocol v2 (KIP-890, Kafka 4.x default): the leader adds a partition to the transaction when it verifies the first batch, and every EndTxn bumps the producer epoch, so markers carry the new epoch and a late produce of the old one is fenced.'
        : `Transaction protocol v1: the producer sends AddPartitionsToTxn and AddOffsetsToTxn itself; markers carry the producer's epoch; partition verification is ${verification ? 'on' : 'off (a late produce can open a hanging transaction)'}.`,
    summary: 'How this model simplifies Kafka',
    oneReplica: `One replica per partition in this run (no topic sets replicationFactor): the high watermark is the log end offset; acks=1 and acks=all behave alike; leaders never move. ${internalTopicsEn({ transactions: false, offsets: false })}`,
    replicated: (internal: InternalTopics) =>
      `Replication (KRaft) is modelled for topics with replicationFactor: followers fetch from the leader, the high watermark is the lowest log end offset of the ISR, a follower leaves the ISR after replica.lag.time.max.ms, the controller elects a new leader from the ISR (unclean only with unclean.leader.election.enable) and bumps the leader epoch, and a returning replica truncates to the new leader epoch. Brokers learn partition changes by message from the controller, not by fetching its metadata log. ${internalTopicsEn(internal)}`,
    partitions: (txn: number, offsets: number) =>
      `__transaction_state has ${partitionsEn(txn)} and __consumer_offsets ${partitionsEn(offsets)} (transaction.state.log.num.partitions, offsets.topic.num.partitions: 3 by default here, at most 10; Kafka's default is 50).`,
    items: [
      'A consumer sends one Fetch per broker with every partition that broker leads, as Kafka does, but each is a full fetch (no fetch sessions, KIP-227), fetch.min.bytes is 1 and a partition returns at most max.poll.records records (no byte limits).',
      'The group coordinator computes the assignment: by range for plain consumers, whose every rebalance revokes all partitions (eager); for Kafka Streams cooperatively and sticky — a task stays with its owner, one that moves is withheld until its owner revokes it and given in a follow-up rebalance (no standby or warm-up replicas, no probing rebalances).',
      'Retry and reconnect backoffs have no jitter; a null key moves to the next partition with a leader in order, not a random one.',
      'A client has no separate TCP connect: its first request to a broker after the reconnect backoff is its connection attempt, and a broker that is down refuses it — for Kafka that request was never sent (no retry counted, no error).',
      'poll() waits until records arrive; the log cleaner runs when asked.',
      'A producer reaches a coordinator that lives on a broker over a connection of its own, apart from its Produce requests to that broker (Kafka: one connection per broker).',
      'The transaction coordinator sends markers refused with a retriable error again after 100 ms (Kafka: at once).',
      "A broker's producer expiration check (producer.id.expiration.ms) shows as a step only at the runs that can drop a producer (Kafka runs it every producer.id.expiration.check.interval.ms).",
      "The transaction coordinator's transactional.id expiration (transactional.id.expiration.ms) shows as a step only at the runs that can expire an id, and writes one tombstone per id (Kafka runs it every transaction.remove.expired.transaction.cleanup.interval.ms and writes a partition's tombstones together).",
    ],
  },
  ko: {
    protocol: (v: 1 | 2, verification: boolean) =>
      v === 2
        ? '트랜잭션 프로토콜 v2 (KIP-890, Kafka 4.x 기본값): 리더가 첫 배치를 검증할 때 파티션을 트랜잭션에 추가하고, EndTxn마다 producer epoch가 올라갑니다. 그래서 마커는 새 epoch를 갖고, 늦게 도착한 이전 epoch의 Produce 요청은 펜싱됩니다.'
        : `트랜잭션 프로토콜 v1: 프로듀서가 AddPartitionsToTxn과 AddOffsetsToTxn을 직접 보내고, 마커는 프로듀서의 epoch를 갖습니다. 파티션 검증은 ${verification ? '켜져 있습니다' : '꺼져 있습니다 (늦게 도착한 Produce 요청이 끝나지 않는 트랜잭션을 열 수 있습니다)'}.`,
    summary: '이 모델이 Kafka를 단순화한 부분',
    oneReplica: `이 실행은 파티션당 복제본 하나(replicationFactor를 둔 토픽 없음): HW(하이 워터마크)는 LEO(로그 끝 offset)와 같고, acks=1과 acks=all이 같게 동작하며, 리더는 바뀌지 않습니다. ${internalTopicsKo({ transactions: false, offsets: false })}`,
    replicated: (internal: InternalTopics) =>
      `replicationFactor를 둔 토픽은 복제(KRaft)를 모델링합니다: 팔로워가 리더에게서 fetch하고, HW는 ISR의 가장 작은 LEO이며, replica.lag.time.max.ms보다 뒤처진 팔로워는 ISR에서 빠지고, 컨트롤러가 ISR에서 새 리더를 뽑고(unclean.leader.election.enable일 때만 ISR 밖에서) leaderEpoch를 올리며, 돌아온 복제본은 새 leaderEpoch에 맞춰 로그를 자릅니다. 브로커는 컨트롤러의 메타데이터 로그를 fetch하지 않고 메시지로 파티션 변경을 받습니다. ${internalTopicsKo(internal)}`,
    partitions: (txn: number, offsets: number) =>
      `__transaction_state는 파티션 ${txn}개, __consumer_offsets는 ${offsets}개입니다(transaction.state.log.num.partitions, offsets.topic.num.partitions 설정: 이 모델의 기본값 3, 최대 10. Kafka 기본값은 50).`,
    items: [
      '컨슈머는 Kafka처럼 브로커마다 Fetch 하나에 그 브로커가 리더인 파티션을 모두 담지만, 매번 전체 fetch입니다(fetch 세션, KIP-227 없음). fetch.min.bytes는 1이고, 파티션마다 최대 max.poll.records개의 레코드를 돌려줍니다(바이트 한도 없음).',
      '그룹 코디네이터가 할당을 계산합니다. 일반 컨슈머는 range 할당이고 리밸런스마다 모든 파티션을 회수합니다(eager). Kafka Streams는 협력형 고정 할당입니다. 태스크는 소유자에게 남고, 옮겨 갈 태스크는 소유자가 회수할 때까지 보류했다가 후속 리밸런스에서 넘깁니다(대기 복제본, 예열 복제본, 탐색용 리밸런스는 없음).',
      '재시도 backoff와 재연결 backoff에 jitter가 없고, null 키는 무작위가 아니라 리더가 있는 다음 파티션으로 옮겨 갑니다.',
      '클라이언트에는 따로 TCP 연결 단계가 없습니다. 재연결 backoff가 지난 뒤 브로커에 보내는 첫 요청이 연결 시도이고, 내려간 브로커는 이를 거부합니다. Kafka로 보면 그 요청은 보내진 적이 없습니다(재시도로 세지 않고 오류도 없습니다).',
      'poll()은 레코드가 올 때까지 기다리고, 로그 클리너는 요청할 때만 실행됩니다.',
      '프로듀서는 브로커에 있는 코디네이터에 그 브로커로 가는 Produce 요청과 다른 별도 연결로 접속합니다(Kafka는 브로커당 연결 하나).',
      '트랜잭션 코디네이터는 재시도할 수 있는 오류로 거절된 마커를 100 ms 뒤에 다시 보냅니다(Kafka는 곧바로).',
      '브로커의 프로듀서 만료 검사(producer.id.expiration.ms)는 프로듀서를 지울 수 있는 회차에만 단계로 나타납니다(Kafka는 producer.id.expiration.check.interval.ms마다 실행).',
      '트랜잭션 코디네이터의 transactional.id 만료(transactional.id.expiration.ms)는 id를 만료시킬 수 있는 회차에만 단계로 나타나고, id마다 툼스톤을 하나씩 씁니다(Kafka는 transaction.remove.expired.transaction.cleanup.interval.ms마다 실행하고 한 파티션의 툼스톤을 함께 씁니다).',
    ],
  },
} as const;

export function ModelNotes({ trace }: { readonly trace: Trace }) {
  const language = useSim((s) => s.language);
  const t = TEXT[language];
  const cluster = trace.resolved.cluster;
  // the KRaft controller runs only when some partition has more than one replica
  const replicated = trace.built.processes.some((p) => p.id === 'controller');
  // an internal topic whose replication factor the scenario sets is replicated, its coordinator on its leader
  const setInCluster = (key: string) => (trace.resolved.scenario.cluster as Record<string, unknown> | undefined)?.[key] !== undefined;
  const internal = {
    transactions: setInCluster('transaction.state.log.replication.factor'),
    offsets: setInCluster('offsets.topic.replication.factor'),
  };
  // the protocol version only matters to a run with transactions
  const transactions = usesTransactions(trace.resolved);
  return (
    <section className="model-notes muted" aria-label={t.summary} data-testid="model-notes" lang={language}>
      {transactions && (
        <p data-testid="protocol-version">
          {t.protocol(cluster['transaction.version'], cluster['transaction.partition.verification.enable'])}
        </p>
      )}
      <details>
        <summary>{t.summary}</summary>
        <ul>
          {[
            replicated ? t.replicated(internal) : t.oneReplica,
            t.partitions(cluster['transaction.state.log.num.partitions'], cluster['offsets.topic.num.partitions']),
            ...t.items,
          ].map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </details>
    </section>
  );
}
