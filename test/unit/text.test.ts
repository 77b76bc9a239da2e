import { describe, expect, it } from 'vitest';
import { autop, escapeHtml, renderContent, renderExcerpt, renderTitle, texturize } from '../../src/domain/text.ts';

describe('autop', () => {
  it('wraps plain text in a paragraph (samples)', () => {
    expect(autop('An event content')).toBe('<p>An event content</p>');
    expect(autop('Jazz on the lawn')).toBe('<p>Jazz on the lawn</p>');
  });

  it('keeps existing block markup', () => {
    expect(autop('<p>Live <strong>jazz</strong> on the lawn.</p>')).toBe('<p>Live <strong>jazz</strong> on the lawn.</p>');
    expect(autop('<ul>\n<li>a</li>\n</ul>\ntext')).toBe('<ul>\n<li>a</li>\n</ul>\n<p>text</p>');
    expect(autop('<div>inside</div>')).toBe('<div>inside</div>');
  });

  it('splits paragraphs on blank lines and breaks lines on single newlines', () => {
    expect(autop('line1\nline2\n\npara2')).toBe('<p>line1<br />\nline2</p>\n<p>para2</p>');
    expect(autop('a\r\n\r\nb')).toBe('<p>a</p>\n<p>b</p>');
    expect(autop('one\n\n\n\ntwo')).toBe('<p>one</p>\n<p>two</p>');
  });

  it('leaves <pre> content alone', () => {
    expect(autop('<pre>a\n\nb</pre>')).toBe('<pre>a\n\nb</pre>');
  });

  it('returns "" for empty input', () => {
    expect(autop('')).toBe('');
    expect(autop('  \n ')).toBe('');
    expect(autop(null)).toBe('');
  });
});

describe('texturize', () => {
  it('applies the typographic replacements of §4.8', () => {
    expect(texturize("Don't stop")).toBe('Don&#8217;t stop');
    expect(texturize('He said "hi" there')).toBe('He said &#8220;hi&#8221; there');
    expect(texturize('Wait...')).toBe('Wait&#8230;');
    expect(texturize('A -- B')).toBe('A &#8212; B');
    expect(texturize('A - B')).toBe('A &#8211; B');
    expect(texturize('Rock & Roll')).toBe('Rock &#038; Roll');
    expect(texturize("'90s kids")).toBe('&#8217;90s kids');
    expect(texturize('5x5 grid')).toBe('5&#215;5 grid');
    expect(texturize("'quoted'")).toBe('&#8216;quoted&#8217;');
  });

  it('leaves plain titles, entities, markup and code alone', () => {
    expect(texturize('Summer Jazz Night')).toBe('Summer Jazz Night');
    expect(texturize('Summer Jazz Night (updated)')).toBe('Summer Jazz Night (updated)');
    expect(texturize('Rock &amp; Roll')).toBe('Rock &amp; Roll');
    expect(texturize('well-known')).toBe('well-known');
    expect(texturize('<a href="x">"hi"</a>')).toBe('<a href="x">&#8220;hi&#8221;</a>');
    expect(texturize("It's <code>a 'b'</code>")).toBe("It&#8217;s <code>a 'b'</code>");
  });
});

describe('renderers', () => {
  it('renders titles, contents and excerpts like the REST API', () => {
    expect(renderTitle('  Summer Jazz Night ')).toBe('Summer Jazz Night');
    expect(renderTitle('Rock & Roll')).toBe('Rock &#038; Roll');
    expect(renderContent('<p>Live <strong>jazz</strong> on the lawn.</p>')).toBe('<p>Live <strong>jazz</strong> on the lawn.</p>');
    expect(renderContent("It's on")).toBe('<p>It&#8217;s on</p>');
    expect(renderExcerpt('Jazz on the lawn')).toBe('<p>Jazz on the lawn</p>');
    expect(renderExcerpt('')).toBe('');
  });
});

describe('escapeHtml', () => {
  it('escapes like esc_html, without double-encoding entities', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#039;s&lt;/a&gt;');
    expect(escapeHtml('&amp; &#8211; &#x2013;')).toBe('&amp; &#8211; &#x2013;');
    expect(escapeHtml(null)).toBe('');
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
  it('keeps the WordPress answers for the rewritten patterns', () => {
    expect(autop('a <br />\nb')).toBe('<p>a <br />\nb</p>');
    expect(autop('a<br /> \nb')).toBe('<p>a<br /> <br />\nb</p>');
    expect(autop('a  \nb')).toBe('<p>a<br />\nb</p>');
    expect(autop('<script>a\nb</script>')).toBe('<p><script>a\nb</script></p>');
    expect(autop('x\n  <option>a</option>  \ny')).toBe('<p>x<option>a</option>y</p>');
    expect(texturize('<b title="a -- b">"c" -- d</b>')).toBe('<b title="a -- b">&#8220;c&#8221; &#8212; d</b>');
  });
});
