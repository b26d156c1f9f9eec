// The OCR languages this server has (docs/api.md, "OCR languages"): English from Folio's own
// install, others from the add-ons' `tessdata` folder where `folio ocr add` puts them. A
// collection's `ocr_languages` setting and an upload's `ocr_languages` form part must name
// installed ones: else 400 `validation_failed` naming the command that installs them. The
// folder is read at each check, so a language added while the server runs is usable at once.

import {
  MAX_OCR_LANGUAGES,
  installedOcrLanguages,
  missingOcrLanguages,
  missingOcrLanguagesMessage,
  parseOcrLanguages,
} from '../../extract/index.ts';
import type { OcrOptions } from '../../extract/index.ts';
import { FolioError } from '../errors/index.ts';

export class OcrLanguages {
  /** `dataDir`: the add-ons' tessdata folder (`<addons>/tessdata`), or null for English only. */
  constructor(readonly dataDir: string | null) {}

  /** Every installed language, sorted (`GET /v1/formats`). */
  list(): string[] {
    return installedOcrLanguages(this.dataDir);
  }

  /** Throws 400 `validation_failed` at `path` when a language of `languages` is not installed. */
  assertInstalled(languages: readonly string[] | undefined, path: string, prefix = ''): void {
    if (languages === undefined) return;
    const missing = missingOcrLanguages(languages, this.dataDir);
    if (missing.length === 0) return;
    const message = prefix + missingOcrLanguagesMessage(missing);
    throw new FolioError('validation_failed', `${path}: ${message}`, [{ path, message }]);
  }

  /**
   * How an upload is read: the languages of its `ocr_languages` form part (`deu+eng`), else the
   * collection's setting; each must be installed.
   */
  forUpload(collectionLanguages: readonly string[], field: string | undefined): OcrOptions {
    const path = '/body/ocr_languages';
    let languages = collectionLanguages;
    if (field !== undefined) {
      const parsed = parseOcrLanguages(field);
      if (parsed === null) {
        const message = `must be 1 to ${MAX_OCR_LANGUAGES} distinct Tesseract language codes joined by '+' (e.g. deu+eng)`;
        throw new FolioError('validation_failed', `${path}: ${message}`, [{ path, message }]);
      }
      languages = parsed;
    }
    // A language of the collection's setting removed from the server since: said so, at the part that would override it.
    this.assertInstalled(languages, path, field === undefined ? "the collection's ocr_languages setting: " : '');
    return { languages: [...languages], dataDir: this.dataDir };
  }
}
