// Tests of HTML escaping: the five special characters, and nothing else touched.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeHtml } from './escape-html.ts';

describe('escapeHtml', () => {
  it('escapes & < > " and \'', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&amp;</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('leaves other text, Unicode included, unchanged', () => {
    const text = 'Café — 東京 😀 a+b=c';
    assert.equal(escapeHtml(text), text);
    assert.equal(escapeHtml(''), '');
  });
});
