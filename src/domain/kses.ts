/**
 * WordPress's save-time HTML filters (`kses`) for callers without the `unfiltered_html` capability
 * (contributors and authors; see `canPostUnfilteredHtml`), approximated with `sanitize-html`:
 * - `'data'` is `wp_filter_kses` with `$allowedtags` (post titles via `title_save_pre`, term names
 *   via `pre_term_name`, term descriptions via `pre_term_description`);
 * - `'post'` is `wp_filter_post_kses` with `$allowedposttags` (content via `content_save_pre`,
 *   excerpts via `excerpt_save_pre`).
 * Elements not listed are dropped with their markup (their text is kept, as kses keeps it), except
 * scripts, styles, frames and the like, which go with their content. Attributes not listed go, so
 * do event handlers; URLs outside `wp_allowed_protocols()` (`javascript:`, `data:`, …) are dropped.
 */
import { createRequire } from 'node:module';
import type { Handler, Tokenizer, TokenizerCallbacks } from 'htmlparser2';
import type sanitizeHtml from 'sanitize-html';

export type KsesContext = 'data' | 'post';

/** `wp_allowed_protocols()`. */
const PROTOCOLS = ['http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn'];
/** kses's URI attributes (`wp_kses_uri_attributes()`) that the allowed elements carry. */
const URI_ATTRIBUTES = ['href', 'src', 'cite', 'longdesc', 'poster', 'usemap', 'data', 'action'];
/** Elements dropped together with their content. */
const NON_TEXT = ['script', 'style', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'template', 'svg', 'math', 'title', 'head', 'option', 'select'];

/** `$allowedtags` (kses.php). */
const ALLOWED_TAGS: Record<string, string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

const ALIGN = ['align'];
const CELL = ['align', 'char', 'charoff', 'valign'];
const TABLE_CELL = ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'];

