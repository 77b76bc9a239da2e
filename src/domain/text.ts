/**
 * WordPress display filters used by the REST output (contract §4.8): `wpautop`, `wptexturize`,
 * `convert_chars` and `esc_html`, ported closely enough for titles, descriptions and excerpts.
 */

/**
 * The longest post title accepted (an event's title, a venue's or organizer's name). WordPress
 * stores any length, but a title is rendered (texturized) and slugged on every write and read.
 */
export const MAX_TITLE_LENGTH = 1000;

/**
 * `esc_html`: escapes `& < > " '` (as `&amp; &lt; &gt; &quot; &#039;`) without double-encoding
 * entities that are already valid.
 */
export function escapeHtml(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return String(text)
    .replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#x[0-9a-fA-F]+);)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/**
 * PHP's `trim`: strips only " \t\n\r\0\x0B". JavaScript's `trim()` also strips every Unicode space
 * (no-break space U+00A0, ideographic space U+3000, …), which PHP keeps: a value of such spaces is
 * not blank to the plugin, so it is not blank here either.
 */
export function phpTrim(text: string): string {
  return text.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
}

const codePoint = (n: number) => (n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '');
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: ' ' };

/**
 * `text.replace(/<[^>]*>/g, '')` in linear time: that expression scans from every `<` to the end of
 * the text when no `>` follows (a run of `<` took seconds), so it runs only up to the last `>`,
 * where every scan stops at the next `>` and is consumed by the match.
 */
export function stripTags(text: string): string {
  const last = text.lastIndexOf('>');
  if (last === -1) return text;
  return text.slice(0, last + 1).replace(/<[^>]*>/g, '') + text.slice(last + 1);
}

