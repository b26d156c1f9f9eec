// Loads pdf.js (the legacy build, which runs on Node 20) once, lazily, and opens documents with
// it. pdf.js runs without a worker of its own: Folio already extracts in a worker thread, so its
// worker side is imported here and runs in the same thread. Nothing touches the network: the
// bytes are passed in, and fonts/CMaps come from the package's folders as file paths.

import { createRequire } from 'node:module';
import { dirname } from 'node:path';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

let loading: Promise<PdfJs> | null = null;

/** The pdf.js module, with its worker side set up in this thread. */
function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    // Importing the worker module sets globalThis.pdfjsWorker, which pdf.js then uses directly
    // instead of starting a Worker (a "fake worker" on a loopback port in this thread).
    await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** pdf.js's operator codes (OPS), as the operator lists of pages use them. */
export async function pdfOps(): Promise<PdfJs['OPS']> {
  return (await loadPdfJs()).OPS;
}

/** A folder of the pdfjs-dist package as a file path ending in `/` (what pdf.js requires). */
function packageFolder(name: string): string {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return `${root}/${name}/`;
}

let folders: { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string } | null = null;

/**
 * Opens a PDF from its bytes. The caller must `destroy()` the document when done. Rejects
 * when pdf.js cannot read the file (damaged, encrypted with a password, not a PDF).
 */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  folders ??= {
    standardFontDataUrl: packageFolder('standard_fonts'),
    cMapUrl: packageFolder('cmaps'),
    wasmUrl: packageFolder('wasm'),
  };
  // pdf.js may transfer (detach) the buffer it is given, and it wants a plain Uint8Array,
  // not a Buffer: hand it a copy.
  const data = new Uint8Array(bytes.byteLength);
  data.set(bytes);
  const task = pdfjs.getDocument({
    data,
    ...folders,
    cMapPacked: true,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw error;
  }
}
