/** Words of the share, embed, export and import panels, in English and Korean. */

import { groupDigits } from '../sim/views';
import type { Language } from '../store/simStore';

const en = {
  scenarios: 'Scenarios',
  share: 'Share',
  embed: 'Embed',
  exportImport: 'Export / Import',
  overDump: "Share and Embed link the simulator's run, which the dump view hides: use the dump's own Copy link, or close the dump view.",
  close: 'Close',
  shareTitle: 'Share this run',
  shareHint:
    'The link holds the whole scenario — configuration, behaviour, injected faults, seed — and this step, selection and language. Opening it replays exactly this run. Nothing is sent to a server: it all lives after the "#".',
  linkLabel: 'Link to this run',
  presetLinkLabel: 'Short link to this shipped scenario',
  presetLinkHint:
    'Opens the scenario by its name (#preset=…) at this step, in this language. It follows the scenario as EOS Lab changes it; the link above replays exactly this run.',
  copy: 'Copy link',
  copied: 'Copied to the clipboard.',
  copyFailed: 'This page may not use the clipboard here: select the link above and copy it.',
  chars: (n: number) => `The link is ${groupDigits(n)} characters long, the whole address you copy.`,
  tooLong: 'Over 2,000 characters: some chat and mail tools cut such links. Export the scenario as JSON to share it instead.',
  linkErrorTitle: 'This link cannot be opened',
  kind: {
    corrupt: 'The link is damaged',
    'unknown-version': 'The link comes from another version of EOS Lab',
    'too-large': 'The link is too large',
    invalid: 'The scenario in the link cannot run',
  } as Record<string, string>,
  openDefault: 'Open the default scenario',
  browse: 'Browse scenarios',
  runHidden: 'The run you had open is kept as it was, hidden until you go back to it.',
  backToRun: 'Back to the run you had open:',
  overLinkError:
    'The link above could not be opened, and Share and Embed would link the run it hides: go back to that run or open another scenario first.',
  migrated: (v: number) => `This link was made by an older EOS Lab (link format ${v}) and has been brought up to date.`,
  stepPastEnd: (asked: number, steps: number) =>
    `This link asks for step ${groupDigits(asked)}, but the run has ${groupDigits(steps)} steps: it opens at the last one.`,
  stepNotAStep: (asked: string, opened: number) =>
    `This link asks for step “${asked}”, which is not a step (steps are whole numbers from 0): it opens at step ${groupDigits(opened)}.`,
  languageNotSupported: (asked: string) =>
    `This link asks for language “${asked}”, which EOS Lab does not have: it speaks only English (lang=en) and Korean (lang=ko).`,
  dismiss: 'Dismiss',
  embedTitle: 'Embed this run in a docs page or blog post',
  embedHint:
    'The embed shows the timeline, playback and verdict of this exact run. It runs in a sandboxed frame, needs no cookies or storage, and fetches nothing at run time.',
  embedElement: 'Custom element (resizes itself; load the script once per page)',
  embedIframe: 'Plain iframe (no script on your page; the question, narration and verdict fit its height, the timeline scrolls)',
  embedResize: 'Optional, if your page allows a script: let the iframe above fit its content (it posts its height)',
  startStep: 'Start at step',
  autoplay: 'Play automatically',
  theme: 'Theme',
  themeSystem: 'Follow the reader',
  themeLight: 'Light',
  themeDark: 'Dark',
  height: 'Height (px, empty = fit the content)',
  copySnippet: 'Copy',
  copySnippetFailed: 'This page may not use the clipboard here: the code above is selected, copy it yourself.',
  preview: 'Open the embed in a new tab',
  exportTitle: 'Export and import',
  exportSection: 'Export',
  timelineSvg: 'Figure as SVG',
  timelinePng: 'Figure as PNG (2×)',
  figureHint:
    'One drawing that stands alone: title, step and virtual time, the verdict in a line, the partition lanes and the messages with their names and legends — the timeline as on screen, text as text.',
  figureWidth: 'Width',
  figureTheme: 'Colours',
  figurePreview: 'Preview of the figure',
  scenarioJson: 'Scenario as JSON',
  traceJson: 'Trace as JSON',
  exportHint: 'Files are made in your browser and downloaded; nothing is uploaded.',
  /** the words before and after the file's name */
  exported: ['Downloaded ', '.'] as readonly [string, string],
  /** the same file downloaded again, the `n`th time in a row: words that differ, so a screen reader says it again */
  exportedAgain: (n: number): readonly [string, string] => ['Downloaded ', ` again (${n} times in a row).`],
  /** the words before and after the file's name, then the browser's reason */
  exportFailed: ['Could not make ', ': '] as readonly [string, string],
  /** the same failure again, the `n`th time in a row */
  exportFailedAgain: (n: number): readonly [string, string] => ['Again could not make ', ` (${n} tries in a row): `],
  importSection: 'Import a scenario',
  importFile: 'A scenario file (JSON)',
  importPaste: 'Or paste a scenario (JSON) or a share link',
  importRun: 'Open it',
  importErrors: (n: number) => (n === 1 ? 'It cannot run: one problem.' : `It cannot run: ${n} problems.`),
  noRun: 'Nothing is running yet.',
};

