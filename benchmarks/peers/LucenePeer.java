// Throughput peer: Apache Lucene 8 in process (Debian's liblucene8-java), compiled and run as a
// child by benchmarks/peer-lucene.ts. It speaks the protocol of benchmarks/peer-process.ts:
// one JSON argument (PeerInput: docs, queries, passes, dir, corpusFile, queriesFile, optional
// indexDir; null means "all") in, one line "PEER-RESULT {PeerResult as JSON}" out, exit 0.
// Only the JDK and the Lucene jars are on the class path, so the little JSON it needs is read
// and written by hand (Json below).
//
// Build: an FSDirectory (MMapDirectory on 64-bit Linux) in `dir`/lucene (or in `indexDir`, the
// peer cache: an index recorded there by an earlier run, build.json as peer-cache.ts writes it,
// is opened instead and the recorded build reported). One indexed, unstored text field holds
// title + " " + text through EnglishAnalyzer; the id is a StoredField only. IndexWriterConfig
// with a RAM buffer of RAM_BUFFER_MB and BM25Similarity's defaults; one commit at the end. The
// build time runs from opening the corpus (reading and parsing the JSONL included) until the
// writer is committed and closed (close waits for merges, so none is left out).
// Search: DirectoryReader + IndexSearcher with BM25Similarity and no query cache (the other
// peers have none either). Each query is lower-cased (so AND/OR/NOT are not operators),
// escaped with QueryParser.escape and parsed by the classic QueryParser over the text field
// with EnglishAnalyzer, default operator OR; searcher.search(query, 10), then the stored id of
// each hit is read (ids only, as the other peers return). A query that fails to parse is
// counted in failedQueries and left out of the timing. Latency: JIT_WARMUP_PASSES untimed
// passes first (the JVM compiles the hot paths), then as benchmarks/latency.ts's
// measureSequential: one warm-up pass, then `passes` timed passes, one query at a time;
// p50/p99 nearest rank; QPS over the timed passes' wall time.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Version;

public final class LucenePeer {
  private static final String RESULT_PREFIX = "PEER-RESULT ";
  private static final String BUILD_RECORD_FILE = "build.json";
  private static final String ENGINE = "Lucene " + Version.LATEST.major + "." + Version.LATEST.minor + " (JVM)";
  private static final String TEXT_FIELD = "text";
  private static final String ID_FIELD = "id";
  private static final Set<String> ID_ONLY = Set.of(ID_FIELD);
  private static final double RAM_BUFFER_MB = 256;
  private static final int JIT_WARMUP_PASSES = 3;
  private static final int TOP_K = 10;

  /** Keeps the JIT from discarding searches whose results nobody reads. */
  private static long sink;

  private LucenePeer() {}

  // ---------------------------------------------------------------------------------------
  // JSON: a small recursive-descent reader (objects, arrays, strings with every escape,
  // numbers, true/false/null) and the few writers the result needs.

  static final class Json {
    private final String s;
    private int i;

    private Json(String s) {
      this.s = s;
    }

    /** The value `text` holds (Map, List, String, Double, Boolean or null). */
    static Object parse(String text) {
      Json json = new Json(text);
      json.ws();
      Object value = json.value();
      json.ws();
      if (json.i != text.length()) throw json.error("trailing characters");
      return value;
    }

    /**
     * The string members named in `wanted` of the object `text` holds (the others, of any
     * type, are skipped without being built); a wanted member that is not a string is absent.
     */
    static Map<String, String> stringFields(String text, Set<String> wanted) {
      Json json = new Json(text);
      Map<String, String> out = new HashMap<>();
      json.ws();
      json.expect('{');
      json.ws();
      if (json.peek() == '}') {
        json.i++;
      } else {
        while (true) {
          json.ws();
          String key = json.string();
          json.ws();
          json.expect(':');
          json.ws();
          if (wanted.contains(key) && json.peek() == '"') out.put(key, json.string());
          else json.skip();
          json.ws();
          char c = json.next();
          if (c == '}') break;
          if (c != ',') throw json.error("expected , or }");
        }
      }
      json.ws();
      if (json.i != text.length()) throw json.error("trailing characters");
      return out;
    }

    private IllegalArgumentException error(String what) {
      return new IllegalArgumentException("JSON: " + what + " at offset " + i);
    }

    private char peek() {
      if (i >= s.length()) throw error("unexpected end");
      return s.charAt(i);
    }

    private char next() {
      char c = peek();
      i++;
      return c;
    }

    private void expect(char c) {
      if (next() != c) throw error("expected " + c);
    }

    private void ws() {
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        i++;
      }
    }

    private void literal(String word) {
      if (!s.startsWith(word, i)) throw error("expected " + word);
      i += word.length();
    }

