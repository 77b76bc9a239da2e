import fc from 'fast-check';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { inferCurrency } from '../../src/domain/cost.ts';
import { HtmlTooDeepError, kses, KSES_OPTIONS, MAX_HTML_DEPTH } from '../../src/domain/kses.ts';
import { slugify } from '../../src/domain/slug.ts';
import { autop, escapeHtml, htmlToText, renderContent, renderExcerpt, renderTitle, stripAllTags, stripTags, texturize } from '../../src/domain/text.ts';
import { parseList } from '../../rest-facade/wp/coerce.ts';
import { describeCases } from '../helpers/cases.ts';

/** autop with its default line breaks (the tables name one argument). */
const AUTOP = { autop: (text: string | null) => autop(text) };

describe('autop', () => {
  describeCases(AUTOP, {
    'wraps plain text in a paragraph (samples)': [
      ['An event content', '<p>An event content</p>'],
      ['Jazz on the lawn', '<p>Jazz on the lawn</p>'],
    ],
    'keeps existing block markup': [
      ['<p>Live <strong>jazz</strong> on the lawn.</p>', '<p>Live <strong>jazz</strong> on the lawn.</p>'],
      ['<ul>\n<li>a</li>\n</ul>\ntext', '<ul>\n<li>a</li>\n</ul>\n<p>text</p>'],
      ['<div>inside</div>', '<div>inside</div>'],
    ],
    'splits paragraphs on blank lines and breaks lines on single newlines': [
      ['line1\nline2\n\npara2', '<p>line1<br />\nline2</p>\n<p>para2</p>'],
      ['a\r\n\r\nb', '<p>a</p>\n<p>b</p>'],
      ['one\n\n\n\ntwo', '<p>one</p>\n<p>two</p>'],
    ],
    'leaves <pre> content alone': [['<pre>a\n\nb</pre>', '<pre>a\n\nb</pre>']],
    'returns "" for empty input': [
      ['', ''],
      ['  \n ', ''],
      [null, ''],
    ],
  });
});

describe('texturize', () => {
  describeCases({ texturize }, {
    'applies the typographic replacements of §4.8': [
      ["Don't stop", 'Don&#8217;t stop'],
      ['He said "hi" there', 'He said &#8220;hi&#8221; there'],
      ['Wait...', 'Wait&#8230;'],
      ['A -- B', 'A &#8212; B'],
      ['A - B', 'A &#8211; B'],
      ['Rock & Roll', 'Rock &#038; Roll'],
      ["'90s kids", '&#8217;90s kids'],
      ['5x5 grid', '5&#215;5 grid'],
      ["'quoted'", '&#8216;quoted&#8217;'],
    ],
    'leaves plain titles, entities, markup and code alone': [
      ['Summer Jazz Night', 'Summer Jazz Night'],
      ['Summer Jazz Night (updated)', 'Summer Jazz Night (updated)'],
      ['Rock &amp; Roll', 'Rock &amp; Roll'],
      ['well-known', 'well-known'],
      ['<a href="x">"hi"</a>', '<a href="x">&#8220;hi&#8221;</a>'],
      ["It's <code>a 'b'</code>", "It&#8217;s <code>a 'b'</code>"],
    ],
  });
});

describe('renderers: titles, contents and excerpts like the REST API', () => {
  describeCases({ renderTitle }, {
    titles: [
      ['  Summer Jazz Night ', 'Summer Jazz Night'],
      ['Rock & Roll', 'Rock &#038; Roll'],
    ],
  });
  describeCases({ renderContent }, {
    contents: [
      ['<p>Live <strong>jazz</strong> on the lawn.</p>', '<p>Live <strong>jazz</strong> on the lawn.</p>'],
      ["It's on", '<p>It&#8217;s on</p>'],
    ],
  });
  describeCases({ renderExcerpt }, {
    excerpts: [
      ['Jazz on the lawn', '<p>Jazz on the lawn</p>'],
      ['', ''],
    ],
  });
});

