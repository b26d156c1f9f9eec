// Documents' own vectors (a `user` embedder): each document that carries a vector for the
// embedder, of its dimensions, is one passage over its whole text. The index pool writes them
// beside a refresh's segment (so `?refresh=wait_for` answers once they are searchable), and the
// embedding pool writes them for a segment committed without them (the embedder added later, or
// a collection written before this existed).

import { writeVectorFile } from '../../engine/index.ts';
import type { EmbeddedPassage, IndexDocument } from '../../engine/index.ts';

/** What a user embedder's vector files say made them (the embedding pool writes `source:model`). */
export const OWN_VECTORS_MODEL = 'user:user';

/** The document's own vector for `embedder` as its one passage, or null without one (of `dims`). */
export function ownVectorPassage(doc: number, document: IndexDocument, embedder: string, dims: number): EmbeddedPassage | null {
  const vector = document.vectors?.[embedder];
  // Checked when the document was written; a vector of other dimensions (the embedder changed since) is left out.
  if (vector === undefined || vector.length !== dims) return null;
  const page = document.pages !== null && document.pages.length > 0 ? 0 : -1;
  return { doc, page, start: 0, end: document.text.length, vector };
}

/** Writes the vector file of `docs` (a segment's documents in doc order) for a user embedder. */
export function writeOwnVectorFile(outPath: string, embedder: string, dims: number, docs: readonly IndexDocument[]): void {
  const passages: EmbeddedPassage[] = [];
  docs.forEach((document, doc) => {
    const passage = ownVectorPassage(doc, document, embedder, dims);
    if (passage !== null) passages.push(passage);
  });
  writeVectorFile(outPath, { embedder, model: OWN_VECTORS_MODEL, dims: Math.max(1, dims), docCount: docs.length, passages });
}
