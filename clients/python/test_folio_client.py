"""Tests of folio_client against a real Folio server.

The server's URL and master key come from FOLIO_TEST_URL and FOLIO_TEST_KEY; without them
every test is skipped. The server must keep uploaded files (--keep-files) and rate-limit API
keys (the default). test/clients/python-client.test.ts starts such a server and runs:

    FOLIO_TEST_URL=http://127.0.0.1:7700 FOLIO_TEST_KEY=... python3 -m unittest -v clients/python/test_folio_client.py
"""

import datetime
import http.server
import io
import os
import sys
import tempfile
import threading
import time
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from folio_client import FolioClient, FolioError  # noqa: E402

URL = os.environ.get("FOLIO_TEST_URL", "")
MASTER_KEY = os.environ.get("FOLIO_TEST_KEY", "")
FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "files")
SAMPLE_MD = os.path.join(FILES, "sample.md")
SAMPLE_PDF = os.path.join(FILES, "sample.pdf")


def setUpModule():
    if not URL or not MASTER_KEY:
        raise unittest.SkipTest("FOLIO_TEST_URL and FOLIO_TEST_KEY are not set: no Folio server to test against")


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:10])


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


class FolioTestCase(unittest.TestCase):
    def setUp(self):
        self.folio = FolioClient(URL, MASTER_KEY)

    def new_collection(self, prefix="py"):
        name = unique(prefix)
        self.folio.create_collection(name)
        self.addCleanup(self._drop_collection, name)
        return name

    def _drop_collection(self, name):
        try:
            self.folio.delete_collection(name)
        except FolioError as error:
            if error.code != "collection_not_found":
                raise

    def assertFolioError(self, call, status, code):
        with self.assertRaises(FolioError) as caught:
            call()
        error = caught.exception
        self.assertEqual((error.status, error.code), (status, code), str(error))
        self.assertIsInstance(error.detail, str)
        self.assertTrue(error.detail)
        return error


class HealthTests(FolioTestCase):
    def test_health_and_openapi_need_no_key(self):
        anonymous = FolioClient(URL)
        self.assertEqual(anonymous.health()["status"], "ok")
        spec = anonymous.openapi()
        self.assertTrue(spec["openapi"].startswith("3.1"))
        self.assertIn("/v1/collections/{name}/search", spec["paths"])

    def test_missing_key_is_401(self):
        self.assertFolioError(FolioClient(URL).list_collections, 401, "unauthorized")

    def test_network_failure_is_status_0(self):
        client = FolioClient("http://127.0.0.1:1", MASTER_KEY, timeout=5)
        error = self.assertFolioError(client.health, 0, "network_error")
        self.assertEqual(error.errors, [])

    def test_bad_url_is_refused(self):
        with self.assertRaises(ValueError):
            FolioClient("127.0.0.1:7700")


class CollectionTests(FolioTestCase):
    def test_create_list_get_delete(self):
        name = unique("py-coll")
        created = self.folio.create_collection(name, language="french")
        self.assertEqual((created["name"], created["language"], created["documents"]), (name, "french", 0))
        self.assertIn(name, [c["name"] for c in self.folio.list_collections()])
        self.assertEqual(self.folio.get_collection(name)["language"], "french")
        self.assertTrue(created["settings"]["typo_tolerance"]["enabled"])
        updated = self.folio.update_collection(name, typo_tolerance={"enabled": False, "min_word_size": {"one_typo": 4}})
        self.assertEqual(updated["settings"]["typo_tolerance"]["enabled"], False)
        self.assertEqual(updated["settings"]["typo_tolerance"]["min_word_size"], {"one_typo": 4, "two_typos": 9})
        self.assertEqual(self.folio.get_collection(name)["settings"], updated["settings"])
        self.assertFolioError(lambda: self.folio.update_collection(name, typo_tolerance={"min_word_size": {"two_typos": 3}}),
                              400, "validation_failed")
        synonyms = [{"words": ["kettle", "teapot"]}, {"input": ["nyc"], "words": ["new york"]}]
        self.assertEqual(self.folio.update_collection(name, synonyms=synonyms)["settings"]["synonyms"], synonyms)
        self.assertFolioError(lambda: self.folio.update_collection(name, synonyms=[{"words": ["alone"]}]), 400, "validation_failed")
        ranking = {"boost": [{"field": "metadata.sales", "modifier": "log1p"}]}
        self.assertEqual(self.folio.update_collection(name, ranking=ranking)["settings"]["ranking"], ranking)
        fields = [{"field": "text", "weight": 2}]
        self.assertEqual(self.folio.update_collection(name, searchable_fields=fields)["settings"]["searchable_fields"], fields)
        error = self.assertFolioError(lambda: self.folio.create_collection(name), 409, "collection_exists")
        self.assertEqual(error.title, "Conflict")
        self.assertIsNone(self.folio.delete_collection(name))
        self.assertNotIn(name, [c["name"] for c in self.folio.list_collections()])

    def test_errors_on_404_and_400(self):
        error = self.assertFolioError(lambda: self.folio.get_collection("py-no-such"), 404, "collection_not_found")
        self.assertIn("py-no-such", error.detail)
        self.assertEqual(error.errors, [])
        error = self.assertFolioError(lambda: self.folio.create_collection("Bad Name!"), 400, "validation_failed")
        self.assertTrue(error.errors)
        self.assertTrue(all("path" in e and "message" in e for e in error.errors))
        self.assertTrue(error.errors[0]["path"].startswith("/body"))