/** `$allowedposttags` (kses.php), without `<title>`, plus the global attributes below. */
const ALLOWED_POST_TAGS: Record<string, string[]> = {
  address: [],
  a: ['href', 'rel', 'rev', 'name', 'target', 'download'],
  abbr: [],
  acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: ALIGN,
  aside: ALIGN,
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  button: ['disabled', 'name', 'type', 'value'],
  caption: ALIGN,
  cite: [],
  code: [],
  col: [...CELL, 'span', 'width'],
  colgroup: [...CELL, 'span', 'width'],
  del: ['datetime'],
  dd: [],
  dfn: [],
  details: ['align', 'open'],
  div: ALIGN,
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figure: ALIGN,
  figcaption: ALIGN,
  font: ['color', 'face', 'size'],
  footer: ALIGN,
  h1: ALIGN,
  h2: ALIGN,
  h3: ALIGN,
  h4: ALIGN,
  h5: ALIGN,
  h6: ALIGN,
  header: ALIGN,
  hgroup: ALIGN,
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src', 'usemap', 'width'],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: ALIGN,
  li: ['align', 'value'],
  main: ALIGN,
  map: ['name'],
  mark: [],
  menu: ['type'],
  nav: ALIGN,
  ol: ['start', 'type', 'reversed'],
  p: ALIGN,
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  span: ALIGN,
  section: ALIGN,
  small: [],
  strike: [],
  strong: [],
  sub: [],
  summary: ALIGN,
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: CELL,
  td: TABLE_CELL,
  textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'],
  tfoot: CELL,
  th: TABLE_CELL,
  thead: CELL,
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'],
  tt: [],
  u: [],
  ul: ['type'],
  var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/** `_wp_add_global_attributes()`: on every `$allowedposttags` element. */
const GLOBAL_ATTRIBUTES = [
  'aria-controls', 'aria-current', 'aria-describedby', 'aria-details', 'aria-expanded', 'aria-hidden', 'aria-label',
  'aria-labelledby', 'aria-live', 'class', 'data-*', 'dir', 'hidden', 'id', 'lang', 'style', 'title', 'role', 'xml:lang',
];

/**
 * `safecss_filter_attr()`, approximated: the usual presentational properties, with no value that
 * could load or run something (`url(`, `expression(`, escapes, comments).
 */
const SAFE_CSS_VALUE = [/^(?!.*(?:url\s*\(|expression|javascript:|behavior|\\|\/\*))[^;{}<>]*$/i];
const SAFE_CSS_PROPERTIES = [
  'background-color', 'border', 'border-width', 'border-style', 'border-color', 'border-radius', 'border-top', 'border-right',
  'border-bottom', 'border-left', 'border-collapse', 'border-spacing', 'caption-side', 'clear', 'color', 'column-count',
  'column-gap', 'direction', 'display', 'float', 'font', 'font-family', 'font-size', 'font-style', 'font-variant',
  'font-weight', 'height', 'min-height', 'max-height', 'letter-spacing', 'line-height', 'list-style-type', 'margin',
  'margin-top', 'margin-right', 'margin-bottom', 'margin-left', 'overflow', 'padding', 'padding-top', 'padding-right',
  'padding-bottom', 'padding-left', 'text-align', 'text-decoration', 'text-indent', 'text-transform', 'vertical-align',
  'white-space', 'width', 'min-width', 'max-width', 'word-spacing', 'writing-mode',
];

const common: sanitizeHtml.IOptions = {
  allowedSchemes: PROTOCOLS,
  allowedSchemesAppliedToAttributes: URI_ATTRIBUTES,
  nonTextTags: NON_TEXT,
  disallowedTagsMode: 'discard',
  // The parser's defaults are kept (entities decoded before the checks, so `jav&#x09;ascript:` is
  // caught; text re-escaped on output: a lone `&` becomes `&amp;` as kses makes it, named entities
  // such as `&eacute;` come back as their characters).
};

const DATA_OPTIONS: sanitizeHtml.IOptions = {
  ...common,
  allowedTags: Object.keys(ALLOWED_TAGS),
  allowedAttributes: ALLOWED_TAGS,
};

const POST_OPTIONS: sanitizeHtml.IOptions = {
  ...common,
  allowedTags: Object.keys(ALLOWED_POST_TAGS),
  allowedAttributes: { ...ALLOWED_POST_TAGS, '*': GLOBAL_ATTRIBUTES },
  allowedStyles: { '*': Object.fromEntries(SAFE_CSS_PROPERTIES.map((p) => [p, SAFE_CSS_VALUE])) },
  allowVulnerableTags: false,
};

/** sanitize-html's options for each context, as `kses` gives them (it adds its parser and depth checks). */
export const KSES_OPTIONS: Readonly<Record<KsesContext, sanitizeHtml.IOptions>> = { data: DATA_OPTIONS, post: POST_OPTIONS };

/**
 * sanitize-html (with its HTML parser) is loaded on the first write that needs filtering, not at
 * start: most writers may post unfiltered HTML, and reads never filter. It is CommonJS, so a
 * synchronous `require` keeps `kses` synchronous.
 */
let sanitizer: typeof sanitizeHtml | undefined;
let tokenizer: typeof Tokenizer | undefined;
const requireHere = createRequire(import.meta.url);

/**
 * htmlparser2's parser as its tokenizer sees it: the tokenizer's callbacks, and the members the
 * joining below reads (the parser's own handler, the slicer of its input and the indices it keeps).
 * These are the parser's internals: the property test in test/unit/text.test.ts compares kses with
 * sanitize-html on its own parser, and fails if they change.
 */
type ParserInside = TokenizerCallbacks & {
  cbs: Partial<Handler>;
  getSlice(start: number, end: number): string;
  startIndex: number;
  endIndex: number;
};

/**
 * The parser's callbacks, with text reported in successive pieces handed on as one piece. The
 * tokenizer ends a piece of text at every `<`, even one that starts no tag, and at every
 * character reference (`&amp;`), and sanitize-html escapes each piece with six regular
 * expressions: a megabyte of `<` took a second as a million pieces, and a fifth of that as one.
 * Escaping is character by character, so the output is the same; any other callback hands on the
 * text held first, so the order is the same too. Text that is one range of the input goes through
 * the parser's own path; text with references decoded in it goes to the handler as the parser
 * would hand each piece (`ontext`), joined.
 */
function joiningText(parser: ParserInside): TokenizerCallbacks {
  // The text held back: a range of the input (`start`-`end`), or, once a reference or a range
  // that does not adjoin joins it, `text` (the tokenizer may start a piece at -1: no sentinel).
  let held = false;
  let start = 0;
  let end = 0;
  let text: string | null = null;
  const heldText = () => text ?? parser.getSlice(start, end);
  const flush = () => {
    if (!held) return;
    held = false;
    if (text === null) return parser.ontext(start, end);
    const joined = text;
    text = null;
    // What the parser's `ontext` does around its handler's.
    parser.endIndex = end - 1;
    parser.cbs.ontext?.(joined);
    parser.startIndex = end;
  };
  const after =
    <A extends unknown[]>(callback: (...args: A) => void) =>
    (...args: A) => {
      flush();
      callback.apply(parser, args);
    };
  return {
    ontext(from, to) {
      if (!held) {
        held = true;
        start = from;
      } else if (text !== null || from !== end) {
        text = heldText() + parser.getSlice(from, to);
      }
      end = to;
    },
    ontextentity(codePoint, to) {
      // The parser decodes with `fromCodePoint` of `entities`, which is String.fromCodePoint.
      const piece = String.fromCodePoint(codePoint);
      text = held ? heldText() + piece : piece;
      held = true;
      end = to;
    },
    onattribdata: after(parser.onattribdata),
    onattribentity: after(parser.onattribentity),
    onattribend: after(parser.onattribend),
    onattribname: after(parser.onattribname),
    oncdata: after(parser.oncdata),
    onclosetag: after(parser.onclosetag),
    oncomment: after(parser.oncomment),
    ondeclaration: after(parser.ondeclaration),
    onend: after(parser.onend),
    onopentagend: after(parser.onopentagend),
    onopentagname: after(parser.onopentagname),
    onprocessinginstruction: after(parser.onprocessinginstruction),
    onselfclosingtag: after(parser.onselfclosingtag),
  };
}

/** htmlparser2's tokenizer (the one sanitize-html's parser loads) over `joiningText` callbacks. */
function joiningTokenizer(): typeof Tokenizer {
  const Base = (requireHere('htmlparser2') as typeof import('htmlparser2')).Tokenizer;
  return class JoiningTokenizer extends Base {
    constructor(options: ConstructorParameters<typeof Tokenizer>[0], parser: TokenizerCallbacks) {
      super(options, joiningText(parser as ParserInside));
    }
  };
}

/**
 * How deep elements may nest in filtered HTML (browsers stop nesting there too: Chromium's parser
 * at 512). The parser under sanitize-html keeps its open elements in an array it grows from the
 * front, so every element opened costs as much as the depth: 100,000 nested elements took
 * 20 s. kses itself filters tag by tag and never nests; no real text comes near this.
 */
export const MAX_HTML_DEPTH = 512;

/** The HTML nests elements deeper than `MAX_HTML_DEPTH`: refused rather than filtered. */
export class HtmlTooDeepError extends Error {
  constructor() {
    super(`HTML elements may nest ${MAX_HTML_DEPTH} deep at most.`);
  }
}

/** `wp_filter_kses` (`'data'`) or `wp_filter_post_kses` (`'post'`) on one value; throws `HtmlTooDeepError`. */
export function kses(html: string, context: KsesContext): string {
  sanitizer ??= requireHere('sanitize-html') as typeof sanitizeHtml;
  tokenizer ??= joiningTokenizer();
  // The parser reports every element it opens and every one it closes (implied closes and void
  // elements included): the difference is the depth of its stack of open elements.
  let depth = 0;
  const onOpenTag = () => {
    if (++depth > MAX_HTML_DEPTH) throw new HtmlTooDeepError();
  };
  const onCloseTag = () => void depth--;
  return sanitizer(html, { ...KSES_OPTIONS[context], parser: { Tokenizer: tokenizer }, onOpenTag, onCloseTag });
}
