// Subtitles → the spoken text only: SubRip (srt), WebVTT (vtt), YouTube SubViewer (sbv) and
// Advanced/SubStation Alpha (ass, ssa). Cue numbers, timestamps, settings, style blocks and
// formatting tags are dropped.

import { tidyText, type TextConversion } from './tidy.ts';

const TIMING = /^\s*(\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}\s*(-->|,)\s*(\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}/;

function stripCueMarkup(line: string): string {
  return line
    .replace(/<[^>]*>/g, '')
    .replace(/\{\\[^}]*\}/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ');
}

/** SubRip, WebVTT and SBV: blocks separated by blank lines; only cue payload lines are kept. */
export function cuesToText(source: string): TextConversion {
  const blocks = source.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/);
  const out: string[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    const first = lines[0].trim();
    if (/^WEBVTT\b/.test(first) || /^(NOTE|STYLE|REGION)(\s|$)/.test(first)) continue;
    const timing = lines.findIndex((line) => TIMING.test(line));
    if (timing < 0) continue; // a block without a timing line is not a cue
    for (const line of lines.slice(timing + 1)) out.push(stripCueMarkup(line));
    out.push('');
  }
  return { title: null, text: tidyText(out.join('\n')) };
}

/** (Advanced) SubStation Alpha: the Text field of each `Dialogue:` line in [Events]. */
export function substationToText(source: string): TextConversion {
  const out: string[] = [];
  let title: string | null = null;
  let textField = 9;
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    const titleMatch = /^Title:\s*(.+)$/.exec(line);
    if (titleMatch !== null && title === null && !/^<untitled>$/i.test(titleMatch[1].trim())) title = titleMatch[1].trim();
    const format = /^Format:\s*(.*)$/.exec(line);
    if (format !== null && /\bText\b/.test(format[1])) {
      textField = format[1].split(',').map((f) => f.trim()).indexOf('Text');
    }
    const dialogue = /^Dialogue:\s*(.*)$/.exec(line);
    if (dialogue === null) continue;
    const fields = dialogue[1].split(',');
    const text = fields.slice(textField).join(',');
    out.push(text.replace(/\{[^}]*\}/g, '').replace(/\\[Nn]/g, '\n').replace(/\\h/g, ' '));
  }
  return { title, text: tidyText(out.join('\n')) };
}