class DocumentTests(FolioTestCase):
    def setUp(self):
        super().setUp()
        self.coll = self.new_collection()

    def test_upsert_get_patch_delete(self):
        summary = self.folio.upsert(self.coll, "bread-1", title="Sourdough bread", text="Feed the starter twice a day.",
                                    metadata={"tags": ["baking", "bread"], "minutes": 1440, "shelf": "a1"})
        self.assertEqual((summary["id"], summary["format"]), ("bread-1", "text"))
        stored = self.folio.get_document(self.coll, "bread-1")
        self.assertEqual(stored["text"], "Feed the starter twice a day.")

        # Metadata only: the title stays.
        patched = self.folio.patch_document(self.coll, "bread-1", metadata={"minutes": None, "rating": 5})
        self.assertEqual(patched["title"], "Sourdough bread")
        self.assertEqual(patched["metadata"], {"tags": ["baking", "bread"], "shelf": "a1", "rating": 5})
        # Title given as None: cleared. Text always kept.
        patched = self.folio.patch_document(self.coll, "bread-1", title=None, refresh=True)
        self.assertIsNone(patched["title"])
        self.assertEqual(self.folio.get_document(self.coll, "bread-1")["text"], "Feed the starter twice a day.")
        patched = self.folio.patch_document(self.coll, "bread-1", title="Bread")
        self.assertEqual(patched["title"], "Bread")

        self.assertEqual(self.folio.search(self.coll, "starter")["total"], 1)
        self.assertIsNone(self.folio.delete_document(self.coll, "bread-1", refresh=True))
        self.assertEqual(self.folio.search(self.coll, "starter")["total"], 0)
        error = self.assertFolioError(lambda: self.folio.get_document(self.coll, "bread-1"), 404, "document_not_found")
        self.assertEqual(error.errors, [])
        self.assertFolioError(lambda: self.folio.delete_document(self.coll, "bread-1"), 404, "document_not_found")

    def test_upsert_replaces_and_ids_are_escaped(self):
        self.folio.upsert(self.coll, "a:b.c-d_e", title="T", text="x", metadata={"k": 1})
        summary = self.folio.upsert(self.coll, "a:b.c-d_e", text="only text")
        self.assertEqual((summary["title"], summary["metadata"]), (None, {}))
        self.assertEqual(self.folio.get_document(self.coll, "a:b.c-d_e")["text"], "only text")
        # A slash or a space cannot smuggle another path: the server refuses the id itself.
        self.assertFolioError(lambda: self.folio.upsert(self.coll, "../x y", text="x"), 400, "validation_failed")

    def test_upsert_takes_the_document_as_one_dict(self):
        summary = self.folio.upsert(self.coll, "spec-form", {"title": "T", "text": "one dict", "metadata": {"k": 1}})
        self.assertEqual((summary["title"], summary["metadata"]), ("T", {"k": 1}))
        self.assertEqual(self.folio.get_document(self.coll, "spec-form")["text"], "one dict")
        with self.assertRaises(TypeError):
            self.folio.upsert(self.coll, "spec-form", {"titel": "typo"})
        with self.assertRaises(TypeError):
            self.folio.upsert(self.coll, "spec-form", {"text": "x"}, text="y")

    def test_list_documents_pages_in_id_order(self):
        self.folio.upsert_many(self.coll, [{"id": "d%d" % i, "text": "listed %d" % i, "metadata": {"odd": i % 2 == 1}}
                                           for i in range(5)])
        first = self.folio.list_documents(self.coll, limit=2)
        self.assertEqual([d["id"] for d in first["documents"]], ["d0", "d1"])
        self.assertNotIn("text", first["documents"][0])
        second = self.folio.list_documents(self.coll, limit=2, cursor=first["next_cursor"], fields=["text"])
        self.assertEqual(second["documents"], [{"id": "d2", "text": "listed 2"}, {"id": "d3", "text": "listed 3"}])
        self.assertEqual([d["id"] for d in self.folio.all_documents(self.coll, page_size=1, filter={"odd": True})], ["d1", "d3"])
        self.assertFolioError(lambda: self.folio.list_documents(self.coll, cursor="???"), 400, "validation_failed")

    def test_validation_error_lists_fields(self):
        error = self.assertFolioError(
            lambda: self.folio.upsert(self.coll, "d1", text="x", metadata={"nested": {"no": 1}}), 400, "validation_failed"
        )
        self.assertEqual(error.title, "Bad Request")
        self.assertTrue(any(e["path"].startswith("/body/metadata") for e in error.errors), error.errors)

    def test_upsert_many_delete_by_filter_refresh(self):
        docs = [{"id": "d%d" % i, "text": "doc number %d" % i, "metadata": {"status": "draft" if i % 2 else "live"}}
                for i in range(6)]
        result = self.folio.upsert_many(self.coll, iter(docs))
        self.assertEqual(result, {"indexed": 6, "ids": ["d%d" % i for i in range(6)]})
        self.assertEqual(self.folio.refresh(self.coll), {"refreshed": True})
        self.assertEqual(self.folio.search(self.coll, "doc")["total"], 6)
        self.assertEqual(self.folio.delete_by_filter(self.coll, {"status": "draft"}, refresh=True), {"deleted": 3})
        self.assertEqual(self.folio.search(self.coll, "doc")["total"], 3)
        self.assertEqual(self.folio.delete_by_filter(self.coll, {"status": "gone"}), {"deleted": 0})
        self.assertFolioError(lambda: self.folio.delete_by_filter(self.coll, {"$and": []}), 400, "invalid_filter")
        self.assertEqual(self.folio.get_collection(self.coll)["documents"], 3)


