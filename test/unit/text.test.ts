import { describe, expect, it } from 'vitest';
import { autop, escapeHtml, renderContent, renderExcerpt, renderTitle, texturize } from '../../src/domain/text.ts';
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

// Issue 8 item 4: the filters used to rescan the rest of the text from every `<` without a `>`,
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
