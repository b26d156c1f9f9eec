// Uploaded files: the upload flow (extract in the extraction pool, build the document,
// write it), and the originals kept for download with --keep-files.

export { KeptOriginals, ORIGINALS_DIR_NAME } from './original-files.ts';
export type { KeptOriginal, OriginalFile } from './original-files.ts';
export { buildFileDocument } from './file-document.ts';
export { reindexFromOriginals } from './original-reindex.ts';
export type { OriginalsReindexed } from './original-reindex.ts';
export { DEFAULT_MAX_FILE_BYTES, FileUploads } from './file-uploads.ts';
export { OcrLanguages } from './ocr-languages.ts';
export { DEFAULT_PREVIEW_CACHE_BYTES, PREVIEWS_DIR_NAME, PagePreviews } from './page-previews.ts';
export type { PageImage } from './page-previews.ts';
export type { FileUploadsOptions, UploadedFile } from './file-uploads.ts';
