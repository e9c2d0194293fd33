/**
 * Korean for the consumer's notes about its first metadata (consumer/consumerMetadata.ts): a new
 * consumer asks for its topics' leaders before any other request, and the group leader's SyncGroup
 * waits for the answer (ensureFreshMetadata).
 */
export const CONSUMER_METADATA_KO_RULES: readonly (readonly [RegExp, (m: RegExpMatchArray) => string])[] = [
  [
    /^it starts knowing no leader of (.+): its first request is a Metadata request for them \(requestUpdateForNewTopics\), sent before any other; what needs a leader \(ListOffsets, Fetch\) waits for the answer$/,
    (m) =>
      `${m[1]}의 리더를 모르는 채로 시작합니다. 첫 요청은 이를 묻는 Metadata 요청(requestUpdateForNewTopics)으로, 다른 어떤 요청보다 먼저 나갑니다. 리더가 필요한 요청(ListOffsets, Fetch)은 그 응답을 기다립니다`,
  ],
  [
    /^it leads the group: its assignment waits for a Metadata answer \(ensureFreshMetadata\) before its SyncGroup goes out$/,
    () => `그룹의 리더입니다. 할당을 계산하기 전에 Metadata 응답을 기다리고(ensureFreshMetadata), 그 뒤에 SyncGroup을 보냅니다`,
  ],
  [
    /^the Metadata answer came: as the group's leader it computes the assignment and sends its SyncGroup$/,
    () => 'Metadata 응답이 왔습니다. 그룹의 리더로서 할당을 계산하고 SyncGroup을 보냅니다',
  ],
];
