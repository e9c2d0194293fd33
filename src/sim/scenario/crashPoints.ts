/**
 * Named places in an application's loop where a crash can be injected (faults with `point`).
 * `where` narrows a point to a record, e.g. { "offset": 2 }.
 */
export const CRASH_POINTS = [
  'afterPoll',
  'afterProcess',
  'afterSideEffect',
  'afterProduce',
  'afterSendOffsets',
  'beforeCommit',
  'afterCommit',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

export const CRASH_POINT_DOCS: Readonly<Record<CrashPoint, string>> = {
  afterPoll: 'poll() returned records; nothing processed yet',
  afterProcess: 'the processing function ran on a record',
  afterSideEffect: 'the database write or API call for a record took effect',
  afterProduce: 'the output record for an input was handed to the producer',
  afterSendOffsets: 'sendOffsetsToTransaction completed (offsets pending in the transaction)',
  beforeCommit: 'the batch is processed; the commit is about to be sent',
  afterCommit: 'the commit (commitSync or commitTransaction) completed',
};