class FileTests(FolioTestCase):
    def setUp(self):
        super().setUp()
        self.coll = self.new_collection()

    def test_stats(self):
        stats = self.folio.stats()
        self.assertIn(self.coll, [c["name"] for c in stats["collections"]])
        self.assertGreaterEqual(stats["uptime_s"], 0)

    def test_formats(self):
        formats = self.folio.formats()
        self.assertGreaterEqual(len(formats), 99)
        extensions = {f["extension"] for f in formats}
        self.assertTrue({"pdf", "md", "docx"} <= extensions)
        self.assertTrue(all({"extension", "mime", "kind"} <= set(f) for f in formats))

    def test_upload_from_path_and_download(self):
        summary = self.folio.upload(self.coll, SAMPLE_PDF, id="report", title="The report",
                                    metadata={"shelf": "b2", "year": 2024}, refresh=True)
        self.assertEqual((summary["id"], summary["format"], summary["title"]), ("report", "pdf", "The report"))
        # The caller's metadata and the file's facts.
        self.assertEqual(summary["metadata"], {"shelf": "b2", "year": 2024, "format": "pdf", "extension": "pdf",
                                               "size": os.path.getsize(SAMPLE_PDF)})
        self.assertEqual(summary["bytes"], os.path.getsize(SAMPLE_PDF))
        content, content_type, file_name = self.folio.download_file(self.coll, "report")
        self.assertEqual(content, read(SAMPLE_PDF))
        self.assertEqual(content_type, "application/pdf")
        self.assertEqual(file_name, "sample.pdf")
        picture, picture_type = self.folio.page_image(self.coll, "report", 1, width=100, format="png")
        self.assertEqual((picture[:4], picture_type), (b"\x89PNG", "image/png"))
        self.assertFolioError(lambda: self.folio.page_image(self.coll, "report", 99), 404, "not_found")
        hits = self.folio.search(self.coll, "", filter={"shelf": "b2"})["hits"]
        self.assertEqual([h["id"] for h in hits], ["report"])

        # Markdown from a path; without an id the id is the SHA-256 of the bytes.
        summary = self.folio.upload(self.coll, SAMPLE_MD)
        self.assertEqual(summary["format"], "md")
        self.assertRegex(summary["id"], r"^[0-9a-f]{64}$")
        self.assertEqual(self.folio.download_file(self.coll, summary["id"])[0], read(SAMPLE_MD))

    def test_upload_bytes_and_file_objects(self):
        text = "Plain notes about a copper kettle.\n".encode("utf-8")
        summary = self.folio.upload(self.coll, text, id="notes", file_name="Résumé \"final\".txt", refresh=True)
        self.assertEqual((summary["id"], summary["format"]), ("notes", "txt"))
        content, content_type, file_name = self.folio.download_file(self.coll, "notes")
        self.assertEqual(content, text)
        self.assertTrue(content_type.startswith("text/plain"), content_type)
        self.assertEqual(file_name, 'Résumé "final".txt')
        self.assertEqual([h["id"] for h in self.folio.search(self.coll, "kettle")["hits"]], ["notes"])

        # OCR languages travel as the form part the server reads: English is there, Klingon is not.
        self.assertEqual(self.folio.upload(self.coll, text, id="eng", file_name="eng.txt", ocr_languages=["eng"])["id"], "eng")
        with self.assertRaises(FolioError) as raised:
            self.folio.upload(self.coll, text, file_name="tlh.txt", ocr_languages=["tlh", "eng"])
        self.assertEqual(raised.exception.status, 400)
        self.assertIn("folio ocr add tlh", str(raised.exception))
        self.assertIn("eng", self.folio.ocr_languages())

        # A PDF as bytes with no name at all: the type comes from its first bytes.
        summary = self.folio.upload(self.coll, read(SAMPLE_PDF), id="nameless")
        self.assertEqual(summary["format"], "pdf")

        # An open file: streamed from where it stands, named after the file.
        with open(SAMPLE_PDF, "rb") as handle:
            summary = self.folio.upload(self.coll, handle, id="from-handle")
        self.assertEqual(summary["format"], "pdf")
        self.assertEqual(self.folio.download_file(self.coll, "from-handle")[2], "sample.pdf")

        # An in-memory file object with a given name.
        summary = self.folio.upload(self.coll, io.BytesIO(read(SAMPLE_MD)), id="from-bytesio", file_name="guide.md")
        self.assertEqual(summary["format"], "md")
        self.assertEqual(self.folio.download_file(self.coll, "from-bytesio")[0], read(SAMPLE_MD))

    def test_upload_errors(self):
        error = self.assertFolioError(
            lambda: self.folio.upload(self.coll, b"\x00\x01\x02\x03binary", file_name="blob.nosuchtype"),
            415, "unsupported_file_type")
        self.assertEqual(error.errors, [])
        self.assertFolioError(lambda: self.folio.upload(self.coll, b"%PDF-1.7 broken", file_name="bad.pdf"),
                              422, "extraction_failed")
        self.assertFolioError(lambda: self.folio.upload("py-no-such", b"x", file_name="a.txt"),
                              404, "collection_not_found")
        self.assertFolioError(lambda: self.folio.upload(self.coll, b"x", file_name="a.txt", metadata={"a": {"b": 1}}),
                              400, "validation_failed")
        self.folio.upsert(self.coll, "json-doc", text="no file")
        self.assertFolioError(lambda: self.folio.download_file(self.coll, "json-doc"), 404, "not_found")
        self.assertFolioError(lambda: self.folio.download_file(self.coll, "absent"), 404, "document_not_found")
        with self.assertRaises(TypeError):
            self.folio.upload(self.coll, 12345)


