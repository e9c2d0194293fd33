/** The dump view's own words, in English and Korean (Kafka's terms stay in Latin script in both). */
import type { Language } from '../../store/simStore';

const EN = {
  importButton: 'Import dump',
  importTitle: 'Open a partition dump',
  importHelp:
    'Paste or drop the output of kafka-dump-log.sh --files <segment>.log (with or without --deep-iteration and --print-data-log), from Kafka 3.x or 4.x or from npm run sim. Several files: one lane per partition; segments of one partition are joined. Nothing leaves your browser.',
  pasteLabel: 'Dump text',
  filesLabel: 'Dump files',
  dropHere: 'Drop dump files here',
  open: 'Open',
  cancel: 'Cancel',
  reading: 'Reading…',
  cannotRead: 'The dump cannot be read',
  /** What an error calls the text pasted into the form (its source's name is "pasted"). */
  pasted: 'pasted',
  foundLine: 'found',
  title: (partitions: number, records: number) =>
    `Imported dump: ${partitions} ${partitions === 1 ? 'partition' : 'partitions'}, ${records} ${records === 1 ? 'record' : 'records'}`,
  close: 'Back to the simulator',
  exportSvg: 'Export SVG',
  exportPng: 'Export PNG',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  linkTooLong: 'Too large for a link: share the file instead',
  findings: 'What the dump shows',
  lsoPinned: (lso: number, pid: number, epoch: number, first: number) =>
    `LSO ${lso}: pinned by producerId ${pid}, epoch ${epoch}, open since offset ${first}`,
  lsoFree: (lso: number) => `LSO ${lso}: no open transaction holds it back`,
  hwAssumed: 'The dump does not show the high watermark: it is taken as the log end offset.',
  openTxns: 'Open transactions (as kafka-transactions.sh find-hanging lists them)',
  mayEndLater: 'The last segment given ends with them open: a later segment may hold their markers.',
  seqGap: (pid: number, epoch: number, offset: number, expected: number, found: number) =>
    `Sequence gap: producerId ${pid} epoch ${epoch} at offset ${offset}: expected ${expected}, found ${found}`,
  maybeCompaction: ' (offsets are missing: compaction may explain it)',
  epochChange: (pid: number, from: number, to: number, offset: number, marker: boolean) =>
    `Epoch change: producerId ${pid} ${from} → ${to} at offset ${offset}${marker ? ' (on a marker)' : ''}`,
  missing: (n: number) => `${n} ${n === 1 ? 'offset' : 'offsets'} missing: a compacted segment, or segments not given`,
  orphan: (offset: number, pid: number) =>
    `Marker at offset ${offset} for producerId ${pid} with no data of its transaction before it in the dump`,
  unknownMarkers: (n: number) => `${n} ${n === 1 ? 'marker' : 'markers'} of unknown type: dump with --deep-iteration to see COMMIT/ABORT`,
  duplicates: 'Stored more than once',
  noDuplicates: 'Nothing stored more than once (by event_id header, else key and value).',
  noData: 'No keys or payloads in the dump (no --print-data-log): duplicates cannot be looked for.',
  copies: (n: number, visible: number) => `${n} copies, ${visible} visible to read_committed`,
  warnings: 'Warnings',
};

const KO: typeof EN = {
  importButton: '덤프 가져오기',
  importTitle: '파티션 덤프 열기',
  importHelp:
    'kafka-dump-log.sh --files <세그먼트>.log 의 출력(--deep-iteration, --print-data-log 유무 상관없이, Kafka 3.x·4.x 또는 npm run sim)을 붙여 넣거나 끌어다 놓으세요. 여러 파일: 파티션마다 한 레인, 한 파티션의 세그먼트는 이어 붙입니다. 아무것도 브라우저 밖으로 나가지 않습니다.',
  pasteLabel: '덤프 텍스트',
  filesLabel: '덤프 파일',
  dropHere: '덤프 파일을 여기에 놓으세요',
  open: '열기',
  cancel: '취소',
  reading: '읽는 중…',
  cannotRead: '덤프를 읽을 수 없습니다',
  pasted: '붙여 넣은 텍스트',
  foundLine: '입력',
  title: (partitions, records) => `가져온 덤프: 파티션 ${partitions}개, 레코드 ${records}개`,
  close: '시뮬레이터로 돌아가기',
  exportSvg: 'SVG 내보내기',
  exportPng: 'PNG 내보내기',
  copyLink: '링크 복사',
  linkCopied: '링크를 복사했습니다',
  linkTooLong: '링크로 담기엔 너무 큽니다: 파일을 공유하세요',
  findings: '덤프가 보여 주는 것',
  lsoPinned: (lso, pid, epoch, first) =>
    `LSO ${lso}: producerId ${pid}, epoch ${epoch}의 트랜잭션이 offset ${first}부터 열려 있어 LSO를 붙잡고 있습니다`,
  lsoFree: (lso) => `LSO ${lso}: 붙잡고 있는 열린 트랜잭션이 없습니다`,
  hwAssumed: '덤프에는 high watermark가 없습니다: 로그 끝 offset으로 간주합니다.',
  openTxns: '열린 트랜잭션 (kafka-transactions.sh find-hanging 이 나열하는 형식)',
  mayEndLater: '주어진 마지막 세그먼트가 이 트랜잭션들이 열린 채로 끝납니다: 마커는 이후 세그먼트에 있을 수 있습니다.',
  seqGap: (pid, epoch, offset, expected, found) =>
    `시퀀스 간격: producerId ${pid} epoch ${epoch}, offset ${offset}: ${expected}이어야 하는데 ${found}`,
  maybeCompaction: ' (빠진 offset이 있습니다: 컴팩션 때문일 수 있습니다)',
  epochChange: (pid, from, to, offset, marker) =>
    `epoch 변경: producerId ${pid} ${from} → ${to}, offset ${offset}${marker ? ' (마커에서)' : ''}`,
  missing: (n) => `빠진 offset ${n}개: 컴팩션된 세그먼트이거나 주어지지 않은 세그먼트`,
  orphan: (offset, pid) => `offset ${offset}의 마커(producerId ${pid}) 앞에 그 트랜잭션의 데이터가 덤프에 없습니다`,
  unknownMarkers: (n) => `종류를 알 수 없는 마커 ${n}개: COMMIT/ABORT를 보려면 --deep-iteration 으로 덤프하세요`,
  duplicates: '두 번 이상 저장됨',
  noDuplicates: '두 번 이상 저장된 것이 없습니다 (event_id 헤더, 없으면 키와 값 기준).',
  noData: '덤프에 키와 페이로드가 없습니다(--print-data-log 없음): 중복을 찾을 수 없습니다.',
  copies: (n, visible) => `사본 ${n}개, read_committed 에 보이는 것 ${visible}개`,
  warnings: '경고',
};

export type DumpStrings = typeof EN;

export function dumpStrings(language: Language): DumpStrings {
  return language === 'ko' ? KO : EN;
}
