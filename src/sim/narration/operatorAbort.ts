/**
 * An operator's `kafka-transactions.sh abort --start-offset N` (broker/operatorAbort.ts), said from
 * its `operatorAbort` fact: what the tool found and wrote, or what it printed and why.
 */
import type { Fact } from '../trace/facts';
import type { NarrationContext } from './context';
import { josa, say } from './language';

type F<K extends Fact['kind']> = Extract<Fact, { kind: K }>;

export function operatorAbort(ctx: NarrationContext, f: F<'operatorAbort'>): string {
  const { lang } = ctx;
  const tp = `${f.topic}-${f.partition}`;
  const ran = say(
    lang,
    `an operator ran kafka-transactions.sh abort --topic ${f.topic} --partition ${f.partition} --start-offset ${f.startOffset}`,
    `운영자가 토픽 ${f.topic}, 파티션 ${f.partition}에 kafka-transactions.sh abort --start-offset ${josa(String(f.startOffset), '을/를')} 실행했습니다`,
  );
  if (f.failure === 'no-leader')
    return say(
      lang,
      `${ran}: ${tp} had no leader to answer its DescribeProducers — its admin client looked one up again and again until default.api.timeout.ms — so it printed "${f.printed}" and wrote nothing`,
      `${ran}. ${tp}에는 DescribeProducers에 답할 리더가 없었습니다. 관리 클라이언트는 default.api.timeout.ms까지 리더를 거듭 찾다가 시간 초과로 실패하고, 도구는 프로듀서 상태를 확인하지 못했다는 오류를 출력하고 아무것도 쓰지 않은 채 끝납니다.`,
    );
  if (f.failure === 'leader-unreachable') {
    const leader = f.unreachable ?? 'its leader';
    return say(
      lang,
      `${ran}: the leader of ${tp}, ${leader}, accepts no connection (down, or restarted and not yet unfenced by the controller), so its admin client kept the DescribeProducers call waiting until default.api.timeout.ms and the tool printed "${f.printed}" and wrote nothing`,
      `${ran}. ${tp}의 리더 ${josa(leader, '이/가')} 연결을 받지 않습니다(다운되었거나, 재시작 뒤 컨트롤러가 아직 펜스를 풀지 않았습니다). 관리 클라이언트는 DescribeProducers 호출을 default.api.timeout.ms까지 기다리다 시간 초과로 실패하고, 도구는 프로듀서 상태를 확인하지 못했다는 오류를 출력하고 아무것도 쓰지 않은 채 끝납니다.`,
    );
  }
  if (f.failure === 'no-open-transaction' || f.spec === null)
    return say(
      lang,
      `${ran}: no producer on ${tp} has an open transaction starting at offset ${f.startOffset} (DescribeProducers on ${f.broker}), so it printed "${f.printed}" and wrote nothing`,
      `${ran}. ${f.broker}에 보낸 DescribeProducers 결과, ${tp}에는 offset ${f.startOffset}에서 시작하는 열린 트랜잭션이 없습니다. 도구는 그런 트랜잭션을 찾지 못했다고 출력하고 아무것도 쓰지 않은 채 끝납니다.`,
    );
  const ids = `producerId ${f.spec.producerId}, epoch ${f.spec.producerEpoch}, coordinator epoch ${f.spec.coordinatorEpoch}`;
  const idsKo = `producerId ${f.spec.producerId}(epoch ${f.spec.producerEpoch}, 코디네이터 epoch ${f.spec.coordinatorEpoch})`;
  if (f.failure !== null)
    return say(
      lang,
      `${ran}: it found the transaction of ${ids} there, but ${f.broker} refused its ABORT marker with ${f.failure}, so it printed "${f.printed}"`,
      `${ran}. ${tp}에서 ${idsKo}의 트랜잭션을 찾았지만 ${josa(f.broker, '이/가')} ABORT 마커를 ${josa(f.failure, '으로/로')} 거절했습니다. 도구는 트랜잭션 중단에 실패했다는 오류를 출력하고 끝납니다.`,
    );
  return say(
    lang,
    `${ran}: DescribeProducers on ${f.broker} found the open transaction of ${ids} starting there, and its WriteTxnMarkers asks ${f.broker} for an ABORT marker with those epochs (at offset ${f.markerOffset}) — the transaction coordinator is not told: a hanging transaction is ended so, but one the coordinator still has open goes on, and its own markers come later`,
    `${ran}. ${f.broker}에 보낸 DescribeProducers로 그 offset에서 시작하는 ${idsKo}의 열린 트랜잭션을 찾고, WriteTxnMarkers로 ${f.broker}에 같은 epoch의 ABORT 마커(offset ${f.markerOffset})를 요청합니다. 트랜잭션 코디네이터는 이 사실을 모릅니다. 행잉 트랜잭션은 이렇게 끝나지만, 코디네이터가 아직 열어 둔 트랜잭션이라면 그대로 이어지고 코디네이터의 마커가 나중에 기록됩니다.`,
  );
}