class SearchTests(FolioTestCase):
    @classmethod
    def setUpClass(cls):
        cls.admin = FolioClient(URL, MASTER_KEY)
        cls.coll = unique("py-search")
        cls.admin.create_collection(cls.coll)
        docs = [{"id": "doc-%02d" % i, "title": "Item %d" % i, "text": "common words and number %d" % i,
                 "metadata": {"n": i, "kind": "even" if i % 2 == 0 else "odd", "tags": ["all", "t%d" % (i % 3)]}}
                for i in range(25)]
        cls.admin.upsert_many(cls.coll, docs, refresh=True)

    @classmethod
    def tearDownClass(cls):
        cls.admin.delete_collection(cls.coll)

    def test_filter_facets_sort(self):
        result = self.folio.search(self.coll, "common", filter={"kind": "even", "n": {"gte": 4}},
                                   facets=["kind", "tags", "n"], sort="n:desc", limit=3)
        self.assertEqual([h["id"] for h in result["hits"]], ["doc-24", "doc-22", "doc-20"])
        self.assertEqual((result["total"], result["limit"], result["has_more"]), (11, 3, True))
        self.assertEqual(result["facets"]["kind"], {"even": 11})
        self.assertEqual(result["facets"]["tags"]["all"], 11)
        self.assertEqual(result["facet_stats"]["n"], {"min": 4, "max": 24})
        hit = result["hits"][0]
        self.assertIn("<mark>common</mark>", hit["highlight"])
        self.assertEqual(hit["metadata"]["n"], 24)

    def test_other_parameters(self):
        result = self.folio.search(self.coll, "number 7", match="all", highlight_tag="em", explain=True,
                                   facets="tags", facet_limit=2, sort=["_score:desc", "n:asc"], offset=0, limit=5)
        self.assertEqual([h["id"] for h in result["hits"]], ["doc-07"])
        self.assertIn("<em>7</em>", result["hits"][0]["highlight"])
        self.assertIn("explain", result["hits"][0])
        self.assertEqual(len(result["facets"]["tags"]), 2)
        page = self.folio.search(self.coll, offset=20, limit=10, sort=("_id",))
        self.assertEqual([h["id"] for h in page["hits"]], ["doc-%02d" % i for i in range(20, 25)])
        self.assertFalse(page["has_more"])

    def test_multi_search(self):
        results = self.folio.multi_search([{"collection": self.coll, "q": "number 7"},
                                           {"collection": self.coll, "q": "common", "limit": 2}])["results"]
        self.assertEqual([r["collection"] for r in results], [self.coll, self.coll])
        self.assertEqual(results[0]["hits"][0]["id"], "doc-07")
        self.assertEqual(len(results[1]["hits"]), 2)
        merged = self.folio.multi_search([{"collection": self.coll, "q": "number 7"}], federation={"limit": 3})
        self.assertEqual(merged["hits"][0]["collection"], self.coll)
        self.assertEqual(merged["hits"][0]["query"], 0)
        self.assertEqual(merged["limit"], 3)
        self.assertFolioError(lambda: self.folio.multi_search([{"collection": self.coll, "limit": 2}], federation={}),
                              400, "validation_failed")

    def test_facet_search(self):
        found = self.folio.facet_search(self.coll, "kind", "ev")
        self.assertEqual(found["values"], [{"value": "even", "count": 13}])
        self.assertEqual(self.folio.facet_search(self.coll, "tags", "t", filter={"n": {"lt": 3}}, limit=2)["values"],
                         [{"value": "t0", "count": 1}, {"value": "t1", "count": 1}])
        self.assertEqual(self.folio.facet_search(self.coll, "kind", "od", query="number 7", match="all")["values"], [{"value": "odd", "count": 1}])
        self.assertFolioError(lambda: self.folio.facet_search(self.coll, "$bad"), 400, "validation_failed")

    def test_typos_and_suggestions(self):
        self.assertEqual(self.folio.search(self.coll, "comn")["total"], 0)  # 4 letters: no typos
        self.assertEqual(self.folio.search(self.coll, "commonn")["total"], 25)  # one typo from 5 letters
        strict = self.folio.search(self.coll, "commonn", typos=0)
        self.assertEqual(strict["total"], 0)
        self.assertEqual(strict["suggestions"], [{"text": "common"}])
        self.assertEqual(len(list(self.folio.search_all(self.coll, "commonn", typos=1, page_size=50))), 25)

    def test_prefix_last(self):
        self.assertEqual(self.folio.search(self.coll, "comm")["total"], 0)
        self.assertEqual(self.folio.search(self.coll, "comm", prefix="last")["total"], 25)
        self.assertEqual(self.folio.search(self.coll, "comm ", prefix="last")["total"], 0)

    def test_searchable_metadata_field(self):
        name = unique("py-authors")
        self.admin.create_collection(name)
        try:
            self.admin.upsert_many(name, [{"id": "taocp", "text": "sorting", "metadata": {"author": "Donald Knuth"}},
                                          {"id": "bio", "text": "Knuth wrote TeX", "metadata": {"author": "Someone"}}], refresh=True)
            fields = [{"field": "title", "weight": 3}, {"field": "text", "weight": 1}, {"field": "metadata.author", "weight": 2}]
            record = self.admin.update_collection(name, searchable_fields=fields)
            self.assertEqual(record["settings"]["searchable_fields"], fields)
            for _ in range(200):
                if record["reindexing"] is None:
                    break
                time.sleep(0.05)
                record = self.admin.get_collection(name)
            self.assertIsNone(record["reindexing"])
            only_author = self.admin.search(name, "knuth", search_fields=["metadata.author"])
            self.assertEqual([h["id"] for h in only_author["hits"]], ["taocp"])
            self.assertEqual(only_author["hits"][0]["metadata_highlights"], {"author": "Donald <mark>Knuth</mark>"})
            self.assertEqual([h["id"] for h in self.admin.search(name, "author:knuth")["hits"]], ["taocp"])
            self.assertFolioError(lambda: self.admin.search(name, "x", search_fields=["metadata.nope"]), 400, "validation_failed")
        finally:
            self.admin.delete_collection(name)

    def test_fields_and_track_total(self):
        full = self.folio.search(self.coll, "common", limit=3)
        ids = self.folio.search(self.coll, "common", limit=3, fields=["id"])
        self.assertEqual(ids["hits"], [{"id": h["id"], "score": h["score"]} for h in full["hits"]])
        self.assertEqual(sorted(self.folio.search(self.coll, "common", limit=1, fields="id,title")["hits"][0]), ["id", "score", "title"])
        exact = self.folio.search(self.coll, "common", track_total=True)
        self.assertEqual((exact["total"], exact["total_relation"]), (25, "eq"))
        self.assertEqual(len(list(self.folio.search_all(self.coll, "common", fields=["id"]))), 25)

    def test_semantic_and_hybrid(self):
        name = unique("py-meaning")
        created = self.folio.create_collection(name, embedders={"use": {"source": "builtin"}})
        self.addCleanup(self._drop_collection, name)
        self.assertEqual(created["settings"]["embedders"]["use"]["dimensions"], 512)
        self.folio.upsert_many(name, [{"id": "cat", "text": "The cat sat on the mat."},
                                      {"id": "stocks", "text": "Stock markets fell sharply on Monday."}], refresh=True)
        deadline = time.time() + 60
        while self.folio.get_collection(name)["embedding"]["use"]["embedded"] < 2:
            self.assertLess(time.time(), deadline, "documents embedded within a minute")
            time.sleep(0.05)
        semantic = self.folio.search(name, "feline resting on a rug", mode="semantic")
        self.assertEqual(semantic["hits"][0]["id"], "cat")
        self.assertEqual(semantic["semantic_coverage"], 1)
        hybrid = self.folio.search(name, "markets", mode="hybrid", semantic_ratio=0.5, fusion="rrf")
        self.assertEqual(hybrid["hits"][0]["id"], "stocks")
        own = self.folio.search(name, mode="semantic", vector=[1.0] + [0.0] * 511, limit=1)
        self.assertEqual(len(own["hits"]), 1)
        self.assertFolioError(lambda: self.folio.search(name, mode="semantic", vector=[1.0, 2.0]), 400, "invalid_vector")
        removed = self.folio.update_collection(name, embedders={"use": None})
        self.assertEqual(removed["settings"]["embedders"], {})

    def test_search_all_pages(self):
        calls = []
        original = self.folio.search

        def counting_search(*args, **kwargs):
            calls.append(kwargs.get("offset"))
            return original(*args, **kwargs)

        self.folio.search = counting_search
        hits = list(self.folio.search_all(self.coll, "", filter={"tags": "all"}, sort="n:asc", page_size=7))
        self.assertEqual([h["id"] for h in hits], ["doc-%02d" % i for i in range(25)])
        self.assertEqual(calls, [0, 7, 14, 21])
        self.assertEqual(list(self.folio.search_all(self.coll, "zzzznothing")), [])

    def test_bad_filter_and_sort(self):
        error = self.assertFolioError(lambda: self.folio.search(self.coll, filter={"$and": []}), 400, "invalid_filter")
        self.assertIn("$and", error.detail)
        error = self.assertFolioError(lambda: self.folio.search(self.coll, sort="n:up"), 400, "invalid_sort")
        self.assertIn("n:up", error.detail)
        error = self.assertFolioError(lambda: self.folio.search(self.coll, limit=1000), 400, "validation_failed")
        self.assertTrue(error.errors)
        self.assertFolioError(lambda: self.folio.search("py-no-such"), 404, "collection_not_found")