describe('escapeHtml', () => {
  describeCases({ escapeHtml }, {
    'escapes like esc_html, without double-encoding entities': [
      [`<a href="x">Tom & Jerry's</a>`, '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#039;s&lt;/a&gt;'],
      ['&amp; &#8211; &#x2013;', '&amp; &#8211; &#x2013;'],
      [null, ''],
    ],
  });
});

// The filters used to rescan the rest of the text from every `<` without a `>`,
// every white space before a newline, every `<li`/`<div` without `>` (100,000 characters: 19 s).
// Timings are printed by `test/bench/text.ts`; here the structure of the answers is checked, at a
// size that a quadratic filter could not finish within the test timeout.
describe('rendering is linear in the length of the text', () => {
  const N = 100_000;
  it('renders pathological texts whole', () => {
    for (const ch of ['<', '‹']) {
      const text = ch.repeat(N);
      expect(renderContent(text)).toBe(`<p>${text}</p>`);
      expect(renderExcerpt(text)).toBe(`<p>${text}</p>`);
      expect(renderTitle(text)).toBe(text);
    }
    expect(renderContent(`${' '.repeat(N)}a`)).toBe(`<p>${' '.repeat(N)}a</p>`);
    // Unclosed tags: nothing lost (a tag now ends at the next `<`; WordPress would read
    // `<div<div</p>` as one tag, malformed either way).
    expect(renderContent('<li'.repeat(N / 4)).split('<li').length - 1).toBe(N / 4);
    expect(renderContent('<div'.repeat(N / 4)).split('<div').length - 1).toBe(N / 4);
    expect(texturize('<!--'.repeat(N / 4))).toBe('<!&#8211;'.repeat(N / 4));
    expect(renderContent(`${'<script>a\n'.repeat(N / 10)}</script>`)).toContain('<script>a\n<script>');
  });
  describeCases(AUTOP, {
    'keeps the WordPress answers for the rewritten patterns (autop)': [
      ['a <br />\nb', '<p>a <br />\nb</p>'],
      ['a<br /> \nb', '<p>a<br /> <br />\nb</p>'],
      ['a  \nb', '<p>a<br />\nb</p>'],
      ['<script>a\nb</script>', '<p><script>a\nb</script></p>'],
      ['x\n  <option>a</option>  \ny', '<p>x<option>a</option>y</p>'],
    ],
  });
  describeCases({ texturize }, {
    'keeps the WordPress answers for the rewritten patterns (texturize)': [['<b title="a -- b">"c" -- d</b>', '<b title="a -- b">&#8220;c&#8221; &#8212; d</b>']],
  });
});

