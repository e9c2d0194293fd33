/**
 * Narration of a producer's close() with its transaction still open (producer.machine.ts
 * `abortOnClose`): the Sender aborts it on shutdown before the producer closes.
 */

/** Korean for the producer's notes about close() aborting its transaction (notes.ts KO_RULES). */
export const PRODUCER_CLOSE_KO_RULES: readonly (readonly [RegExp, (m: RegExpMatchArray) => string])[] = [
  [
    /^close\(\): the transaction is still open, so the Sender aborts it on shutdown \("Aborting incomplete transaction due to shutdown": EndTxn\(ABORT\)\) and close\(\) returns once the abort is done$/,
    () =>
      'close(): 트랜잭션이 아직 열려 있으므로 Sender가 종료하면서 이를 중단합니다("Aborting incomplete transaction due to shutdown": EndTxn(ABORT)). close()는 중단이 끝난 뒤에 반환합니다',
  ],
  [
    /^close\(\): the transaction is still open, so the Sender aborts it on shutdown \("Aborting incomplete transaction due to shutdown"\); nothing was sent in it, so the abort completes without EndTxn$/,
    () =>
      'close(): 트랜잭션이 아직 열려 있으므로 Sender가 종료하면서 이를 중단합니다("Aborting incomplete transaction due to shutdown"). 트랜잭션에서 보낸 것이 없으므로 EndTxn 없이 중단이 끝납니다',
  ],
  [
    /^the abort is complete; the producer is closing, so the epoch bump \(InitProducerId\) queued after it is never sent$/,
    () => '중단이 끝났습니다. 프로듀서가 닫히는 중이므로 그 뒤에 대기하던 epoch 올리기(InitProducerId)는 보내지 않습니다',
  ],
];
