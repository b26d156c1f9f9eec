// Contents pages: dot-leader lists and "Contents" pages of numbered lines are recognised; prose,
// code and number tables are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentsPages, looksLikeContentsPage } from './contents-page.ts';

const leaders = (titles: string[]): string => titles.map((title, i) => `${i + 1}.1 ${title} . . . . . . . . . . . . ${10 + i}`).join('\n');

test('a list of section titles with dot leaders and page numbers is a contents page', () => {
  assert.equal(looksLikeContentsPage(`Table of Contents\n${leaders(['Maps as Lists', 'Protection', 'Threads', 'Closures', 'Debugging', 'Lists'])}`), true);
  // Roman page numbers and leaders without spaces.
  assert.equal(looksLikeContentsPage(['Preface.......iii', 'Legalese.......iv', 'Intro.......v', 'Usage.......vi', 'Notes.......vii'].join('\n')), true);
});

test('"Contents" with mostly numbered lines is one; prose, code and a table of numbers are not', () => {
  const numbered = ['Contents', 'I Gnuplot 21', 'Copyright 21', 'Introduction 21', 'Seeking-assistance 22', 'New features 23', 'Histograms 71', 'Fonts 74', 'Axes 80'].join('\n');
  assert.equal(looksLikeContentsPage(numbered), true);
  assert.equal(looksLikeContentsPage(numbered.replace('Contents', 'Measurements')), false);
  const prose = 'PARI provides an abstraction for doing parallel computations.\nThe exact same high level routines are used whether the protocol is POSIX threads or MPI.\n'.repeat(6);
  assert.equal(looksLikeContentsPage(prose), false);
  assert.equal(looksLikeContentsPage('for (i = 0; i < 10; i++) {\n  x = x . y;\n}\n'.repeat(5)), false);
  // A few leader lines in a long page of prose (a short index at a chapter's end) are not enough.
  assert.equal(looksLikeContentsPage(`${prose}${prose}${leaders(['One', 'Two', 'Three', 'Four', 'Five'])}`), false);
});

test('contentsPages judges each page of a document by its own text', () => {
  const contents = leaders(['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']);
  const text = `Title page\n\n${contents}\n\nChapter one: the alpha section begins here.`;
  const offsets = [0, text.indexOf('1.1'), text.indexOf('Chapter')];
  assert.deepEqual(contentsPages(text, offsets), [false, true, false]);
});