/** Text of an HTML field, for a plain-text place (a page title, an iCal property): tags dropped, entities decoded. */
export function htmlToText(html: string | null | undefined): string {
  return stripTags(String(html ?? '').replace(/<br\s*\/?>|<\/p>/gi, '\n'))
    .replace(/&#(\d+);/g, (_, n: string) => codePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => codePoint(parseInt(n, 16)))
    .replace(/&(amp|lt|gt|quot|nbsp);/g, (_, e: string) => NAMED_ENTITIES[e] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// ---------------------------------------------------------------------------------------------
// wpautop
// ---------------------------------------------------------------------------------------------

const ALLBLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

/**
 * The next index of `needle` at or after `from`, remembering the last answer: callers ask with
 * growing `from`, so the text is scanned once however often they ask. A regular expression needle
 * (flag `g`) finds case-insensitive needles.
 */
function forwardFinder(text: string, needle: string | RegExp): (from: number) => number {
  let found = -2;
  const find =
    typeof needle === 'string'
      ? (from: number) => text.indexOf(needle, from)
      : (from: number) => {
          needle.lastIndex = from;
          return needle.exec(text)?.index ?? -1;
        };
  return (from) => {
    if (found === -1 || (found >= from && found !== -2)) return found;
    found = find(from);
    return found;
  };
}

/**
 * `wp_strip_all_tags`: `<script>` and `<style>` elements removed with their content
 * (`<(script|style)[^>]*?>[\s\S]*?<\/\1>`, case-insensitively), then every tag. Linear: each
 * opening tag's end and each closer are found by forward scans that never go back.
 */
export function stripAllTags(html: string): string {
  const nextGt = forwardFinder(html, '>');
  const closers = { script: forwardFinder(html, /<\/script>/gi), style: forwardFinder(html, /<\/style>/gi) };
  const opener = /<(script|style)/gi;
  let out = '';
  let last = 0;
  for (let m = opener.exec(html); m; m = opener.exec(html)) {
    const gt = nextGt(m.index + m[0].length);
    if (gt === -1) break; // no `>` left: no element can start here or later
    const name = (m[1] ?? '').toLowerCase() as keyof typeof closers;
    const close = closers[name](gt + 1);
    if (close === -1) continue; // unclosed: the tag alone goes with the other tags below
    out += html.slice(last, m.index);
    last = close + name.length + 3;
    opener.lastIndex = last;
  }
  return stripTags(out + html.slice(last));
}

/**
 * `wp_html_split`: text and markup alternately (odd indices are comments `<!--…-->` and tags
 * `<…>`), as `text.split(/(<!--[\s\S]*?-->|<[^>]*>)/)` answers, but in linear time (the regular
 * expression rescans to the end of the text from every `<` that has no `>` after it).
 */
function splitHtml(text: string): string[] {
  const parts: string[] = [];
  const nextGt = forwardFinder(text, '>');
  const nextCommentEnd = forwardFinder(text, '-->');
  let textStart = 0;
  let lt = text.indexOf('<');
  while (lt !== -1) {
    let end = -1;
    if (text.startsWith('<!--', lt)) {
      const close = nextCommentEnd(lt + 4);
      if (close !== -1) end = close + 3;
    }
    if (end === -1) {
      const gt = nextGt(lt + 1);
      if (gt === -1) break; // no `>` left: the rest is text
      end = gt + 1;
    }
    parts.push(text.slice(textStart, lt), text.slice(lt, end));
    textStart = end;
    lt = text.indexOf('<', end);
  }
  parts.push(text.slice(textStart));
  return parts;
}


/** `wp_replace_in_html_tags`: replacements applied only inside tags and comments. */
function replaceInHtmlTags(html: string, pairs: Record<string, string>): string {
  const parts = splitHtml(html);
  for (let i = 1; i < parts.length; i += 2) {
    for (const [from, to] of Object.entries(pairs)) parts[i] = parts[i]?.split(from).join(to) ?? '';
  }
  return parts.join('');
}

/** `<script>`, `<style>` and `<svg>` elements keep their newlines (`<WPPreserveNewline />`), linearly. */
function preserveNewlinesInRawText(html: string): string {
  const closers = new Map<string, (from: number) => number>();
  let out = '';
  let last = 0;
  for (const m of html.matchAll(/<(script|style|svg)/g)) {
    if (m.index < last) continue;
    const [, name = ''] = m;
    let next = closers.get(name);
    if (!next) closers.set(name, (next = forwardFinder(html, `</${name}>`)));
    const close = next(m.index + m[0].length);
    if (close === -1) continue;
    const end = close + name.length + 3;
    out += html.slice(last, m.index) + html.slice(m.index, end).replace(/\n/g, '<WPPreserveNewline />');
    last = end;
  }
  return out + html.slice(last);
}

const trimNewlines = (s: string) => s.replace(/^\n+|\n+$/g, '');

/**
 * `wpautop`: blank lines separate paragraphs (`<p>…</p>`), single newlines become `<br />`, existing
 * block markup is kept. Output trimmed; empty or blank input → `""`.
 * Linear in the text's length, so that a long text cannot stall the process: a pattern starting
 * with `\s*` starts only at the first white space of a run (`(?<!\s)`), a tag pattern stops at the
 * next `<` (`[^<>]*`), tags are found by `splitHtml`. (`@wordpress/autop` keeps WordPress's quadratic patterns: 20,000 spaces
 * take it 2 s, so it is not used.)
 */
export function autop(text: string | null | undefined, br = true): string {
  if (text === null || text === undefined || String(text).trim() === '') return '';
  let pee = `${text}\n`;
  const preTags = new Map<string, string>();

  if (pee.includes('<pre')) {
    const parts = pee.split('</pre>');
    const last = parts.pop() ?? '';
    pee = '';
    parts.forEach((part, i) => {
      const start = part.indexOf('<pre');
      if (start === -1) {
        pee += part;
        return;
      }
      const name = `<pre wp-pre-tag-${i}></pre>`;
      preTags.set(name, `${part.slice(start)}</pre>`);
      pee += part.slice(0, start) + name;
    });
    pee += last;
  }

  pee = pee.replace(/<br\s*\/?>\s*<br\s*\/?>/g, '\n\n');
  pee = pee.replace(new RegExp(`(<${ALLBLOCKS}[\\s/>])`, 'g'), '\n\n$1');
  pee = pee.replace(new RegExp(`(</${ALLBLOCKS}>)`, 'g'), '$1\n\n');
  pee = pee.replace(/(<hr\s*?\/?>)/g, '$1\n\n');
  pee = pee.replace(/\r\n|\r/g, '\n');
  pee = replaceInHtmlTags(pee, { '\n': ' <!-- wpnl --> ' });

  if (pee.includes('<option')) {
    pee = pee.replace(/(?<!\s)\s*<option/g, '<option').replace(/<\/option>\s*/g, '</option>');
  }
  if (pee.includes('</object>')) {
    pee = pee
      .replace(/(<object[^<>]*>)\s*/g, '$1')
      .replace(/(?<!\s)\s*<\/object>/g, '</object>')
      .replace(/(?<!\s)\s*(<\/?(?:param|embed)[^<>]*>)\s*/g, '$1');
  }
  if (pee.includes('<source') || pee.includes('<track')) {
    pee = pee
      .replace(/([<[](?:audio|video)[^<>[\]]*[>\]])\s*/g, '$1')
      .replace(/(?<!\s)\s*([<[]\/(?:audio|video)[>\]])/g, '$1')
      .replace(/(?<!\s)\s*(<(?:source|track)[^<>]*>)\s*/g, '$1');
  }
  if (pee.includes('<figcaption')) {
    pee = pee.replace(/(?<!\s)\s*(<figcaption[^<>]*>)/g, '$1').replace(/<\/figcaption>\s*/g, '</figcaption>');
  }

  pee = pee.replace(/\n\n+/g, '\n\n');
  const pees = pee.split(/\n\s*\n/).filter((p) => p !== '');
  pee = '';
  for (const tinkle of pees) pee += `<p>${trimNewlines(tinkle)}</p>\n`;

  pee = pee.replace(/<p>\s*<\/p>/g, '');
  pee = pee.replace(/<p>([^<]+)<\/(div|address|form)>/g, '<p>$1</p></$2>');
  pee = pee.replace(new RegExp(`<p>\\s*(</?${ALLBLOCKS}[^<>]*>)\\s*</p>`, 'g'), '$1');
  pee = pee.replace(/<p>(<li.+?)<\/p>/g, '$1');
  pee = pee.replace(/<p><blockquote([^>]*)>/gi, '<blockquote$1><p>');
  pee = pee.split('</blockquote></p>').join('</p></blockquote>');
  pee = pee.replace(new RegExp(`<p>\\s*(</?${ALLBLOCKS}[^<>]*>)`, 'g'), '$1');
  pee = pee.replace(new RegExp(`(</?${ALLBLOCKS}[^<>]*>)\\s*</p>`, 'g'), '$1');

  if (br) {
    pee = preserveNewlinesInRawText(pee);
    pee = pee.replace(/<br>|<br\/>/g, '<br />');
    pee = pee.replace(/(?:(?<!<br \/>)(?<!\s)|(?<=<br \/>\s))\s*\n/g, '<br />\n');
    pee = pee.split('<WPPreserveNewline />').join('\n');
  }

  pee = pee.replace(new RegExp(`(</?${ALLBLOCKS}[^<>]*>)\\s*<br />`, 'g'), '$1');
  pee = pee.replace(/<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^<>]*>)/g, '$1');
  pee = pee.replace(/\n<\/p>$/, '</p>');

  for (const [name, original] of preTags) pee = pee.split(name).join(original);
  if (pee.includes('<!-- wpnl -->')) pee = pee.split(' <!-- wpnl --> ').join('\n').split('<!-- wpnl -->').join('\n');
  return pee.trim();
}

// ---------------------------------------------------------------------------------------------
// wptexturize
// ---------------------------------------------------------------------------------------------

const SPACES = '(?:[\\r\\n\\t ]|\\u00a0|&nbsp;)';
const OPENING_QUOTE = '&#8220;';
const CLOSING_QUOTE = '&#8221;';
const OPENING_SINGLE_QUOTE = '&#8216;';
const CLOSING_SINGLE_QUOTE = '&#8217;';
const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';
const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';
const END = '(?![\\s\\S])';

const COCKNEY = ["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"];
const COCKNEY_REPLACE = ['&#8217;tain&#8217;t', '&#8217;twere', '&#8217;twas', '&#8217;tis', '&#8217;twill', '&#8217;til', '&#8217;bout', '&#8217;nuff', '&#8217;round', '&#8217;cause', '&#8217;em'];
const STATIC_FROM = ['...', '``', "''", ' (tm)', ...COCKNEY];
const STATIC_TO = ['&#8230;', OPENING_QUOTE, CLOSING_QUOTE, ' &#8482;', ...COCKNEY_REPLACE];

const APOS_RULES: [RegExp, string][] = [
  [new RegExp(`'(\\d\\d)'(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g'), `${APOS_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  [new RegExp(`'(\\d\\d)"(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g'), `${APOS_FLAG}$1${CLOSING_QUOTE}`],
  [new RegExp(`'(?=\\d\\d(?:${END}|(?![%\\d]|[.,]\\d)))`, 'g'), APOS_FLAG],
  [new RegExp(`(?<=^|${SPACES})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SPACES})'`, 'g'), OPEN_SQ_FLAG],
  [new RegExp(`(?<!${SPACES})'(?!${END}|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SPACES})`, 'g'), APOS_FLAG],
];
const QUOTE_RULES: [RegExp, string][] = [
  [new RegExp(`(?<=^|${SPACES})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSING_QUOTE}`],
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SPACES})"(?!${SPACES})`, 'g'), OPEN_Q_FLAG],
];
const DASH_RULES: [RegExp, string][] = [
  [/---/g, EM_DASH],
  [new RegExp(`(?<=^|${SPACES})--(?=$|${SPACES})`, 'g'), EM_DASH],
  [/(?<!xn)--/g, EN_DASH],
  [new RegExp(`(?<=^|${SPACES})-(?=$|${SPACES})`, 'g'), EN_DASH],
];
const AMP = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `wptexturize_primes`: closing quotes vs. primes after digits. */
function texturizePrimes(haystack: string, needle: string, prime: string, openQuote: string, closeQuote: string): string {
  const flag = '<!--wp-prime-or-quote-->';
  const n = escapeRe(needle);
  const quotePattern = new RegExp(`${n}(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g');
  const primePattern = new RegExp(`(?<=\\d)${n}`, 'g');
  const flagAfterDigit = new RegExp(`(?<=\\d)${escapeRe(flag)}`, 'g');
  const flagNoDigit = new RegExp(`(?<!\\d)${escapeRe(flag)}`, 'g');

  const sentences = haystack.split(openQuote);
  for (const [key, original] of sentences.entries()) {
    let sentence = original;
    if (!sentence.includes(needle)) continue;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      let count = 0;
      sentence = sentence.replace(quotePattern, () => {
        count++;
        return flag;
      });
      if (count > 1) {
        let count2 = 0;
        sentence = sentence.replace(flagNoDigit, () => {
          count2++;
          return closeQuote;
        });
        if (count2 === 0) {
          const dotted = sentence.lastIndexOf(`${flag}.`);
          const pos = dotted !== -1 ? dotted : sentence.lastIndexOf(flag);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + flag.length);
        }
        sentence = sentence.replace(primePattern, prime).replace(flagAfterDigit, prime).split(flag).join(closeQuote);
      } else if (count === 1) {
        sentence = sentence.split(flag).join(closeQuote).replace(primePattern, prime);
      } else {
        sentence = sentence.replace(primePattern, prime);
      }
    } else {
      sentence = sentence.replace(primePattern, prime).replace(quotePattern, closeQuote);
    }
    if (needle === '"' && sentence.includes('"')) sentence = sentence.split('"').join(closeQuote);
    sentences[key] = sentence;
  }
  return sentences.join(openQuote);
}

function texturizeText(curl: string): string {
  STATIC_FROM.forEach((from, i) => (curl = curl.split(from).join(STATIC_TO[i] ?? from)));
  if (curl.includes("'")) {
    for (const [re, to] of APOS_RULES) curl = curl.replace(re, to);
    curl = texturizePrimes(curl, "'", PRIME, OPEN_SQ_FLAG, CLOSING_SINGLE_QUOTE);
    curl = curl.split(APOS_FLAG).join(APOS).split(OPEN_SQ_FLAG).join(OPENING_SINGLE_QUOTE);
  }
  if (curl.includes('"')) {
    for (const [re, to] of QUOTE_RULES) curl = curl.replace(re, to);
    curl = texturizePrimes(curl, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSING_QUOTE);
    curl = curl.split(OPEN_Q_FLAG).join(OPENING_QUOTE);
  }
  if (curl.includes('-')) {
    for (const [re, to] of DASH_RULES) curl = curl.replace(re, to);
  }
  if (/(?<=\d)x\d/.test(curl)) {
    curl = curl.replace(/\b(\d[\d.,]*)x(\d[\d.,]*)\b/g, (m, a: string, b: string) => (a === '0' ? m : `${a}&#215;${b}`));
  }
  return curl.replace(AMP, '&#038;');
}

const NO_TEXTURIZE = /^<\/?(pre|code|kbd|style|script|tt)(?=[\s>/])/i;

/**
 * `wptexturize`: curly quotes and apostrophes, `...` → `&#8230;`, ` -- ` → ` &#8212; `, ` - ` →
 * ` &#8211; `, `9x9` → `9&#215;9`, bare `&` → `&#038;`. Markup is left alone, as is the text inside
 * `<pre>`, `<code>`, `<kbd>`, `<style>`, `<script>` and `<tt>`.
 */
export function texturize(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '';
  const parts = splitHtml(String(text));
  const stack: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part) continue;
    if (i % 2 === 1) {
      if (part.startsWith('<!--')) continue;
      const m = NO_TEXTURIZE.exec(part);
      if (m) {
        const name = (m[1] ?? '').toLowerCase();
        if (part[1] === '/') {
          const idx = stack.lastIndexOf(name);
          if (idx !== -1) stack.splice(idx, 1);
        } else if (!part.endsWith('/>')) stack.push(name);
      }
      parts[i] = part.replace(AMP, '&#038;');
    } else if (stack.length === 0) {
      parts[i] = texturizeText(part);
    }
  }
  return parts.join('');
}

/** `convert_chars`: lone `&` → `&#038;`, `<br>`/`<hr>` made XHTML. */
export function convertChars(text: string): string {
  let out = text;
  if (out.includes('&')) out = out.replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1');
  return out.replace(/<br>/g, '<br />').replace(/<hr>/g, '<hr />');
}

/**
 * Texts longer than this are long: rendering or filtering one may take tens of milliseconds, so
 * src/services/text-work.ts does it off the event loop (and caches it, bounded by size); the
 * functions here neither memoize them nor care.
 */
export const LONG_TEXT_LENGTH = 16_384;

// Rendering is pure and the same records are read again and again: keep recent renderings
// (bounded; the cache starts over when full).
const RENDER_LIMIT = 5_000;
function memoized(render: (text: string) => string): (text: string | null | undefined) => string {
  const cache = new Map<string, string>();
  return (text) => {
    const key = text ?? '';
    if (key.length > LONG_TEXT_LENGTH) return render(key);
    let out = cache.get(key);
    if (out === undefined) {
      out = render(key);
      if (cache.size >= RENDER_LIMIT) cache.clear();
      cache.set(key, out);
    }
    return out;
  };
}

/** A title as the REST API shows it (`the_title`: texturize, convert_chars, trim). */
export const renderTitle = memoized((title) => convertChars(texturize(title)).trim());

/** A body as the REST API shows it (`the_content`: texturize, then autop; trimmed). */
export const renderContent = memoized((content) => autop(texturize(content)).trim());

/** A manual excerpt as the REST API shows it (`the_excerpt`); `""` when there is none. */
export const renderExcerpt = memoized((excerpt) => autop(convertChars(texturize(excerpt))).trim());