class KeyTests(FolioTestCase):
    def test_create_list_use_delete(self):
        coll = self.new_collection()
        expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
        created = self.folio.create_key(name="py-ci", scopes=["search"], collections=[coll],
                                        rate_limit={"per_second": 50, "burst": 100}, expires_at=expires)
        self.assertRegex(created["key"], r"^folio_[A-Za-z0-9]{40}$")
        self.assertRegex(created["id"], r"^key_")
        self.assertEqual(created["prefix"], created["key"][:10])
        self.assertEqual((created["scopes"], created["collections"]), (["search"], [coll]))
        self.assertEqual(created["rate_limit"], {"per_second": 50, "burst": 100})
        self.assertTrue(created["expires_at"].startswith(expires.strftime("%Y-%m-%dT%H:%M")))
        listed = {k["id"]: k for k in self.folio.list_keys()}
        self.assertIn(created["id"], listed)
        self.assertNotIn("key", listed[created["id"]])

        limited = FolioClient(URL, created["key"])
        self.assertEqual([c["name"] for c in limited.list_collections()], [coll])
        self.assertEqual(limited.search(coll)["total"], 0)
        self.assertFolioError(lambda: limited.upsert(coll, "x", text="x"), 403, "forbidden")
        self.assertFolioError(lambda: limited.create_key(scopes=["admin"]), 403, "forbidden")

        self.assertIsNone(self.folio.delete_key(created["id"]))
        self.assertNotIn(created["id"], [k["id"] for k in self.folio.list_keys()])
        self.assertFolioError(limited.list_collections, 401, "unauthorized")
        self.assertFolioError(lambda: self.folio.delete_key(created["id"]), 404, "key_not_found")

    def test_key_with_filter(self):
        coll = self.new_collection()
        self.folio.upsert_many(coll, [{"id": "mine", "text": "shared words", "metadata": {"tenant": "acme"}},
                                      {"id": "theirs", "text": "shared words", "metadata": {"tenant": "globex"}}],
                               refresh=True)
        created = self.folio.create_key(name="py-acme", collections=[coll], filter={"tenant": "acme"})
        self.addCleanup(self.folio.delete_key, created["id"])
        self.assertEqual((created["scopes"], created["filter"]), (["search"], {"tenant": "acme"}))
        acme = FolioClient(URL, created["key"])
        self.assertEqual([hit["id"] for hit in acme.search(coll, "shared")["hits"]], ["mine"])
        self.assertFolioError(lambda: acme.get_document(coll, "theirs"), 404, "document_not_found")

    def test_default_key(self):
        created = self.folio.create_key()
        self.addCleanup(self.folio.delete_key, created["id"])
        self.assertEqual((created["scopes"], created["collections"], created["expires_at"]),
                         (["search", "write"], None, None))


