// The index pool's worker entry (Piscina): builds segment files off the main thread. A refresh
// sends the buffered documents (those of batch bodies as their bytes, parsed here) and gets back
// the new segment's size (and writes the documents' own vectors beside it, for user embedders); a merge names the source
// segments and their deletes files, which this worker maps and verifies itself, and carries
// their vector files over to the merged segment. Either way the
// file is written atomically (temporary name, fsync, rename); the main thread commits it.

import path from 'node:path';
import { Analyzer, SegmentReader, VectorReader, mergeOrder, mergeSegments, mergeVectorFiles, readDeletesFile, writeSegment } from '../../engine/index.ts';
import { releaseLargeArraysAfter } from '../../storage/index.ts';
import { sliceIndexDocuments } from '../ingest/index.ts';
import { writeOwnVectorFile } from './own-vectors.ts';
import { replyOf } from './worker-protocol.ts';
import type { IndexTask, MergeSegmentsTask, SegmentWritten, WorkerReply, WriteSegmentTask } from './worker-protocol.ts';

function build(task: WriteSegmentTask): SegmentWritten {
  const docs = task.docs;
  for (const slice of task.bodies) for (const doc of sliceIndexDocuments(slice)) docs.push(doc);
  const written: SegmentWritten = writeSegment(task.filePath, docs, Analyzer.forIndexing(task.language), task.searchFields);
  if (task.ownVectors.length === 0) return written;
  // Documents' own vectors (user embedders) are searchable with the segment: nothing to embed.
  const vectors: Record<string, string> = {};
  for (const { embedder, dims, fileName } of task.ownVectors) {
    writeOwnVectorFile(path.join(path.dirname(task.filePath), fileName), embedder, dims, docs);
    vectors[embedder] = fileName;
  }
  return { ...written, vectors };
}

function merge(task: MergeSegmentsTask): SegmentWritten {
  const opened = task.sources.map(({ name, deletes }) => ({
    // A merge reads every byte anyway: verify the checksums so damage is never copied forward.
    reader: SegmentReader.open(path.join(task.dir, name)),
    deleted: deletes === null ? null : readDeletesFile(path.join(task.dir, deletes)),
  }));
  // Sources in id order, their documents and their vectors alike (mergeOrder).
  const order = mergeOrder(opened);
  const views = order.map((i) => opened[i]);
  const sources = order.map((i) => task.sources[i]);
  try {
    const written: SegmentWritten = mergeSegments(task.filePath, views, Analyzer.forIndexing(task.language), task.searchFields);
    // The sources' vectors follow their documents: nothing is embedded again.
    const vectors: Record<string, string> = {};
    for (const { embedder, fileName } of task.vectors) {
      const vectorSources = sources.map((source, i) => ({
        vectors: source.vectors?.[embedder] === undefined ? null : VectorReader.open(path.join(task.dir, source.vectors[embedder])),
        docCount: views[i].reader.docCount,
        isDeleted: (doc: number) => views[i].deleted?.has(doc) ?? false,
      }));
      if (mergeVectorFiles(path.join(task.dir, fileName), embedder, vectorSources)) vectors[embedder] = fileName;
    }
    return Object.keys(vectors).length === 0 ? written : { ...written, vectors };
  } finally {
    // Every source page was read: give them back now rather than when the maps are collected.
    for (const { reader } of views) reader.releaseResidentPages();
  }
}

export default function index(task: IndexTask): WorkerReply<SegmentWritten> {
  // Every large array of a build or merge is its scratch: its pages go back when it ends.
  return replyOf(() => releaseLargeArraysAfter(() => (task.kind === 'write-segment' ? build(task) : merge(task))));
}
