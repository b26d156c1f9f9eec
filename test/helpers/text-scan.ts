// Scans made at test time from real text: lines drawn in a system font with @napi-rs/canvas
// (the canvas Folio renders PDF pages with), black on white at 300 dpi, as an 8-bit grey image
// for a scanned PDF (benchmarks/extraction-pdf-writer.ts) or as PNG bytes. DejaVu Sans draws
// Latin text; Debian's fonts-noto-cjk draws Japanese (`.ci/run` installs it). `missingFont`
// names a font that is not on this machine, for a test to skip with.

import { existsSync } from 'node:fs';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import type { Canvas } from '@napi-rs/canvas';
import type { GreyImage } from '../../benchmarks/extraction-pdf-writer.ts';

/** The fonts scans are drawn in: DejaVu Sans (Latin), Noto Sans CJK (Japanese). */
export const SCAN_FONTS = {
  latin: { family: 'DejaVu Sans', file: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', apt: 'fonts-dejavu-core' },
  cjk: { family: 'Noto Sans CJK JP', file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', apt: 'fonts-noto-cjk' },
} as const;
export type ScanFont = keyof typeof SCAN_FONTS;

const DPI = 300;
const FONT_PX = 50; // 12 pt at 300 dpi
const MARGIN_PX = 120;
const LINE_PX = Math.round(FONT_PX * 1.6);
const WIDTH_PX = 2400;

/** Why scans in `fonts` cannot be made here (a font file missing), or false. */
export function missingFont(...fonts: ScanFont[]): string | false {
  const missing = fonts.map((font) => SCAN_FONTS[font]).filter((font) => !existsSync(font.file));
  return missing.length === 0 ? false : `no ${missing.map((font) => font.family).join(', ')} on this machine (apt-get install ${missing.map((font) => font.apt).join(' ')}; .ci/run does)`;
}

function drawn(lines: readonly string[], font: ScanFont): Canvas {
  const { family, file } = SCAN_FONTS[font];
  if (!GlobalFonts.has(family)) GlobalFonts.registerFromPath(file, family);
  const canvas = createCanvas(WIDTH_PX, MARGIN_PX * 2 + LINE_PX * lines.length);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = `${FONT_PX}px "${family}"`;
  context.textBaseline = 'top';
  lines.forEach((line, i) => context.fillText(line, MARGIN_PX, MARGIN_PX + i * LINE_PX));
  return canvas;
}

/** `lines` scanned: PNG bytes. */
export function scanPng(lines: readonly string[], font: ScanFont): Buffer {
  return drawn(lines, font).toBuffer('image/png');
}

/** `lines` scanned: an 8-bit grey image at 300 dpi, for a scanned PDF's page. */
export function scanGrey(lines: readonly string[], font: ScanFont): GreyImage {
  const canvas = drawn(lines, font);
  const rgba = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const pixels = new Uint8Array(canvas.width * canvas.height);
  for (let i = 0; i < pixels.length; i++) pixels[i] = rgba[i * 4];
  return { width: canvas.width, height: canvas.height, dpi: DPI, pixels };
}