export type ShareText = typeof en;

const ko: ShareText = {
  scenarios: '시나리오',
  share: '공유',
  embed: '임베드',
  exportImport: '내보내기 / 가져오기',
  overDump: '공유와 임베드는 덤프 화면이 가리고 있는 시뮬레이터 실행을 링크합니다. 덤프의 링크 복사를 쓰거나 덤프 화면을 닫으세요.',
  close: '닫기',
  shareTitle: '이 실행 공유하기',
  shareHint:
    '링크에는 시나리오 전체(설정, 동작, 주입한 장애, 시드)와 현재 단계·선택·언어가 들어 있습니다. 링크를 열면 이 실행이 그대로 재현됩니다. 모든 내용은 "#" 뒤에 있어 서버로 전송되지 않습니다.',
  linkLabel: '이 실행의 링크',
  presetLinkLabel: '이 기본 제공 시나리오의 짧은 링크',
  presetLinkHint:
    '시나리오를 이름(#preset=…)으로 열고 이 단계로 이동하며, 이 언어로 보여 줍니다. EOS Lab이 시나리오를 바꾸면 그 변경을 따라갑니다. 위의 링크는 바로 이 실행을 그대로 재현합니다.',
  copy: '링크 복사',
  copied: '클립보드에 복사했습니다.',
  copyFailed: '여기서는 클립보드를 쓸 수 없습니다. 위의 링크를 선택해 복사하세요.',
  chars: (n: number) => `링크 길이: ${groupDigits(n)}자(복사하는 주소 전체).`,
  tooLong: '2,000자를 넘습니다. 일부 메신저와 메일은 이런 링크를 자릅니다. 시나리오를 JSON으로 내보내 공유하세요.',
  linkErrorTitle: '이 링크를 열 수 없습니다',
  kind: {
    corrupt: '링크가 손상되었습니다',
    'unknown-version': '다른 버전의 EOS Lab에서 만든 링크입니다',
    'too-large': '링크가 너무 큽니다',
    invalid: '링크의 시나리오를 실행할 수 없습니다',
  },
  openDefault: '기본 시나리오 열기',
  browse: '시나리오 둘러보기',
  runHidden: '열려 있던 실행은 그대로 두고, 돌아갈 때까지 가려 둡니다.',
  backToRun: '열려 있던 실행으로 돌아가기:',
  overLinkError:
    '위의 링크를 열 수 없습니다. 공유와 임베드는 그 뒤에 가려진 실행을 링크하므로, 먼저 그 실행으로 돌아가거나 다른 시나리오를 여세요.',
  migrated: (v: number) => `이전 버전의 EOS Lab(링크 형식 ${v})에서 만든 링크를 최신 형식으로 바꿔 열었습니다.`,
  stepPastEnd: (asked: number, steps: number) =>
    `이 링크는 ${groupDigits(asked)}단계를 가리키지만 실행은 ${groupDigits(steps)}단계까지라 마지막 단계에서 엽니다.`,
  stepNotAStep: (asked: string, opened: number) =>
    `이 링크의 단계 값 “${asked}”: 단계는 0부터의 정수여야 하므로 ${groupDigits(opened)}단계에서 엽니다.`,
  languageNotSupported: (asked: string) =>
    `이 링크가 요청한 언어 “${asked}”은(는) EOS Lab에 없습니다. 영어(lang=en)와 한국어(lang=ko)만 있습니다.`,
  dismiss: '닫기',
  embedTitle: '문서나 블로그 글에 이 실행 임베드하기',
  embedHint:
    '임베드는 이 실행의 타임라인, 재생, 판정을 보여 줍니다. 샌드박스 프레임에서 실행되며 쿠키나 저장소가 필요 없고, 실행 중에 네트워크에서 아무것도 가져오지 않습니다.',
  embedElement: '커스텀 엘리먼트 (크기를 스스로 맞춤, 스크립트는 페이지당 한 번)',
  embedIframe: '일반 iframe (페이지에 스크립트 없음; 질문, 설명, 판정이 높이 안에 들어가고 타임라인은 스크롤됨)',
  embedResize: '선택 사항, 페이지에 스크립트를 넣을 수 있다면: 위 iframe이 내용 높이에 맞춰지게 합니다 (iframe이 높이를 알려 줌)',
  startStep: '시작 단계',
  autoplay: '자동 재생',
  theme: '테마',
  themeSystem: '읽는 사람 설정 따르기',
  themeLight: '밝게',
  themeDark: '어둡게',
  height: '높이 (px, 비우면 내용에 맞춤)',
  copySnippet: '복사',
  copySnippetFailed: '여기서는 클립보드를 쓸 수 없습니다. 위 코드를 선택해 두었으니 직접 복사하세요.',
  preview: '새 탭에서 임베드 열기',
  exportTitle: '내보내기와 가져오기',
  exportSection: '내보내기',
  timelineSvg: '그림 SVG',
  timelinePng: '그림 PNG (2배)',
  figureHint:
    '그 자체로 읽히는 그림 한 장: 제목, 단계와 가상 시간, 한 줄 판정, 이름과 범례가 붙은 파티션 레인과 메시지. 화면의 타임라인 그대로이며 글자는 글자로 남습니다.',
  figureWidth: '폭',
  figureTheme: '색',
  figurePreview: '그림 미리 보기',
  scenarioJson: '시나리오 JSON',
  traceJson: '트레이스 JSON',
  exportHint: '파일은 브라우저에서 만들어 내려받습니다. 아무것도 업로드하지 않습니다.',
  exported: ['', ' 파일을 내려받았습니다.'],
  exportedAgain: (n) => ['', ` 파일을 다시 내려받았습니다(연달아 ${n}번째).`],
  exportFailed: ['', ' 파일을 만들지 못했습니다. 브라우저가 알린 이유: '],
  exportFailedAgain: (n) => ['', ` 파일을 이번에도 만들지 못했습니다(연달아 ${n}번째). 브라우저가 알린 이유: `],
  importSection: '시나리오 가져오기',
  importFile: '시나리오 파일 (JSON)',
  importPaste: '또는 시나리오(JSON)나 공유 링크 붙여넣기',
  importRun: '열기',
  importErrors: (n: number) => `실행할 수 없습니다: 문제 ${n}개.`,
  noRun: '아직 실행 중인 시나리오가 없습니다.',
};

export function shareText(language: Language): ShareText {
  return language === 'ko' ? ko : en;
}