    private Object value() {
      char c = peek();
      switch (c) {
        case '{': {
          i++;
          Map<String, Object> map = new LinkedHashMap<>();
          ws();
          if (peek() == '}') {
            i++;
            return map;
          }
          while (true) {
            ws();
            String key = string();
            ws();
            expect(':');
            ws();
            map.put(key, value());
            ws();
            char d = next();
            if (d == '}') return map;
            if (d != ',') throw error("expected , or }");
          }
        }
        case '[': {
          i++;
          List<Object> list = new ArrayList<>();
          ws();
          if (peek() == ']') {
            i++;
            return list;
          }
          while (true) {
            ws();
            list.add(value());
            ws();
            char d = next();
            if (d == ']') return list;
            if (d != ',') throw error("expected , or ]");
          }
        }
        case '"':
          return string();
        case 't':
          literal("true");
          return Boolean.TRUE;
        case 'f':
          literal("false");
          return Boolean.FALSE;
        case 'n':
          literal("null");
          return null;
        default:
          return number();
      }
    }

    /** Skips one value of any type. */
    private void skip() {
      char c = peek();
      if (c == '{' || c == '[') {
        value(); // nested containers are rare and small here (metadata)
      } else if (c == '"') {
        skipString();
      } else {
        value();
      }
    }

    private Double number() {
      int start = i;
      if (i < s.length() && s.charAt(i) == '-') i++;
      while (i < s.length()) {
        char c = s.charAt(i);
        if ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') i++;
        else break;
      }
      if (start == i) throw error("unexpected character " + s.charAt(i));
      try {
        return Double.valueOf(s.substring(start, i));
      } catch (NumberFormatException e) {
        throw error("bad number");
      }
    }

    private void skipString() {
      expect('"');
      while (true) {
        char c = next();
        if (c == '"') return;
        if (c == '\\') next(); // a u escape: its four hex digits are plain characters
      }
    }

