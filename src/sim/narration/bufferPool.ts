/**
 * Narration of the producer's buffer.memory (producer/bufferPool.ts): send() blocked in
 * BufferPool.allocate until a batch completes, at most what is left of max.block.ms; its
 * BufferExhaustedException; the hard limit's IllegalArgumentException; a record larger than
 * buffer.memory.
 */
import { groupDigits } from '../text/groupDigits';
import { josa, type Language, say } from './language';

/** Korean for the producer's notes about the buffer pool (notes.ts KO_RULES). */
export const BUFFER_POOL_KO_RULES: readonly (readonly [RegExp, (m: RegExpMatchArray) => string])[] = [
  [
    /^send\(\) to (\S+) blocks in BufferPool\.allocate: its new batch needs (\d+) bytes, and buffer\.memory \((\d+) bytes\) has (\d+) free until a batch completes; it waits at most (\d+) ms \(what is left of max\.block\.ms\)$/,
    (m) =>
      `${josa(m[1] as string, '으로/로')}의 send()가 BufferPool.allocate에서 멈춥니다. 새 배치에 ${m[2]}바이트가 필요한데 buffer.memory(${m[3]}바이트)에는 배치가 끝날 때까지 ${m[4]}바이트만 비어 있습니다. 최대 ${m[5]} ms(max.block.ms의 남은 시간)까지 기다립니다`,
  ],
  [
    /^send\(\) to (\S+) blocks in BufferPool\.allocate behind (\d+) earlier send\(\) waiting for buffer\.memory: its new batch needs (\d+) bytes; it waits at most (\d+) ms \(what is left of max\.block\.ms\)$/,
    (m) =>
      `${josa(m[1] as string, '으로/로')}의 send()가 BufferPool.allocate에서 buffer.memory를 먼저 기다리는 send() ${m[2]}개 뒤에 멈춥니다. 새 배치에 ${m[3]}바이트가 필요하고, 최대 ${m[4]} ms(max.block.ms의 남은 시간)까지 기다립니다`,
  ],
  [
    /^(\d+) bytes of buffer\.memory are free for the send\(\) to (\S+) waiting in BufferPool\.allocate since (\d+) ms: it goes on$/,
    (m) =>
      `buffer.memory에 ${m[1]}바이트가 비어, ${m[3]} ms부터 BufferPool.allocate에서 기다리던 ${josa(m[2] as string, '으로/로')}의 send()가 계속됩니다`,
  ],
];

const EXHAUSTED =
  /^Failed to allocate (\d+) bytes within the configured max blocking time (\d+) ms\. Total memory: (\d+) bytes\. Available memory: (\d+) bytes\. Poolable size: (\d+) bytes$/;
const HARD_LIMIT = /^Attempt to allocate (\d+) bytes, but there is a hard limit of (\d+) on memory allocations\.$/;
const TOO_LARGE = /^send\(\) \((\d+) bytes > buffer\.memory (\d+)\)$/;

/**
 * A producer's clientError about buffer.memory (`error`, `during` as the fact has them), or null for
 * any other.
 */
export function bufferPoolClause(lang: Language, who: string, error: string, during: string): string | null {
  const call = during.match(/^send: (.+)$/);
  const e = error === 'BufferExhaustedException' && call ? (call[1] as string).match(EXHAUSTED) : null;
  if (e)
    return say(
      lang,
      `${who}'s send() waited ${groupDigits(Number(e[2]))} ms (what was left of max.block.ms) in BufferPool.allocate for ${groupDigits(Number(e[1]))} bytes of buffer.memory and gave up with BufferExhaustedException ("${call?.[1]}"): an ApiException, so send() throws nothing — the future it returns and the record's callback fail, and the record is never sent`,
      `${who}의 send()가 BufferPool.allocate에서 buffer.memory ${groupDigits(Number(e[1]))}바이트를 ${groupDigits(Number(e[2]))} ms(max.block.ms의 남은 시간) 동안 기다린 뒤 BufferExhaustedException으로 포기했습니다(전체 ${groupDigits(Number(e[3]))}바이트 중 ${groupDigits(Number(e[4]))}바이트 남음). ApiException이므로 send()는 예외를 던지지 않고, 돌려준 퓨처와 레코드의 콜백이 실패합니다. 레코드는 전송되지 않습니다.`,
    );
  const h = error === 'IllegalArgumentException' && call ? (call[1] as string).match(HARD_LIMIT) : null;
  if (h)
    return say(
      lang,
      `${who}'s send() threw IllegalArgumentException ("${call?.[1]}"): its new batch (batch.size) is larger than buffer.memory, so BufferPool.allocate refuses it at once — not an ApiException: send() throws, no callback runs, and the record is never sent`,
      `${who}의 send()가 IllegalArgumentException을 던졌습니다(${groupDigits(Number(h[1]))}바이트를 할당하려 했지만 메모리 할당 한도는 ${groupDigits(Number(h[2]))}바이트입니다). 새 배치(batch.size)가 buffer.memory보다 커서 BufferPool.allocate가 바로 거부합니다. ApiException이 아니므로 send()가 예외를 던지고 콜백은 불리지 않으며, 레코드는 전송되지 않습니다.`,
    );
  const t = error === 'RecordTooLargeException' ? during.match(TOO_LARGE) : null;
  if (t)
    return say(
      lang,
      `${who}'s send() refused the record with RecordTooLargeException ("The message is ${t[1]} bytes when serialized which is larger than the total memory buffer you have configured with the buffer.memory configuration."): it could never fit the producer's buffer.memory (${groupDigits(Number(t[2]))} bytes), so it is never sent — the future send() returns and the record's callback fail`,
      `${who}의 send()가 레코드를 RecordTooLargeException으로 거부했습니다(직렬화한 크기 ${groupDigits(Number(t[1]))}바이트가 buffer.memory로 설정한 전체 메모리 버퍼보다 큽니다). 프로듀서의 buffer.memory(${groupDigits(Number(t[2]))}바이트)에 들어갈 수 없으므로 전송되지 않고, send()가 돌려준 퓨처와 레코드의 콜백이 실패합니다.`,
    );
  return null;
}

/** send() returned after BufferPool.allocate held it: memory was freed, or what was left of max.block.ms passed first. */
export function sendAfterBufferClause(lang: Language, who: string, ms: number, failed: string | null, tp: string): string {
  if (failed !== null)
    return say(
      lang,
      `send() returned to ${who} after ${groupDigits(ms)} ms in BufferPool.allocate, its record failed with ${failed}: the future send() returns and the record's callback carry it, nothing was thrown`,
      `send()가 BufferPool.allocate에서 ${groupDigits(ms)} ms를 기다린 뒤 반환됐고, 레코드는 ${josa(failed, '으로/로')} 실패했습니다. 예외를 던지지 않고 send()가 돌려준 퓨처와 레코드의 콜백으로 알립니다.`,
    );
  return say(
    lang,
    `send() returned to ${who} once a completed batch gave back buffer.memory, after ${groupDigits(ms)} ms in BufferPool.allocate: the record waits in the producer's batch for ${tp}`,
    `끝난 배치가 buffer.memory를 돌려줘 send()가 BufferPool.allocate에서 ${groupDigits(ms)} ms를 기다린 뒤 반환됐습니다. 레코드는 ${tp}용 배치에서 기다립니다.`,
  );
}
