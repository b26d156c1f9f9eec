# Throughput peer: Xapian through its Python bindings (Debian's python3-xapian), run as a
# child by benchmarks/peer-xapian.ts. It speaks the protocol of benchmarks/peer-process.ts:
# one JSON argument (PeerInput: docs, queries, passes, dir, corpusFile, queriesFile, optional
# indexDir; null means "all") in, one line "PEER-RESULT {PeerResult as JSON}" out, exit 0.
#
# Build: a disk database in `dir` (or in `indexDir`, the peer cache: a database recorded
# there by an earlier run is opened instead, and the recorded build reported). Title and
# text go through xapian.TermGenerator with the English stemmer and STEM_SOME, the title
# first, then a gap in positions, then the text; the document's data is its id. Documents
# are committed every FLUSH_DOCS: XAPIAN_FLUSH_THRESHOLD from the environment, else 100,000
# (and Xapian's own threshold, 10,000 by default, is set to the same), so the build does not
# flush every 10,000 documents. The build time includes reading and parsing the JSONL.
# Search: each query is parsed by xapian.QueryParser with the same stemmer and strategy,
# default operator OR and no query syntax (flags 0), ranked with BM25Weight(); the top 10
# ids are read. Latency follows benchmarks/latency.ts: one warm-up pass, then `passes` timed
# passes, one query at a time; p50/p99 nearest rank; QPS over the timed passes' wall time.

import json
import math
import os
import shutil
import sys
import time
from datetime import datetime, timezone

FLUSH_DOCS = int(os.environ.get('XAPIAN_FLUSH_THRESHOLD', '100000'))
os.environ.setdefault('XAPIAN_FLUSH_THRESHOLD', str(FLUSH_DOCS))

import xapian  # noqa: E402 (after the flush threshold is set)

RESULT_PREFIX = 'PEER-RESULT '
BUILD_RECORD_FILE = 'build.json'
ENGINE = f'Xapian {xapian.version_string()}'


def peak_rss_bytes():
    """VmHWM of this process, or None where /proc is not there."""
    try:
        with open('/proc/self/status', encoding='utf-8') as status:
            for line in status:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def directory_bytes(path):
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            if name != BUILD_RECORD_FILE:
                total += os.path.getsize(os.path.join(root, name))
    return total


def read_build_record(index_dir):
    try:
        with open(os.path.join(index_dir, BUILD_RECORD_FILE), encoding='utf-8') as record:
            return json.load(record)
    except FileNotFoundError:
        return None


def stemmed_generator():
    generator = xapian.TermGenerator()
    generator.set_stemmer(xapian.Stem('english'))
    generator.set_stemming_strategy(xapian.TermGenerator.STEM_SOME)
    return generator


def build(db_dir, corpus_file, limit):
    """Indexes the first `limit` documents of the corpus; returns (docs, build ms)."""
    started = time.perf_counter()
    db = xapian.WritableDatabase(db_dir, xapian.DB_CREATE_OR_OVERWRITE)
    generator = stemmed_generator()
    docs = 0
    with open(corpus_file, encoding='utf-8') as corpus:
        for line in corpus:
            if limit is not None and docs >= limit:
                break
            if not line.strip():
                continue
            entry = json.loads(line)
            document = xapian.Document()
            generator.set_document(document)
            generator.index_text(entry.get('title') or '')
            generator.increase_termpos()
            generator.index_text(entry.get('text') or '')
            document.set_data(entry['id'])
            db.add_document(document)
            docs += 1
            if docs % FLUSH_DOCS == 0:
                db.commit()
    db.commit()
    db.close()
    return docs, (time.perf_counter() - started) * 1000


def percentile(ordered, p):
    if not ordered:
        return None
    rank = math.ceil(p / 100 * len(ordered))
    return ordered[min(len(ordered), max(1, rank)) - 1]


def measure_sequential(queries, passes, run):
    for query in queries:
        run(query)
    samples = []
    started = time.perf_counter()
    for _ in range(passes):
        for query in queries:
            t0 = time.perf_counter()
            run(query)
            samples.append((time.perf_counter() - t0) * 1000)
    wall_ms = (time.perf_counter() - started) * 1000
    ordered = sorted(samples)
    return {
        'count': len(ordered),
        'p50Ms': percentile(ordered, 50),
        'p99Ms': percentile(ordered, 99),
        'meanMs': sum(ordered) / len(ordered) if ordered else None,
        'qps': len(ordered) / (wall_ms / 1000) if ordered and wall_ms > 0 else None,
    }


def read_queries(queries_file, limit):
    texts = []
    with open(queries_file, encoding='utf-8') as lines:
        for line in lines:
            if limit is not None and len(texts) >= limit:
                break
            if line.strip():
                texts.append(json.loads(line)['text'])
    return texts


def main():
    peer_input = json.loads(sys.argv[1])
    cache_dir = peer_input.get('indexDir')
    cached = read_build_record(cache_dir) if cache_dir else None
    db_dir = cache_dir if cache_dir else os.path.join(peer_input['dir'], 'xapian')
    if cached is not None:
        docs, build_ms = cached['docs'], cached['buildMs']
    else:
        if cache_dir:
            shutil.rmtree(cache_dir, ignore_errors=True)
        os.makedirs(db_dir, exist_ok=True)
        docs, build_ms = build(db_dir, peer_input['corpusFile'], peer_input.get('docs'))
        if cache_dir:
            record = {
                'engine': ENGINE,
                'docs': docs,
                'buildMs': build_ms,
                'peakRssBytes': peak_rss_bytes(),
                'builtAt': datetime.now(timezone.utc).isoformat().replace('+00:00', 'Z'),
                'flushDocs': FLUSH_DOCS,
            }
            with open(os.path.join(cache_dir, BUILD_RECORD_FILE), 'w', encoding='utf-8') as out:
                json.dump(record, out, indent=2)
                out.write('\n')

    flush_docs = cached.get('flushDocs', FLUSH_DOCS) if cached is not None else FLUSH_DOCS
    db = xapian.Database(db_dir)
    parser = xapian.QueryParser()
    parser.set_stemmer(xapian.Stem('english'))
    parser.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
    parser.set_default_op(xapian.Query.OP_OR)
    parser.set_database(db)
    enquire = xapian.Enquire(db)
    enquire.set_weighting_scheme(xapian.BM25Weight())

    parsed = []
    failed = 0
    for text in read_queries(peer_input['queriesFile'], peer_input.get('queries')):
        try:
            parsed.append(parser.parse_query(text, 0))
        except xapian.QueryParserError:
            failed += 1

    def search(query):
        enquire.set_query(query)
        return [match.document.get_data() for match in enquire.get_mset(0, 10)]

    latency = measure_sequential(parsed, peer_input['passes'], search)
    peak = peak_rss_bytes()
    if cached is not None and cached.get('peakRssBytes') is not None and peak is not None:
        peak = max(peak, cached['peakRssBytes'])
    result = {
        'engine': ENGINE,
        'docs': docs,
        'buildMs': build_ms,
        'indexBytes': directory_bytes(db_dir),
        'indexBytesNote': f'database directory (glass; committed every {flush_docs:,} docs)',
        'peakRssBytes': peak,
        'latency': latency,
        'failedQueries': failed,
        'builtAt': cached['builtAt'] if cached is not None else None,
    }
    db.close()
    sys.stdout.write(RESULT_PREFIX + json.dumps(result) + '\n')


if __name__ == '__main__':
    main()
