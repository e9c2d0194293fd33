/**
 * A large kafka-dump-log.sh dump in Kafka 4.0's shape (--print-data-log): transactions of 10 records
 * each, committed, every 7th aborted, a plain batch between, and one transaction left open at the end
 * by producerId 900001 — so the analysis has markers to match and an LSO to pin.
 */
export function bigDump(records: number): string {
  const lines = ['Dumping /var/lib/kafka/data/bench-0/00000000000000000000.log', 'Log starting offset: 0'];
  let offset = 0;
  let txn = 0;
  const seq = new Map<number, number>();
  while (offset < records) {
    const last = offset + 9 >= records - 1;
    const pid = last ? 900001 : 1000 + (txn % 50);
    const s = seq.get(pid) ?? 0;
    const n = Math.min(10, records - offset);
    lines.push(
      `baseOffset: ${offset} lastOffset: ${offset + n - 1} count: ${n} baseSequence: ${s} lastSequence: ${s + n - 1} producerId: ${pid} producerEpoch: 0 partitionLeaderEpoch: 0 isTransactional: true isControl: false deleteHorizonMs: OptionalLong.empty position: ${offset * 80} CreateTime: ${offset} size: 800 magic: 2 compresscodec: none crc: 1 isvalid: true`,
    );
    for (let i = 0; i < n; i++)
      lines.push(
        `| offset: ${offset + i} CreateTime: ${offset + i} keySize: 6 valueSize: 9 sequence: ${s + i} headerKeys: [] key: k-${(offset + i) % 9973} payload: v-${offset + i}`,
      );
    seq.set(pid, s + n);
    offset += n;
    if (last || offset >= records) break;
    const type = txn % 7 === 6 ? 'ABORT' : 'COMMIT';
    lines.push(
      `baseOffset: ${offset} lastOffset: ${offset} count: 1 baseSequence: -1 lastSequence: -1 producerId: ${pid} producerEpoch: 0 partitionLeaderEpoch: 0 isTransactional: true isControl: true deleteHorizonMs: OptionalLong.empty position: ${offset * 80} CreateTime: ${offset} size: 78 magic: 2 compresscodec: none crc: 1 isvalid: true`,
      `| offset: ${offset} CreateTime: ${offset} keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: ${type} coordinatorEpoch: 0`,
    );
    offset += 1;
    txn += 1;
  }
  return `${lines.join('\n')}\n`;
}
