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
