/**
 * Narration of the producer's waitOnMetadata (producer/waitOnMetadata.ts): send() to a topic the
 * producer knows no partition of blocks until a Metadata answer names them, at most max.block.ms.
 */
import { josa, type Language, list, say } from './language';

/** Korean for the producer's notes about waitOnMetadata (notes.ts KO_RULES). */
export const WAIT_ON_METADATA_KO_RULES: readonly (readonly [RegExp, (m: RegExpMatchArray) => string])[] = [
  [
    /^send\(\) to (\S+) blocks in waitOnMetadata: the producer knows no partition of \S+ yet, asks for them in a Metadata request and waits at most max\.block\.ms \((\d+) ms\)$/,
    (m) =>
      `${josa(m[1] as string, '으로/로')}의 send()가 waitOnMetadata에서 멈춥니다. 프로듀서는 아직 ${m[1]}의 파티션을 모르므로 Metadata 요청으로 묻고, 최대 max.block.ms(${m[2]} ms)까지 기다립니다`,
  ],
  [
    /^send\(\) to (\S+) partition (\d+) blocks in waitOnMetadata: the producer's metadata has (\d+) partition\(s\) of \S+, so it asks for a metadata update and waits at most max\.block\.ms \((\d+) ms\)$/,
    (m) =>
      `${m[1]}의 ${josa(`파티션 ${m[2]}`, '으로/로')}의 send()가 waitOnMetadata에서 멈춥니다. 프로듀서의 메타데이터에는 ${m[1]}의 파티션이 ${m[3]}개뿐이므로 메타데이터 업데이트를 요청하고, 최대 max.block.ms(${m[4]} ms)까지 기다립니다`,
  ],
  [
    /^no send\(\) to (\S+) for metadata\.max\.idle\.ms \((\d+) ms\): this metadata update forgets \S+ \(ProducerMetadata\.retainTopic\), and the next send\(\) to it waits on metadata again$/,
    (m) =>
      `metadata.max.idle.ms(${m[2]} ms) 동안 ${josa(m[1] as string, '으로/로')}의 send()가 없었습니다. 이번 메타데이터 업데이트에서 ${josa(m[1] as string, '을/를')} 잊으므로(ProducerMetadata.retainTopic), 다음 send()는 다시 메타데이터를 기다립니다`,
  ],
  [
    /^the Metadata answer names the partitions of (\S+): the send\(\) waiting in waitOnMetadata goes on$/,
    (m) => `Metadata 응답이 ${m[1]}의 파티션을 알려 줍니다. waitOnMetadata에서 기다리던 send()가 계속됩니다`,
  ],
];

const NOT_PRESENT = /^Topic (\S+) not present in metadata after (\d+) ms\.$/;
const PARTITION_NOT_PRESENT = /^Partition (\d+) of topic (\S+) with partition count (\d+) is not present in metadata after (\d+) ms\.$/;

/** waitOnMetadata gave up at max.block.ms: KafkaProducer.doSend's TimeoutException. Null for any other message. */
export function metadataTimeoutClause(lang: Language, who: string, message: string): string | null {
  const p = message.match(PARTITION_NOT_PRESENT);
  if (p)
    return say(
      lang,
      `${who}'s send() waited max.block.ms in waitOnMetadata for partition ${p[1]} of ${p[2]}, which has ${p[3]} partition(s), and gave up with TimeoutException ("${message}"): an ApiException, so send() throws nothing — the future it returns and the record's callback fail`,
      `${who}의 send()가 waitOnMetadata에서 ${josa(`${p[2]}의 파티션 ${p[1]}`, '을/를')} max.block.ms 동안 기다린 뒤 TimeoutException("${p[4]} ms가 지나도록 파티션이 ${p[3]}개인 토픽 ${p[2]}의 ${josa(`파티션 ${p[1]}`, '이/가')} 메타데이터에 없습니다")으로 포기했습니다. ApiException이므로 send()는 예외를 던지지 않고, 돌려준 퓨처와 레코드의 콜백이 실패합니다.`,
    );
  const m = message.match(NOT_PRESENT);
  if (!m) return null;
  return say(
    lang,
    `${who}'s send() waited max.block.ms in waitOnMetadata and gave up with TimeoutException ("${message}"): an ApiException, so send() throws nothing — the future it returns and the record's callback fail; the producer keeps asking for ${m[1]}`,
    `${who}의 send()가 waitOnMetadata에서 max.block.ms 동안 기다린 뒤 TimeoutException("${m[2]} ms가 지나도록 메타데이터에 토픽 ${josa(m[1] as string, '이/가')} 없습니다")으로 포기했습니다. ApiException이므로 send()는 예외를 던지지 않고, 돌려준 퓨처와 레코드의 콜백이 실패합니다. 프로듀서는 ${josa(m[1] as string, '을/를')} 계속 묻습니다.`,
  );
}

/** A broker answers a client's Metadata request from its metadata cache (metadataRequest.ts). */
export function metadataRequestClause(lang: Language, broker: string, client: string, topics: readonly string[]): string {
  const which = topics.length ? list(lang, [...topics]) : say(lang, 'every topic', '모든 토픽');
  return say(
    lang,
    `${broker} answers the Metadata request of ${client} for ${which}: partitions, leaders and leader epochs as its metadata cache has them`,
    `${josa(broker, '이/가')} ${client}의 Metadata 요청(${which})에 메타데이터 캐시에 있는 파티션, 리더, 리더 epoch로 답합니다.`,
  );
}
