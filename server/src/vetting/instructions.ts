// Flags lines that address an AI model/assistant/agent with instructions — prompt injection
// planted in comments, strings or docs of retrieved code. Flagging only: the text is kept and
// the consumer decides what to do.
//
// Phrases are matched across line breaks and comment/string decoration (`// ignore all\n//
// previous instructions`, `"ignore all " +\n "previous instructions"`); every line a match
// touches is flagged.
//
// Speed: each pattern names the anchor words it cannot match without. One pass finds lines
// holding any anchor; only those lines (with a few neighbours, for wrapped phrases) are copied
// into a small candidate text that the ~30 patterns then scan. Ordinary code rarely contains
// the anchors, so most of the input is looked at once. All regexes are bounded (separator runs
// of at most 16 characters, no nested open-ended quantifiers), so the scan is linear.

import { TextLines } from '../text/lines';

// Between words: whitespace, newlines, comment leaders, string quotes and concatenation.
const S = `[\\s*/#"'+]{1,16}`;

interface InstructionPattern {
  /** Regex fragments (lower case) of which every match contains at least one. Fragments that
   *  start with a letter are matched at a word start. */
  anchors: string[];
  /** Written in lower case: it runs on the lower-cased text. */
  re: RegExp;
  /** Extra condition on the text just before the match (kept out of `re` so that `re` can
   *  start with a literal word, which the regex engine searches for much faster). */
  accept?: (text: string, start: number) => boolean;
}

function phrase(source: string): RegExp {
  return new RegExp(source.replace(/ S /g, S), 'g');
}

/** Whether the text right before `start` matches `re` (which should end with `$`). */
function precededBy(pattern: RegExp, window = 64): (text: string, start: number) => boolean {
  const re = new RegExp(pattern.source); // not global: `test` must not carry lastIndex over
  return (text, start) => re.test(text.slice(Math.max(0, start - window), start).toLowerCase());
}

