// Type declaration for pdf.js's worker module, which ships without types. Folio imports it
// only so that pdf.js runs its "worker" side in the calling thread (see pdfjs.ts).

declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