    private String string() {
      expect('"');
      // The common case: no escape before the closing quote.
      int start = i;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c == '"') {
          i++;
          return s.substring(start, i - 1);
        }
        if (c == '\\') break;
        i++;
      }
      StringBuilder out = new StringBuilder(s.length() - start);
      out.append(s, start, i);
      while (true) {
        char c = next();
        if (c == '"') return out.toString();
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = next();
        switch (e) {
          case '"': out.append('"'); break;
          case '\\': out.append('\\'); break;
          case '/': out.append('/'); break;
          case 'b': out.append('\b'); break;
          case 'f': out.append('\f'); break;
          case 'n': out.append('\n'); break;
          case 'r': out.append('\r'); break;
          case 't': out.append('\t'); break;
          case 'u': {
            // One UTF-16 unit; a surrogate pair arrives as two escapes, appended in turn.
            if (i + 4 > s.length()) throw error("short \\u escape");
            int code = 0;
            for (int k = 0; k < 4; k++) {
              int digit = Character.digit(s.charAt(i + k), 16);
              if (digit < 0) throw error("bad \\u escape");
              code = code * 16 + digit;
            }
            i += 4;
            out.append((char) code);
            break;
          }
          default:
            throw error("bad escape \\" + e);
        }
      }
    }

    static String quote(String value) {
      StringBuilder out = new StringBuilder(value.length() + 2).append('"');
      for (int k = 0; k < value.length(); k++) {
        char c = value.charAt(k);
        switch (c) {
          case '"': out.append("\\\""); break;
          case '\\': out.append("\\\\"); break;
          case '\n': out.append("\\n"); break;
          case '\r': out.append("\\r"); break;
          case '\t': out.append("\\t"); break;
          default:
            if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
      }
      return out.append('"').toString();
    }

    /** A JSON number, or null for NaN, infinities and null (which JSON cannot spell). */
    static String number(Double value) {
      if (value == null || value.isNaN() || value.isInfinite()) return "null";
      if (value == Math.rint(value) && Math.abs(value) < 1e15) return Long.toString(value.longValue());
      return Double.toString(value);
    }

    static String number(Long value) {
      return value == null ? "null" : Long.toString(value);
    }

    /** An object of already-written values, in insertion order. */
    static String object(Map<String, String> members) {
      StringBuilder out = new StringBuilder("{");
      for (Map.Entry<String, String> member : members.entrySet()) {
        if (out.length() > 1) out.append(',');
        out.append(quote(member.getKey())).append(':').append(member.getValue());
      }
      return out.append('}').toString();
    }
  }

  // ---------------------------------------------------------------------------------------

  /** VmHWM of this process in bytes, or null where /proc is not there. */
  static Long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return null;
  }

  static long directoryBytes(Path dir) throws IOException {
    long total = 0;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(file) && !file.getFileName().toString().equals(BUILD_RECORD_FILE)) total += Files.size(file);
      }
    }
    return total;
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) return;
    try (Stream<Path> files = Files.walk(dir)) {
      List<Path> all = new ArrayList<>();
      files.forEach(all::add);
      all.sort(Comparator.reverseOrder());
      for (Path file : all) Files.delete(file);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> readBuildRecord(Path indexDir) throws IOException {
    Path file = indexDir.resolve(BUILD_RECORD_FILE);
    if (!Files.exists(file)) return null;
    return (Map<String, Object>) Json.parse(Files.readString(file, StandardCharsets.UTF_8));
  }

  /** The -Xmx this JVM was started with, or its max heap in MiB when none was given. */
  static String heapSetting() {
    String xmx = null;
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-Xmx")) xmx = arg;
    }
    return xmx != null ? xmx : "max heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB";
  }

  /** Indexes the first `limit` documents of the corpus (all for null); returns {docs, ms}. */
  static double[] build(Path indexPath, String corpusFile, Long limit, Analyzer analyzer) throws IOException {
    long started = System.nanoTime();
    long docs = 0;
    IndexWriterConfig config = new IndexWriterConfig(analyzer)
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
        .setRAMBufferSizeMB(RAM_BUFFER_MB)
        .setSimilarity(new BM25Similarity());
    Set<String> wanted = Set.of("id", "title", "text");
    try (Directory directory = FSDirectory.open(indexPath);
        IndexWriter writer = new IndexWriter(directory, config);
        BufferedReader corpus = Files.newBufferedReader(Paths.get(corpusFile), StandardCharsets.UTF_8)) {
      // One document and its fields, refilled for each entry (Lucene copies what it indexes).
      Document document = new Document();
      TextField body = new TextField(TEXT_FIELD, "", Field.Store.NO);
      StoredField id = new StoredField(ID_FIELD, "");
      document.add(body);
      document.add(id);
      String line;
      while ((line = corpus.readLine()) != null) {
        if (limit != null && docs >= limit) break;
        if (line.isBlank()) continue;
        Map<String, String> entry = Json.stringFields(line, wanted);
        String entryId = entry.get("id");
        if (entryId == null) throw new IllegalArgumentException("corpus entry without a string id: " + line);
        body.setStringValue(entry.getOrDefault("title", "") + " " + entry.getOrDefault("text", ""));
        id.setStringValue(entryId);
        writer.addDocument(document);
        docs++;
      }
      writer.commit();
    }
    return new double[] {docs, (System.nanoTime() - started) / 1e6};
  }

  static List<String> readQueries(String queriesFile, Long limit) throws IOException {
    List<String> texts = new ArrayList<>();
    Set<String> wanted = Set.of("text");
    try (BufferedReader lines = Files.newBufferedReader(Paths.get(queriesFile), StandardCharsets.UTF_8)) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (limit != null && texts.size() >= limit) break;
        if (line.isBlank()) continue;
        String text = Json.stringFields(line, wanted).get("text");
        if (text == null) throw new IllegalArgumentException("query without a string text: " + line);
        texts.add(text);
      }
    }
    return texts;
  }

  /** The top ids of `query`, as the peers return them. */
  static String[] search(IndexSearcher searcher, Query query) throws IOException {
    TopDocs top = searcher.search(query, TOP_K);
    String[] ids = new String[top.scoreDocs.length];
    for (int k = 0; k < ids.length; k++) {
      ScoreDoc hit = top.scoreDocs[k];
      ids[k] = searcher.doc(hit.doc, ID_ONLY).get(ID_FIELD);
    }
    return ids;
  }

  static void consume(String[] ids) {
    sink += ids.length;
    if (ids.length > 0) sink += ids[0].hashCode();
  }

  /** Nearest-rank percentile (`p` in 0–100) of ascending `sorted`. */
  static Double percentile(double[] sorted, double p) {
    if (sorted.length == 0) return null;
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
  }

  /** As benchmarks/latency.ts's measureSequential and summarise. */
  static String measureSequential(IndexSearcher searcher, List<Query> queries, int passes) throws IOException {
    for (Query query : queries) consume(search(searcher, query));
    double[] samples = new double[queries.size() * Math.max(0, passes)];
    int n = 0;
    long started = System.nanoTime();
    for (int pass = 0; pass < passes; pass++) {
      for (Query query : queries) {
        long t0 = System.nanoTime();
        String[] ids = search(searcher, query);
        samples[n++] = (System.nanoTime() - t0) / 1e6;
        consume(ids);
      }
    }
    double wallMs = (System.nanoTime() - started) / 1e6;
    Arrays.sort(samples);
    double sum = 0;
    for (double sample : samples) sum += sample;
    Map<String, String> summary = new LinkedHashMap<>();
    summary.put("count", Integer.toString(samples.length));
    summary.put("p50Ms", Json.number(percentile(samples, 50)));
    summary.put("p99Ms", Json.number(percentile(samples, 99)));
    summary.put("meanMs", Json.number(samples.length > 0 ? sum / samples.length : null));
    summary.put("qps", Json.number(samples.length > 0 && wallMs > 0 ? samples.length / (wallMs / 1000) : null));
    return Json.object(summary);
  }

  static Long optionalCount(Object value) {
    return value == null ? null : ((Double) value).longValue();
  }

  @SuppressWarnings("unchecked")
  public static void main(String[] args) throws Exception {
    if (args.length != 1) throw new IllegalArgumentException("usage: LucenePeer '<PeerInput as JSON>'");
    Map<String, Object> input = (Map<String, Object>) Json.parse(args[0]);
    Long docLimit = optionalCount(input.get("docs"));
    Long queryLimit = optionalCount(input.get("queries"));
    int passes = ((Double) input.get("passes")).intValue();
    String cacheDir = (String) input.get("indexDir");
    Map<String, Object> cached = cacheDir != null ? readBuildRecord(Paths.get(cacheDir)) : null;
    Path indexPath = cacheDir != null ? Paths.get(cacheDir) : Paths.get((String) input.get("dir"), "lucene");

    Analyzer analyzer = new EnglishAnalyzer();
    long docs;
    double buildMs;
    if (cached != null) {
      docs = ((Double) cached.get("docs")).longValue();
      buildMs = (Double) cached.get("buildMs");
    } else {
      deleteTree(indexPath);
      Files.createDirectories(indexPath);
      double[] built = build(indexPath, (String) input.get("corpusFile"), docLimit, analyzer);
      docs = (long) built[0];
      buildMs = built[1];
      if (cacheDir != null) {
        Map<String, String> record = new LinkedHashMap<>();
        record.put("engine", Json.quote(ENGINE));
        record.put("docs", Long.toString(docs));
        record.put("buildMs", Json.number(buildMs));
        record.put("peakRssBytes", Json.number(peakRssBytes()));
        record.put("builtAt", Json.quote(Instant.now().toString()));
        record.put("ramBufferMB", Json.number(RAM_BUFFER_MB));
        try (Writer out = Files.newBufferedWriter(indexPath.resolve(BUILD_RECORD_FILE), StandardCharsets.UTF_8)) {
          out.write(Json.object(record) + "\n");
        }
      }
    }

    String latency;
    int failed = 0;
    int segments;
    try (Directory directory = FSDirectory.open(indexPath); DirectoryReader reader = DirectoryReader.open(directory)) {
      segments = reader.leaves().size();
      IndexSearcher searcher = new IndexSearcher(reader);
      searcher.setSimilarity(new BM25Similarity());
      searcher.setQueryCache(null);
      QueryParser parser = new QueryParser(TEXT_FIELD, analyzer);
      parser.setDefaultOperator(QueryParser.Operator.OR);
      List<Query> parsed = new ArrayList<>();
      for (String text : readQueries((String) input.get("queriesFile"), queryLimit)) {
        try {
          parsed.add(parser.parse(QueryParser.escape(text.toLowerCase(Locale.ROOT))));
        } catch (ParseException e) { // TooManyClauses arrives wrapped in one too
          failed++;
        }
      }
      for (int pass = 0; pass < JIT_WARMUP_PASSES; pass++) {
        for (Query query : parsed) consume(search(searcher, query));
      }
      latency = measureSequential(searcher, parsed, passes);
    }

    Long peak = peakRssBytes();
    if (cached != null && cached.get("peakRssBytes") != null && peak != null) {
      peak = Math.max(peak, ((Double) cached.get("peakRssBytes")).longValue());
    }
    double ramBufferMB = cached != null && cached.get("ramBufferMB") != null ? (Double) cached.get("ramBufferMB") : RAM_BUFFER_MB;
    String note = String.format(Locale.ROOT, "index directory (MMapDirectory, %d segment%s, %s MB RAM buffer; JVM %s)",
        segments, segments == 1 ? "" : "s", Json.number(ramBufferMB), heapSetting());
    Map<String, String> result = new LinkedHashMap<>();
    result.put("engine", Json.quote(ENGINE));
    result.put("docs", Long.toString(docs));
    result.put("buildMs", Json.number(buildMs));
    result.put("indexBytes", Long.toString(directoryBytes(indexPath)));
    result.put("indexBytesNote", Json.quote(note));
    result.put("peakRssBytes", Json.number(peak));
    result.put("latency", latency);
    result.put("failedQueries", Integer.toString(failed));
    result.put("builtAt", cached != null && cached.get("builtAt") != null ? Json.quote((String) cached.get("builtAt")) : "null");
    System.out.print(RESULT_PREFIX + Json.object(result) + "\n");
    System.out.flush();
    if (sink == 42) System.err.println(); // reads the sink
  }
}