class SessionTests(FolioTestCase):
    def test_create_use_delete(self):
        session = FolioClient(URL).create_session(MASTER_KEY)
        self.assertTrue(session["token"].startswith("folio_sess_"))
        self.assertIn("expires_at", session)
        client = FolioClient(URL, session["token"])
        self.assertIsInstance(client.list_collections(), list)
        self.assertIsNone(client.delete_session())
        self.assertFolioError(client.list_collections, 401, "unauthorized")

        # Logging out another client's session by its token.
        other = self.folio.create_session(MASTER_KEY)["token"]
        FolioClient(URL).delete_session(other)
        self.assertFolioError(FolioClient(URL, other).list_keys, 401, "unauthorized")

    def test_wrong_master_key(self):
        self.assertFolioError(lambda: FolioClient(URL).create_session("folio_wrong_master_key_0000"), 401, "unauthorized")


class WebhookTests(FolioTestCase):
    def test_crud(self):
        created = self.folio.create_webhook("https://example.com/hook", ["key.deleted"], description="py test")
        self.assertRegex(created["id"], r"^wh_")
        self.assertTrue(created["secret"].startswith("whsec_"))
        self.assertEqual((created["url"], created["events"], created["description"], created["disabled"]),
                         ("https://example.com/hook", ["key.deleted"], "py test", False))
        fetched = self.folio.get_webhook(created["id"])
        self.assertEqual(fetched["url"], "https://example.com/hook")
        self.assertNotIn("secret", fetched)
        self.assertIn(created["id"], [w["id"] for w in self.folio.list_webhooks()])
        self.assertEqual(self.folio.list_deliveries(created["id"]), [])
        self.assertIsNone(self.folio.delete_webhook(created["id"]))
        self.assertNotIn(created["id"], [w["id"] for w in self.folio.list_webhooks()])
        self.assertFolioError(lambda: self.folio.get_webhook(created["id"]), 404, "webhook_not_found")
        self.assertFolioError(lambda: self.folio.list_deliveries(created["id"]), 404, "webhook_not_found")

    def test_invalid_webhook(self):
        error = self.assertFolioError(lambda: self.folio.create_webhook("https://example.com/hook", ["nope.never"]),
                                      400, "validation_failed")
        self.assertIn("document.indexed", error.detail)
        self.assertFolioError(lambda: self.folio.create_webhook("ftp://example.com/", ["*"]), 400, "validation_failed")