/** Only decoration (indentation, comment leaders, quotes) between line start and `start`. */
function atLineStart(requireHeading: boolean): (text: string, start: number) => boolean {
  return (text, start) => {
    let lineStart = start;
    while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 10 && start - lineStart <= 16) lineStart--;
    const prefix = text.slice(lineStart, start);
    if (prefix.length > 16 || !/^[ \t*/#"'>-]*$/.test(prefix)) return false;
    return !requireHeading || /##[ \t]*$/.test(prefix);
  };
}

/** `curl …` or `wget …` earlier in the same pipeline segment (searched from a `| sh`). */
function downloadBefore(text: string, pipe: number): boolean {
  let i = pipe;
  while (i > 0 && pipe - i < 400 && text[i - 1] !== '\n' && text[i - 1] !== '|') i--;
  return /\b(?:curl|wget)\b/.test(text.slice(i, pipe));
}

const AI = '(?:ai|a\\.i\\.|llms?|large S language S models?|language S models?|ai S (?:assistant|model|agent)s?|assistants?|chatbots?|coding S agents?|ai S agents?|copilot|chatgpt|claude|gpt-?\\d?)';
const AI_ANCHORS = ['ai\\b', 'a\\.i\\.', 'llm', 'language', 'assistant', 'chatbot', 'agent', 'copilot', 'chatgpt', 'claude', 'gpt'];
// `now` but not `Instant.now()`.
const NOW = 'now\\b(?!\\()';

const INSTRUCTION_PATTERNS: InstructionPattern[] = [
  // ignore / disregard all previous instructions
  {
    anchors: ['ignore', 'disregard', 'forget', 'override(?<!@override)', 'bypass'],
    re: phrase(`\\b(?:ignore|disregard|forget|override|bypass) S (?:(?:all|any|every) S )?(?:of S )?(?:the S |your S |these S |those S |my S )?(?:previous|prior|above|earlier|preceding|foregoing|original|initial|system) S (?:instructions|prompts?|directions|directives|rules|guidelines|guidance|constraints|context|messages)\\b`),
  },
  // disregard the above / ignore everything above
  {
    anchors: ['disregard', 'ignore', 'forget'],
    re: phrase(`\\b(?:disregard|ignore|forget) S (?:(?:all|everything|anything) S )?(?:(?:the|that|written|said) S )?above\\b`),
  },
  // you are now DAN / an unrestricted AI / in developer mode
  {
    anchors: [NOW],
    re: phrase(`\\byou(?:'re| S are) S now S (?:(?:a|an|the|in|my) S )?(?:(?:new|different|unrestricted|unfiltered|uncensored|jailbroken|evil|helpful|free) S )?(?:${AI}|dan|jailbroken|unrestricted|unfiltered|uncensored|developer S mode|god S mode|no S longer)\\b`),
  },
  { anchors: [NOW], re: phrase(`\\bfrom S now S on,? S you S (?:are|will|must|shall|should)\\b`) },
  // as an AI (language model) — but not "as an AI player" in game code
  {
    anchors: AI_ANCHORS,
    re: phrase(`\\bas S an? S (?:ai|llm|large S language S model|language S model|ai S (?:language S model|assistant|model|agent))\\b(?! S (?:player|opponent|character|enemy|difficulty|controlled|turn|move))`),
  },
  // your system prompt / reveal the system prompt
  {
    anchors: ['prompt', 'instructions'],
    re: phrase(`\\b(?:system|initial|hidden|developer) S (?:prompt|instructions)\\b`),
    accept: precededBy(phrase(`(?:\\byour|\\bthe S (?:real|actual|hidden|original|secret|new|updated)|\\b(?:real|actual|original|new|updated)|\\b(?:reveal|print|show|repeat|output|leak|ignore|override|disregard)(?: S me)?(?: S the)?) S $`)),
  },
  {
    anchors: ['prompt', 'instructions'],
    re: phrase(`\\b(?:begin|end|start) S (?:of S )?(?:the S )?(?:system|new|real|hidden) S (?:prompt|instructions)\\b`),
  },
  // do not tell the user / hide this from the user
  {
    anchors: ['tell', 'inform(?:ing)?\\b', 'mention', 'reveal'],
    re: phrase(`\\b(?:do S not|don't|dont|never|without) S (?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)? S (?:this|it|that) S to|reveal(?:ing)? S (?:this|it|that) S to) S (?:the S )?(?:user|human)\\b`),
  },
  {
    anchors: ['from the user', 'from user', 'from the human'],
    re: phrase(`\\b(?:hide|keep|conceal) S (?:this|it|that) S (?:(?:hidden|secret) S )?from S (?:the S )?(?:user|human)\\b`),
  },
  // run this command / execute the following command
  {
    anchors: ['commands?\\b'],
    re: phrase(`\\b(?:run|execute) S (?:this|the S following|these|the S below|below) S (?:(?:shell|bash|terminal|powershell) S )?commands?\\b`),
  },
  // curl … | sh, wget … | bash, bash <(curl …), iex (iwr …)
  { anchors: ['curl', 'wget'], re: /\|[ \t]*(?:sudo[ \t]+)?(?:ba|z|da|k|fi)?sh\b/g, accept: downloadBefore },
  { anchors: ['curl', 'wget'], re: /\b(?:ba|z)?sh[ \t]+(?:-c[ \t]+["']?\$\(|<\([ \t]*)(?:curl|wget)\b/g },
  { anchors: ['iex', 'invoke-expression'], re: /\b(?:iex|invoke-expression)\b[^\n]{0,200}\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b/g },
  // Role markers: `Assistant:` / `Human:` opening a line, `### Instruction:`, or after a \n escape.
  { anchors: ['assistant', 'human'], re: /\b(?:assistant|human)[ \t]{0,4}:/g, accept: atLineStart(false) },
  { anchors: ['#{2}'], re: /\b(?:instruction|system)[ \t]{0,4}:/g, accept: atLineStart(true) },
  { anchors: ['assistant', 'human'], re: /\\n[ \t]*(?:assistant|human|system)[ \t]{0,4}:/g },
  // Chat-template tokens: <|im_start|>, <|eot_id|>, [INST], <<SYS>>, <start_of_turn>
  {
    anchors: ['<\\|', '\\[\\/?inst\\]', '<<\\/?sys>>', '_of_turn>'],
    re: /<\|[a-z_]{2,32}\|>|\[\/?inst\]|<<\/?sys>>|<\/?(?:start|end)_of_turn>/g,
  },
  // Addressing a model directly.
  {
    anchors: AI_ANCHORS,
    re: phrase(`\\b(?:attention|note|message|instructions?|important) S (?:to|for) S (?:(?:any|all|the) S )?${AI}\\b`),
  },
  {
    anchors: [...AI_ANCHORS, 'bot\\b'],
    re: phrase(`\\bif S you(?:'re| S are) S (?:an? S )?(?:${AI}|bot|automated S agent|agent S reading S this)\\b`),
  },
  { anchors: AI_ANCHORS, re: phrase(`\\b(?:dear|hey|hi|hello) S ${AI}\\b`) },
  {
    anchors: AI_ANCHORS,
    re: phrase(`\\b(?:ai|llm|assistant|ai S agent|coding S agent|copilot|claude|chatgpt),? S (?:please S )?(?:ignore|disregard|forget|you S must|you S should|do S not|don't|always|never|print|output|reveal|run|execute|delete|send)\\b`),
  },
  { anchors: ['pretend'], re: phrase(`\\bpretend S (?:that S )?(?:you(?:'re| S are)|to S be)\\b`) },
  { anchors: ['roleplay', 'role-play'], re: phrase(`\\b(?:roleplay|role-play) S as\\b`) },
  {
    anchors: ['act as'],
    re: phrase(`\\bact S as S (?:if S you(?:'re| S are)|an? S (?:unrestricted|unfiltered|jailbroken|different|evil))\\b`),
  },
  {
    anchors: ['obey', 'comply'],
    re: phrase(`\\byou S (?:must|will|should|shall) S (?:now S )?(?:obey|comply S with) S (?:these|the S following|my|this)\\b`),
  },
  {
    anchors: ['stop following', 'stop obeying', 'cease following', 'cease obeying'],
    re: phrase(`\\b(?:stop|cease) S (?:following|obeying) S (?:(?:your|the|all) S )?(?:(?:previous|original|prior) S )?(?:instructions|rules|guidelines)\\b`),
  },
  // "New instructions:" headers
  {
    anchors: ['instruction'],
    re: /\binstructions?[ \t]*:/g,
    accept: precededBy(phrase(`\\b(?:new|updated|real|actual|secret|hidden|additional|urgent) S (?:system S )?$`)),
  },
  // print your instructions / reveal the hidden prompt
  {
    anchors: ['instructions', 'prompt', 'guidelines'],
    re: /\b(?:instructions|prompts?|guidelines)\b/g,
    accept: precededBy(phrase(`\\b(?:print|output|reveal|repeat|leak|dump|display) S (?:all S )?(?:your|the S (?:full S )?(?:initial|original|hidden|system)) S $`)),
  },
  {
    anchors: ['your'],
    re: phrase(`\\b(?:bypass|override|disable|ignore|circumvent) S (?:all S )?(?:of S )?your S (?:safety|guardrails|restrictions|rules|guidelines|programming|training|filters|content S policy)\\b`),
  },
  { anchors: ['exfiltrat'], re: /\bexfiltrat(?:e|ing|ion)\b/g },
  {
    anchors: ['api keys', 'secrets', 'credentials', 'passwords', 'environment variables', 'env vars', 'ssh keys', 'private keys', '\\.env'],
    re: phrase(`\\bsend S (?:(?:all|the|your|any) S )?(?:api S keys|secrets|credentials|tokens|passwords|environment S variables|env S vars|ssh S keys|private S keys|\\.env) S to\\b`),
  },
  {
    anchors: [NOW, 'dan mode', 'developer mode'],
    re: phrase(`\\b(?:do S anything S now|dan S mode|developer S mode S (?:enabled|activated|on))\\b`),
  },
];

// Anchors that start with a letter go into one word-start alternation, the rest (`<|`, `##`)
// into another: two cheap passes instead of one slow mixed one.
const ALL_ANCHORS = [...new Set(INSTRUCTION_PATTERNS.flatMap((p) => p.anchors))];
const ANCHOR_SOURCES = [
  `\\b(?:${ALL_ANCHORS.filter((a) => /^[a-z]/.test(a)).join('|')})`,
  ALL_ANCHORS.filter((a) => !/^[a-z]/.test(a)).join('|'),
];
/** Lines of context kept around an anchor, so phrases wrapped over several lines still match. */
const WINDOW_LINES = 3;
/** Separates non-adjacent windows; no pattern can match across it (NUL is not a separator). */
const WINDOW_GAP = '\n\u0000\n';

// Lower-casing can change the length of a few non-ASCII strings (e.g. 'İ'); then offsets would
// no longer line up, so fall back to case-insensitive copies of the regexes.
let caseInsensitive: { anchors: RegExp[]; patterns: RegExp[] } | undefined;

interface Candidates {
  text: string;
  /** Original line of each candidate-text line; -1 for gap lines. */
  origin: number[];
}

/** Lines near an anchor, copied into one small text. Null when there are none. */
function candidateText(lines: TextLines, scanned: string, anchors: RegExp[]): Candidates | null {
  const hitLines: number[] = [];
  for (const anchor of anchors) {
    anchor.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = anchor.exec(scanned))) {
      const line = lines.lineOf(m.index);
      hitLines.push(line);
      anchor.lastIndex = lines.lineEnd(line) + 1;
    }
  }
  if (hitLines.length === 0) return null;
  hitLines.sort((a, b) => a - b);
  const windows: [number, number][] = [];
  for (const line of hitLines) {
    const first = Math.max(0, line - WINDOW_LINES);
    const last = Math.min(lines.count - 1, line + WINDOW_LINES);
    const prev = windows[windows.length - 1];
    if (prev && first <= prev[1] + 1) prev[1] = Math.max(prev[1], last);
    else windows.push([first, last]);
  }
  const parts: string[] = [];
  const origin: number[] = [];
  for (const [first, last] of windows) {
    if (parts.length > 0) origin.push(-1);
    parts.push(scanned.slice(lines.starts[first], lines.lineEnd(last)));
    for (let l = first; l <= last; l++) origin.push(l);
  }
  return { text: parts.join(WINDOW_GAP), origin };
}

const ANCHORS = ANCHOR_SOURCES.map((source) => new RegExp(source, 'g'));

/** 0-based lines touched by an instruction-like phrase, ascending and unique. */
export function findInstructionLines(lines: TextLines): number[] {
  let scanned = lines.text.toLowerCase();
  let anchors = ANCHORS;
  let regexes = INSTRUCTION_PATTERNS.map((p) => p.re);
  if (scanned.length !== lines.text.length) {
    scanned = lines.text;
    caseInsensitive ??= {
      anchors: ANCHOR_SOURCES.map((source) => new RegExp(source, 'gi')),
      patterns: regexes.map((re) => new RegExp(re.source, 'gi')),
    };
    ({ anchors, patterns: regexes } = caseInsensitive);
  }
  const candidates = candidateText(lines, scanned, anchors);
  if (!candidates) return [];
  const local = new TextLines(candidates.text);
  const flagged = new Set<number>();
  for (let i = 0; i < regexes.length; i++) {
    const re = regexes[i];
    const accept = INSTRUCTION_PATTERNS[i].accept;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(local.text))) {
      if (accept && !accept(local.text, m.index)) continue;
      const first = local.lineOf(m.index);
      const last = local.lineOf(m.index + m[0].length - 1);
      for (let l = first; l <= last; l++) if (candidates.origin[l] >= 0) flagged.add(candidates.origin[l]);
    }
  }
  return [...flagged].sort((a, b) => a - b);
}