// Tag stripping used to rescan the rest of the text from every `<` with no `>` after it (a
// cost of 100,000 `<` took 13 s through slugify), comma lists rescanned white space runs, and
// nested HTML made sanitize-html's parser quadratic. The rewrites answer as the expressions they
// replace on every short text of a small alphabet, and finish whole texts a quadratic step could not.
describe('text steps are linear and answer as the expressions they replace', () => {
  /** Every string of `alphabet` up to `max` characters. */
  function* strings(alphabet: string[], max: number): Generator<string> {
    let level = [''];
    for (let n = 0; n <= max; n++) {
      yield* level;
      level = level.flatMap((s) => alphabet.map((c) => s + c));
    }
  }
  const HTML = ['<', '>', 'a', '/', 'ScRipt', 'style', ' '];

  it('stripTags, stripAllTags and htmlToText', () => {
    const stripAllTagsBefore = (html: string) => html.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '').replace(/<[^>]*>/g, '');
    for (const text of strings(HTML, 5)) {
      expect(stripTags(text), text).toBe(text.replace(/<[^>]*>/g, ''));
      expect(stripAllTags(text), text).toBe(stripAllTagsBefore(text));
    }
    for (const text of ['<script>x</script>y<style a>b</STYLE>', '<script<script>x</script>', '<style>a</script>b</style>c', 'a<br/>b</p>&amp;']) {
      expect(stripAllTags(text), text).toBe(stripAllTagsBefore(text));
    }
    expect(htmlToText('<p>A &amp; B</p><br>C<')).toBe('A & B\n\nC<');
  });

  it('splitting on commas with the white space around them', () => {
    const before = (v: string) => v.split(/\s*,\s*/).map((x) => x.trim()).filter((x) => x !== '');
    for (const text of strings([',', ' ', 'a', '\t'], 6)) {
      expect(parseList(text), JSON.stringify(text)).toEqual(before(text.trim()));
      expect(inferCurrency(`${text}$5`)).toEqual(inferCurrency(`${text}$5`.split(/\s*,\s*/)));
    }
  });

  it('finishes pathological texts whole', () => {
    const N = 200_000;
    expect(slugify('<'.repeat(N))).toBe('');
    expect(slugify(`${'<a'.repeat(N / 2)}>b`)).toBe('b');
    expect(htmlToText('<'.repeat(N))).toBe('<'.repeat(N));
    expect(stripAllTags('<script>'.repeat(N / 8))).toBe('');
    expect(stripAllTags(`${'<style'.repeat(N / 6)}>`)).toBe('');
    expect(inferCurrency(`${' '.repeat(N)}x`)).toEqual({ symbol: '', position: '' });
    expect(parseList(`${' '.repeat(N)}x`)).toEqual(['x']);
  });

  it('kses refuses HTML nested deeper than the parser can follow in linear time', () => {
    const nested = (depth: number) => `${'<em>'.repeat(depth)}x${'</em>'.repeat(depth)}`;
    expect(kses(nested(MAX_HTML_DEPTH), 'post')).toBe(nested(MAX_HTML_DEPTH));
    expect(() => kses(nested(MAX_HTML_DEPTH + 1), 'post')).toThrow(HtmlTooDeepError);
    // Elements the parser closes itself (void ones, implied ends) do not count.
    expect(kses('<p>a'.repeat(2_000), 'post')).toBe('<p>a</p>'.repeat(2_000));
    expect(kses('<br>'.repeat(2_000), 'data')).toBe('');
    expect(() => kses(nested(50_000), 'post')).toThrow(HtmlTooDeepError);
  });

  it('kses answers exactly as sanitize-html with its own parser, text pieces and references joined or not', () => {
    // Pieces that move the tokenizer between its states: tags, attributes, entities, comments,
    // raw-text elements (whose text sanitize-html passes on unescaped), styles and URLs.
    const piece = fc.constantFrom(
      '<', '<<', '>', '</', '</>', '<!', '<?', '<!--', '-->', '/>', '&', '&amp;', '&lt;', '&#60;', '&#x3c;', '&amp', '&not', '&notin;', '&bogus;',
      '&#128;', '&#0;', '&#xD800;', '&#x1F600;', '&#x110000;', '&NotEqualTilde;', '&#',
      'a', 'p', 'b', 'em', 'br', 'textarea', 'script', 'style', 'title', 'xmp', 'svg', 'option', 'iframe', 'data-x', 'href', 'class',
      ' ', '\n', '=', '"', "'", 'javascript:', 'http://x', 'color:red', ';', '1', '\u0301', 'é', '\0',
    );
    const html = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(html, fc.constantFrom('data', 'post'), (text, context: 'data' | 'post') => {
        expect(kses(text, context)).toBe(sanitizeHtml(text, KSES_OPTIONS[context]));
      }),
      { numRuns: 5_000 },
    );
    // Runs the tokenizer cuts into a piece per character or reference, which kses joins.
    for (const unit of ['<', '< ', '<1', '<\u0301', '>', '&', '&amp;&#8217;&#x27;&bogus;& &'])
      for (const context of ['data', 'post'] as const) {
        const text = unit.repeat(2_000);
        expect(kses(text, context)).toBe(sanitizeHtml(text, KSES_OPTIONS[context]));
      }
  });
});