class RecordingClient(FolioClient):
    """Records the waits instead of only sleeping them."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.waits = []

    def _sleep(self, seconds):
        self.waits.append(seconds)
        super()._sleep(seconds)


class RateLimitTests(FolioTestCase):
    def test_429_is_retried_after_retry_after(self):
        created = self.folio.create_key(name="py-slow", rate_limit={"per_second": 1, "burst": 1})
        self.addCleanup(self.folio.delete_key, created["id"])
        slow = RecordingClient(URL, created["key"], max_retries=3)
        slow.list_collections()
        started = time.monotonic()
        self.assertIsInstance(slow.list_collections(), list)  # refused once, then retried
        self.assertGreaterEqual(len(slow.waits), 1)
        self.assertTrue(all(wait >= 1 for wait in slow.waits), slow.waits)
        self.assertGreaterEqual(time.monotonic() - started, 0.9)

        # No retries: the 429 is raised at once, with its Retry-After.
        hasty = RecordingClient(URL, created["key"], max_retries=0)
        with self.assertRaises(FolioError) as caught:
            for _ in range(3):
                hasty.list_collections()
        error = caught.exception
        self.assertEqual((error.status, error.code), (429, "rate_limited"))
        self.assertGreaterEqual(error.retry_after, 1)
        self.assertEqual(hasty.waits, [])

        # Retries allowed, but not the wait: raised without waiting.
        impatient = RecordingClient(URL, created["key"], max_retries=5, max_retry_wait=0.5)
        with self.assertRaises(FolioError) as caught:
            for _ in range(3):
                impatient.list_collections()
        self.assertEqual(caught.exception.code, "rate_limited")
        self.assertEqual(impatient.waits, [])

    def test_upload_is_retried_too(self):
        coll = self.new_collection()
        created = self.folio.create_key(name="py-slow-upload", collections=[coll],
                                        rate_limit={"per_second": 1, "burst": 1})
        self.addCleanup(self.folio.delete_key, created["id"])
        slow = RecordingClient(URL, created["key"], max_retries=3)
        first = slow.upload(coll, SAMPLE_MD, id="one")
        with open(SAMPLE_MD, "rb") as handle:
            second = slow.upload(coll, handle, id="two")  # the file is sent again from its start
        self.assertGreaterEqual(len(slow.waits), 1)
        self.assertEqual(first["bytes"], second["bytes"])
        self.assertEqual(self.folio.download_file(coll, "two")[0], read(SAMPLE_MD))

        # A refusal that comes while a large body is still being sent is read, not lost in a
        # broken pipe (the connection is not marked "close", so the server drains the body).
        with tempfile.NamedTemporaryFile(suffix=".txt") as big:
            big.write(b"lorem ipsum dolor sit amet\n" * (16 * 1024 * 1024 // 27))
            big.flush()
            hasty = RecordingClient(URL, created["key"], max_retries=0)
            with self.assertRaises(FolioError) as caught:
                for _ in range(3):
                    hasty.upload(coll, big.name, id="big")
            self.assertEqual((caught.exception.status, caught.exception.code), (429, "rate_limited"))


class _Redirector(http.server.BaseHTTPRequestHandler):
    """Answers every request with a redirect to `target`, and records what it received."""

    target = ""
    seen = []

    def _redirect(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.seen.append((self.command, self.path, self.headers.get("Authorization")))
        location = self.target if self.path == "/v1/health" else "/second"
        if self.path == "/second":
            location = self.target
        self.send_response(302 if self.command == "POST" else 307)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_PUT = do_DELETE = _redirect

    def log_message(self, *args):
        pass


class RedirectTests(FolioTestCase):
    def setUp(self):
        super().setUp()
        _Redirector.target = URL + "/v1/health"
        _Redirector.seen = []
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Redirector)
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)
        self.redirected = FolioClient("http://127.0.0.1:%d" % self.server.server_address[1], MASTER_KEY)

    def test_get_follows_without_the_key(self):
        self.assertEqual(self.redirected.health()["status"], "ok")
        self.redirected.api_key = "folio_secret_key_value"
        # /v1/collections/x → /second → the real /v1/health: the key goes to the first only.
        self.assertEqual(self.redirected.get_collection("x")["status"], "ok")
        self.assertEqual(_Redirector.seen[-2:], [("GET", "/v1/collections/x", "Bearer folio_secret_key_value"),
                                                 ("GET", "/second", None)])

    def test_other_methods_do_not_follow(self):
        error = self.assertFolioError(lambda: self.redirected.create_collection("x"), 302, "redirect_not_followed")
        self.assertIn("/second", error.detail)
        self.assertFolioError(lambda: self.redirected.delete_key("key_x"), 307, "redirect_not_followed")
        self.assertEqual([s[0] for s in _Redirector.seen], ["POST", "DELETE"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
