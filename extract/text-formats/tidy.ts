// Shared shape and clean-up for the text converters: a converter turns source text into
// readable text plus the document's own title; `tidyText` trims lines and squeezes blank runs.

/** What a text converter returns. */
export interface TextConversion {
  title: string | null;
  text: string;
}

/** Trims every line, squeezes inner runs of spaces/tabs, and keeps at most one blank line in a row. */
export function tidyText(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim());
  const out: string[] = [];
  for (const line of lines) {
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

/** A title candidate squeezed to one line, or null when empty. */
export function cleanTitle(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const title = raw.replace(/\s+/g, ' ').trim();
  return title === '' ? null : title;
}
