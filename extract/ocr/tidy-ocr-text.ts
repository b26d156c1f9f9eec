// Tidies what tesseract returns: no trailing spaces on lines, at most one blank line between
// paragraphs, nothing around the whole.

/** OCR output tidied: no trailing spaces, at most one blank line between paragraphs. */
export function tidyOcrText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
