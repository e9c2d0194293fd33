/**
 * The names of the kinds of process (brokers, coordinators, clients, Streams tasks, outside
 * systems), in English and Korean: the message diagram's rows and the failure injector's actors
 * both say them. Keys are the process kinds of the model's actors.
 */
const EN: Readonly<Record<string, string>> = {
  broker: 'broker',
  controller: 'KRaft controller',
  'txn-coordinator': 'transaction coordinator',
  'group-coordinator': 'group coordinator',
  producer: 'producer client',
  consumer: 'consumer client',
  streams: 'Streams task',
  sink: 'outside Kafka',
};

const KO: Readonly<Record<string, string>> = {
  broker: '브로커',
  controller: 'KRaft 컨트롤러',
  'txn-coordinator': '트랜잭션 코디네이터',
  'group-coordinator': '그룹 코디네이터',
  producer: '프로듀서 클라이언트',
  consumer: '컨슈머 클라이언트',
  streams: 'Streams 태스크',
  sink: 'Kafka 바깥',
};

export function processKindNames(language: 'en' | 'ko'): Readonly<Record<string, string>> {
  return language === 'ko' ? KO : EN;
}
