/**
 * The consumer's `coordinatorLookupRetry` timer in words: AbstractCoordinator.ensureCoordinatorReady's
 * sleep after a failed coordinator lookup is over (consumer/pollLookup.ts). Inside poll(), commitSync()
 * or close() a failed FindCoordinator is followed by a metadata update first (awaitMetadataUpdate); a
 * coordinator named inside its reconnect backoff, or another group request held, by the FindCoordinator itself.
 */
import type { NarrationContext } from './context';
import { josa, say } from './language';
import { poss } from './names';

/** What this step sent, by RPC. */
function sentRpcs(ctx: NarrationContext): readonly string[] {
  return ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)?.rpc ?? '');
}

/** `sent`: the step's requests as words ("FindCoordinator to broker-0"); `data`: the timer's. */
export function coordinatorLookupRetryClause(ctx: NarrationContext, who: string, sent: string, data: Record<string, unknown>): string {
  const { lang } = ctx;
  const rpcs = sentRpcs(ctx);
  const backoff = say(
    lang,
    `${poss(who, 'backoff')} after a failed coordinator lookup has passed`,
    `${who}의 코디네이터 조회 실패 뒤 backoff가 지났습니다`,
  );
  if (rpcs.includes('FindCoordinator'))
    return say(
      lang,
      `${backoff}: it asks for the group coordinator again and sends ${sent}`,
      `${backoff}. 그룹 코디네이터를 다시 찾습니다. ${josa(sent, '을/를')} 보냅니다.`,
    );
  if (rpcs.includes('Metadata'))
    return say(
      lang,
      `${backoff}: inside poll(), commitSync() or close() it first waits for fresh metadata (awaitMetadataUpdate) and sends ${sent}; the FindCoordinator follows its answer`,
      `${backoff}. poll(), commitSync(), close() 안에서 먼저 메타데이터 갱신을 기다립니다(awaitMetadataUpdate). ${josa(sent, '을/를')} 보내고, 그 응답 뒤에 FindCoordinator를 보냅니다.`,
    );
  if (data.metadata === true)
    return say(
      lang,
      `${backoff}: no FindCoordinator now — it waits for a metadata update first (its Metadata request is itself backing off), or the coordinator is known again, or a lookup is still in flight, or no poll(), commitSync() or close() waits for it any more`,
      `${backoff}. 지금은 FindCoordinator를 보내지 않습니다. 먼저 메타데이터 갱신을 기다리거나(Metadata 요청도 backoff 중), 코디네이터를 다시 알게 되었거나, 조회가 아직 진행 중이거나, 더는 기다리는 poll(), commitSync(), close()가 없습니다.`,
    );
  return say(
    lang,
    `${backoff}: no FindCoordinator now — the coordinator is known again, a lookup is still in flight, or no poll() or group request waits for it (a member in its group has its heartbeat thread look)`,
    `${backoff}. 지금은 FindCoordinator를 보내지 않습니다. 코디네이터를 다시 알게 되었거나, 조회가 아직 진행 중이거나, 코디네이터를 기다리는 poll()이나 그룹 요청이 없습니다(그룹에 속한 멤버라면 하트비트 스레드가 찾습니다).`,
  );
}
