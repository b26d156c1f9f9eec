"""Python client for the Folio HTTP API (standard library only, Python 3.9+).

It covers the whole API: collections, documents (upsert, batch, patch, delete, delete by
filter, refresh), file uploads and downloads, formats, search, API keys, sessions and
webhooks. Every failure raises :class:`FolioError`, carrying the server's stable ``code``
and the HTTP ``status`` (0 when the server could not be reached). A ``429 rate_limited``
answer is retried after its ``Retry-After``, a few times at most; a ``503 overloaded`` one (the
server is indexing a backlog; nothing was written) while the retry wait budget lasts.

Example::

    from folio_client import FolioClient, FolioError

    folio = FolioClient("http://127.0.0.1:7700", api_key="folio_...")
    folio.create_collection("recipes")
    folio.upsert("recipes", "bread-1", title="Sourdough bread",
                 text="Feed the starter twice a day.",
                 metadata={"tags": ["baking"], "minutes": 1440}, refresh=True)
    folio.upload("recipes", "notes.pdf", metadata={"shelf": "b2"}, refresh=True)
    result = folio.search("recipes", "starter", filter={"tags": "baking"},
                          facets=["tags"], sort="minutes:desc", limit=5)
    for hit in result["hits"]:
        print(hit["id"], hit["score"], hit["snippet"])
    try:
        folio.get_document("recipes", "missing")
    except FolioError as error:
        print(error.status, error.code, error.detail)   # 404 document_not_found ...
"""

import datetime
import email.utils
import http.client
import json
import mimetypes
import os
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

__all__ = ["FolioClient", "FolioError"]
__version__ = "0.1.0"

# Bytes read from a file at a time while an upload streams.
_CHUNK_SIZE = 64 * 1024


class _Unset:
    """Marks an argument that was not given (as opposed to one given as None)."""

    def __repr__(self):
        return "UNSET"


UNSET = _Unset()


class FolioError(Exception):
    """An error answer from the server, or a failure to reach it.

    Attributes:
        status: the HTTP status, or 0 when no answer arrived (``code`` is then
            ``'network_error'``).
        code: the stable error code to branch on, such as ``'collection_not_found'``,
            ``'validation_failed'`` or ``'rate_limited'``.
        detail: a human-readable explanation (may change between versions).
        errors: for validation errors, a list of ``{"path", "message"}`` dicts; else ``[]``.
        title: the HTTP status text from the problem document, if any.
        retry_after: for 429 answers, the seconds the server asked to wait, else None.
    """

    def __init__(self, status, code, detail, errors=None, title=None, retry_after=None):
        super().__init__("%s %s: %s" % (status, code, detail))
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = list(errors or [])
        self.title = title
        self.retry_after = retry_after


class _RefuseUnsafeRedirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects for GET and HEAD only; any other method gets the 3xx as an error.

    urllib on its own would turn a redirected POST into a GET without its body. The
    Authorization header is never carried to the new location (it is added as an
    unredirected header).
    """

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if req.get_method() not in ("GET", "HEAD"):
            return None
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _KeepAlive:
    """Leaves out the ``Connection: close`` header urllib adds to every request.

    Told to close, the server closes the connection as soon as it has answered, so an
    answer given before the whole body has arrived (a 429, or 413 for a file over the limit)
    would turn the rest of an upload into a broken pipe and the answer would be lost. Kept
    alive, the server reads and discards the rest of the body. urllib still closes the
    connection once the answer has been read.
    """

    def request(self, method, url, body=None, headers=None, **kwargs):
        headers = {name: value for name, value in (headers or {}).items() if name.lower() != "connection"}
        return super().request(method, url, body, headers, **kwargs)


class _KeepAliveHTTPConnection(_KeepAlive, http.client.HTTPConnection):
    pass


class _HTTPHandler(urllib.request.HTTPHandler):
    def do_open(self, http_class, req, **kwargs):
        return super().do_open(_KeepAliveHTTPConnection, req, **kwargs)


_HANDLERS = [_HTTPHandler]

if hasattr(http.client, "HTTPSConnection") and hasattr(urllib.request, "HTTPSHandler"):

    class _KeepAliveHTTPSConnection(_KeepAlive, http.client.HTTPSConnection):
        pass

    class _HTTPSHandler(urllib.request.HTTPSHandler):
        def do_open(self, http_class, req, **kwargs):
            return super().do_open(_KeepAliveHTTPSConnection, req, **kwargs)

    _HANDLERS.append(_HTTPSHandler)


def _given(**fields):
    """The fields that are not None, as (part of) a request body."""
    return {name: value for name, value in fields.items() if value is not None}


def _quote(segment):
    if not isinstance(segment, str) or segment == "":
        raise ValueError("a path segment must be a non-empty string, not %r" % (segment,))
    return urllib.parse.quote(segment, safe="")


def _rfc3339(value):
    """A datetime (naive means local time) or a string, as an RFC 3339 string."""
    if isinstance(value, datetime.datetime):
        text = value.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds")
        return text.replace("+00:00", "Z")
    return value


def _parse_retry_after(value):
    """Seconds to wait from a Retry-After header (seconds or an HTTP date); 1 when absent."""
    if value is None or value.strip() == "":
        return 1.0
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return 1.0
    if when is None:
        return 1.0
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return max(0.0, (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds())


def _content_disposition_name(value):
    """The file name of a Content-Disposition header (``filename*`` preferred), or None."""
    if not value:
        return None
    match = re.search(r"filename\*\s*=\s*([^;]+)", value, re.IGNORECASE)
    if match:
        encoded = match.group(1).strip().strip('"')
        charset, _, rest = encoded.partition("'")
        _, _, text = rest.partition("'")
        try:
            return urllib.parse.unquote(text, encoding=charset or "utf-8", errors="strict")
        except (LookupError, UnicodeDecodeError):
            pass
    match = re.search(r'filename\s*=\s*"((?:[^"\\]|\\.)*)"', value, re.IGNORECASE)
    if match:
        return re.sub(r"\\(.)", r"\1", match.group(1))
    match = re.search(r"filename\s*=\s*([^;\s]+)", value, re.IGNORECASE)
    return match.group(1) if match else None


def _form_quote(text):
    """A value for a quoted multipart header parameter: quotes and backslashes escaped
    (the server's parser reads them back exactly); line breaks cannot be sent."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", " ")


class _UploadBody:
    """A multipart/form-data body that can be sent more than once (for 429 retries).

    A file on disk, or a seekable file object, is streamed in chunks: only ``length`` is
    known up front, never the whole file in memory. A non-seekable file object is streamed
    with chunked transfer encoding and can be sent only once.
    """

    def __init__(self, fields, source, file_name):
        self.boundary = "folio-" + uuid.uuid4().hex
        self._path = None
        self._fileobj = None
        self._data = None
        self._start = 0
        self._sent = False
        size = None
        if isinstance(source, (bytes, bytearray, memoryview)):
            self._data = bytes(source)
            size = len(self._data)
        elif isinstance(source, (str, os.PathLike)):
            self._path = os.fspath(source)
            size = os.path.getsize(self._path)
            if file_name is None:
                file_name = os.path.basename(self._path)
        elif hasattr(source, "read"):
            self._fileobj = source
            if file_name is None:
                name = getattr(source, "name", None)
                if isinstance(name, str) and name and not name.startswith("<"):
                    file_name = os.path.basename(name)
            try:
                if source.seekable():
                    self._start = source.tell()
                    size = source.seek(0, os.SEEK_END) - self._start
                    source.seek(self._start)
            except (AttributeError, OSError, ValueError):
                size = None
        else:
            raise TypeError("upload needs a path, bytes or a binary file object, not %s" % type(source).__name__)

        parts = []
        for name, value in fields:
            parts.append(
                ("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n" % (self.boundary, name)).encode("utf-8")
                + value.encode("utf-8")
                + b"\r\n"
            )
        mime = (mimetypes.guess_type(file_name)[0] if file_name else None) or "application/octet-stream"
        parts.append(
            (
                "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\n"
                "Content-Type: %s\r\n\r\n" % (self.boundary, _form_quote(file_name or ""), mime)
            ).encode("utf-8")
        )
        self._head = b"".join(parts)
        self._tail = ("\r\n--%s--\r\n" % self.boundary).encode("ascii")
        self._size = size
        self.file_name = file_name
        self.content_type = "multipart/form-data; boundary=" + self.boundary

    @property
    def length(self):
        """The body's length in bytes, or None when it is unknown (chunked)."""
        if self._size is None:
            return None
        return len(self._head) + self._size + len(self._tail)

    @property
    def replayable(self):
        return self._size is not None

    def chunks(self):
        """A fresh iterator over the body's bytes."""
        if self._sent and not self.replayable:
            raise ValueError("a non-seekable file object can be sent only once")
        self._sent = True
        return self._generate()

    def _generate(self):
        yield self._head
        if self._data is not None:
            yield self._data
        elif self._path is not None:
            with open(self._path, "rb") as handle:
                yield from self._read_exactly(handle, self._size)
        elif self._size is not None:
            self._fileobj.seek(self._start)
            yield from self._read_exactly(self._fileobj, self._size)
        else:
            while True:
                chunk = self._fileobj.read(_CHUNK_SIZE)
                if not chunk:
                    break
                if not isinstance(chunk, (bytes, bytearray)):
                    raise TypeError("the file object must be opened in binary mode")
                yield bytes(chunk)
        yield self._tail

    @staticmethod
    def _read_exactly(handle, size):
        remaining = size
        while remaining > 0:
            chunk = handle.read(min(_CHUNK_SIZE, remaining))
            if not chunk:
                raise FolioError(0, "file_changed", "the file became shorter while it was being uploaded")
            if not isinstance(chunk, (bytes, bytearray)):
                raise TypeError("the file object must be opened in binary mode")
            remaining -= len(chunk)
            yield bytes(chunk)


class _Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body


class FolioClient:
    """A client for one Folio server.

    Args:
        url: the server's base URL, such as ``http://127.0.0.1:7700``.
        api_key: an API key, a session token or the master key (sent as a bearer token).
            Only ``health()``, ``openapi()`` and ``create_session()`` work without one.
        max_retries: how many times a ``429 rate_limited`` answer is retried (0: never).
        max_retry_wait: the most seconds spent waiting for retries in one call; a wait
            that would go past it is not made and the 429 is raised instead.
        timeout: seconds to wait for the server to connect or answer (per request).

    Methods return the server's JSON answer as dicts; ``list_*`` methods and ``formats``
    return the list inside it. Writes take ``refresh=True`` to return only once the
    change is searchable (``?refresh=wait_for``).
    """

    def __init__(self, url, api_key=None, max_retries=3, max_retry_wait=30.0, timeout=60.0):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError("url must be an absolute http(s) URL, not %r" % (url,))
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.max_retries = max(0, int(max_retries))
        self.max_retry_wait = max(0.0, float(max_retry_wait))
        self.timeout = timeout
        self._opener = urllib.request.build_opener(_RefuseUnsafeRedirects, *_HANDLERS)

    def __repr__(self):
        return "FolioClient(%r)" % (self.url,)

    # ----------------------------------------------------------------------------------
    # Transport

    def _sleep(self, seconds):
        time.sleep(seconds)

    def _request(self, method, path, query=None, json_body=UNSET, upload=None, token=UNSET, raw=False):
        """Sends one request, retrying 429 answers; returns the parsed JSON answer."""
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        headers = {"Accept": "application/json", "User-Agent": "folio-python/" + __version__}
        data = None
        if json_body is not UNSET:
            data = json.dumps(json_body, ensure_ascii=False, allow_nan=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        elif upload is not None:
            headers["Content-Type"] = upload.content_type
            if upload.length is not None:
                headers["Content-Length"] = str(upload.length)
        bearer = self.api_key if token is UNSET else token

        waited = 0.0
        retries = 0
        while True:
            body = upload.chunks() if upload is not None else data
            request = urllib.request.Request(url, data=body, headers=headers, method=method)
            if bearer:
                # Unredirected: never sent on to where a redirect points.
                request.add_unredirected_header("Authorization", "Bearer " + bearer)
            response = self._send(request)
            # 429: rate limited, a few times; 503 with Retry-After: the server is indexing a
            # backlog (nothing was written), retried while the wait budget lasts.
            overloaded = response.status == 503 and response.headers.get("Retry-After") is not None
            if response.status != 429 and not overloaded:
                break
            wait = _parse_retry_after(response.headers.get("Retry-After"))
            can_replay = upload is None or upload.replayable
            if (not overloaded and retries >= self.max_retries) or waited + wait > self.max_retry_wait or not can_replay:
                break
            self._sleep(wait)
            waited += wait
            retries += 1

        if response.status >= 300:
            raise self._error(method, response)
        if raw:
            return response
        if response.status == 204 or not response.body:
            return None
        try:
            return json.loads(response.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise FolioError(response.status, "invalid_response", "the server's answer is not valid JSON") from None

    def _send(self, request):
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                return _Response(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as error:
            try:
                body = error.read()
            except (OSError, http.client.HTTPException):
                body = b""
            finally:
                error.close()
            return _Response(error.code, error.headers, body)
        except urllib.error.URLError as error:
            raise FolioError(0, "network_error", "cannot reach %s: %s" % (self.url, error.reason)) from error
        except (OSError, socket.timeout, http.client.HTTPException) as error:
            raise FolioError(0, "network_error", "request to %s failed: %s" % (self.url, error or type(error).__name__)) from error

    @staticmethod
    def _error(method, response):
        status = response.status
        retry_after = None
        if status == 429:
            retry_after = _parse_retry_after(response.headers.get("Retry-After"))
        if 300 <= status < 400:
            location = response.headers.get("Location", "")
            return FolioError(status, "redirect_not_followed",
                              "the server redirected %s to %s; not followed for this method" % (method, location or "?"))
        problem = None
        try:
            problem = json.loads(response.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            pass
        if isinstance(problem, dict) and isinstance(problem.get("code"), str):
            errors = problem.get("errors")
            return FolioError(status, problem["code"], str(problem.get("detail") or problem.get("title") or ""),
                              errors if isinstance(errors, list) else [], problem.get("title"), retry_after)
        text = response.body.decode("utf-8", "replace").strip()[:500]
        return FolioError(status, "http_error", text or "HTTP %d" % status, retry_after=retry_after)

    @staticmethod
    def _write_query(refresh):
        return {"refresh": "wait_for"} if refresh else None

    # ----------------------------------------------------------------------------------
    # Health and OpenAPI (no credential needed)

    def health(self):
        """``GET /v1/health`` → ``{"status": "ok", "version"}``."""
        return self._request("GET", "/v1/health")

    def openapi(self):
        """``GET /v1/openapi.json`` → the OpenAPI 3.1 description as a dict."""
        return self._request("GET", "/v1/openapi.json")

    # ----------------------------------------------------------------------------------
    # Collections

    def create_collection(self, name, language=None, typo_tolerance=None, embedders=None, synonyms=None, ranking=None,
                          searchable_fields=None):
        """Creates a collection → its record (409 ``collection_exists`` if taken).

        ``typo_tolerance``: a dict with any of ``enabled``, ``min_word_size`` (``{"one_typo",
        "two_typos"}``), ``disable_on_numbers``, ``disable_on_fields``; the rest are defaults.
        ``embedders``: search by meaning, a dict of name → ``{"source": "builtin"}`` (the offline
        model) or ``{"source": "openai", "url", "model", "api_key"?, "dimensions"?}``, each with an
        optional ``document_template`` and ``default_semantic_ratio``.
        ``synonyms``: a list of ``{"words": [...]}`` (equivalent words or phrases) and
        ``{"input": [...], "words": [...]}`` (one-way) entries, applied at query time.
        ``ranking``: ``{"boost": [...]}``, the field boosts every search applies unless it gives
        its own (see :meth:`search`). ``searchable_fields``: ``[{"field": "title", "weight": 3},
        {"field": "text", "weight": 1}]`` (the default), the fields searched and their weights;
        ``{"field": "metadata.author", "weight": 2}`` makes a metadata field searchable too.
        """
        body = {"name": name, **_given(language=language, typo_tolerance=typo_tolerance, embedders=embedders,
                                       synonyms=synonyms, ranking=ranking, searchable_fields=searchable_fields)}
        return self._request("POST", "/v1/collections", json_body=body)

    def update_collection(self, name, typo_tolerance=None, embedders=None, synonyms=None, ranking=None,
                          searchable_fields=None):
        """Changes a collection's settings (``PATCH``) → its record, with ``settings``,
        ``embedding`` (per embedder: documents ``embedded``, ``pending``, ``failed``) and
        ``reindexing`` (``None``, or while metadata fields added to ``searchable_fields`` are
        indexed in the background: ``fields``, ``documents_done``, ``documents_total``).

        ``typo_tolerance`` is a dict like :meth:`create_collection`'s; what it leaves out is kept.
        ``embedders`` adds or replaces the embedders it names; ``None`` as a value removes one.
        ``synonyms`` replaces the whole list (``[]`` removes them all); so do ``ranking`` and
        ``searchable_fields``.
        """
        body = _given(typo_tolerance=typo_tolerance, embedders=embedders, synonyms=synonyms, ranking=ranking,
                      searchable_fields=searchable_fields)
        return self._request("PATCH", "/v1/collections/" + _quote(name), json_body=body)

    def list_collections(self):
        """→ the list of collection records the credential may see, sorted by name."""
        return self._request("GET", "/v1/collections")["collections"]

    def get_collection(self, name):
        return self._request("GET", "/v1/collections/" + _quote(name))

    def delete_collection(self, name):
        """Deletes a collection, its documents and its kept files."""
        self._request("DELETE", "/v1/collections/" + _quote(name))

    # ----------------------------------------------------------------------------------
    # Documents

    def _document_path(self, collection, id):
        return "/v1/collections/%s/documents/%s" % (_quote(collection), _quote(id))

    def upsert(self, collection, id, title=None, text=None, metadata=None, refresh=False):
        """Creates or entirely replaces one document → its summary.

        Either ``upsert(c, id, {"title": …, "text": …, "metadata": {…}})`` (README.md, "Use it from code") or
        the same as keywords. Fields left out become empty (title None, text "", metadata {}).
        """
        if isinstance(title, dict):
            if text is not None or metadata is not None:
                raise TypeError("upsert: give the document as one dict or as keywords, not both")
            unknown = sorted(set(title) - {"title", "text", "metadata", "vectors"})
            if unknown:
                raise TypeError("upsert: unknown document member(s) %s (title, text, metadata, vectors)" % ", ".join(unknown))
            return self._request("PUT", self._document_path(collection, id), self._write_query(refresh), json_body=dict(title))
        body = {}
        if title is not None:
            body["title"] = title
        if text is not None:
            body["text"] = text
        if metadata is not None:
            body["metadata"] = metadata
        return self._request("PUT", self._document_path(collection, id), self._write_query(refresh), json_body=body)

    def upsert_many(self, collection, docs, refresh=False):
        """Writes many documents (dicts with ``id`` and optional ``title``, ``text``,
        ``metadata``) in one all-or-nothing request → ``{"indexed", "ids"}``.
        At most 10,000 documents a call."""
        return self._request("POST", "/v1/collections/%s/documents" % _quote(collection),
                             self._write_query(refresh), json_body=list(docs))

    def get_document(self, collection, id):
        """→ the stored document (summary fields plus ``text`` and ``page_list``)."""
        return self._request("GET", self._document_path(collection, id))

    def list_documents(self, collection, limit=None, cursor=None, fields=None, filter=None):
        """One page of documents in id order → ``{"documents", "next_cursor"}``; pass
        ``next_cursor`` as ``cursor`` for the next page (None on the last). ``fields`` lists the
        members besides ``id`` (default: the summary); ``filter`` is a metadata filter dict."""
        query = {}
        if limit is not None:
            query["limit"] = str(limit)
        if cursor is not None:
            query["cursor"] = cursor
        if fields is not None:
            query["fields"] = ",".join(fields)
        if filter is not None:
            query["filter"] = json.dumps(filter)
        return self._request("GET", "/v1/collections/%s/documents" % _quote(collection), query)

    def all_documents(self, collection, page_size=100, fields=None, filter=None):
        """Yields every document (or every one ``filter`` matches) in id order, page by page."""
        cursor = None
        while True:
            page = self.list_documents(collection, limit=page_size, cursor=cursor, fields=fields, filter=filter)
            for document in page["documents"]:
                yield document
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def patch_document(self, collection, id, title=UNSET, metadata=None, refresh=False):
        """Changes a document in place → its summary.

        ``title``: left out, it is kept; ``None`` clears it. ``metadata`` is merged key by
        key (a ``None`` value removes that key). The text is always kept.
        """
        body = {}
        if title is not UNSET:
            body["title"] = title
        if metadata is not None:
            body["metadata"] = metadata
        return self._request("PATCH", self._document_path(collection, id), self._write_query(refresh), json_body=body)

    def delete_document(self, collection, id, refresh=False):
        """Deletes one document (404 ``document_not_found`` if absent)."""
        self._request("DELETE", self._document_path(collection, id), self._write_query(refresh))

    def delete_by_filter(self, collection, filter, refresh=False):
        """Deletes every document whose current metadata matches ``filter`` → ``{"deleted": n}``."""
        return self._request("POST", "/v1/collections/%s/documents/delete" % _quote(collection),
                             self._write_query(refresh), json_body={"filter": filter})

    def refresh(self, collection):
        """Returns once every write acknowledged before the call is searchable → ``{"refreshed": True}``."""
        return self._request("POST", "/v1/collections/%s/refresh" % _quote(collection))

    # ----------------------------------------------------------------------------------
    # Files

    def upload(self, collection, source, id=None, title=None, metadata=None, file_name=None, refresh=False,
               ocr_languages=None):
        """Uploads a file to be extracted and indexed as one document → its summary.

        ``source`` is a path (str or os.PathLike), bytes, or a binary file object. Paths and
        seekable file objects are streamed from disk in chunks, never read whole into
        memory. ``file_name`` (used by the server to tell the type, and kept for downloads)
        defaults to the path's or file object's base name. Without ``id`` the document's id
        is the SHA-256 of the bytes. ``ocr_languages`` (``["deu", "eng"]``) are the languages its
        images and scanned pages are read in; default: the collection's ``ocr_languages``.
        """
        fields = []
        if id is not None:
            fields.append(("id", id))
        if title is not None:
            fields.append(("title", title))
        if metadata is not None:
            fields.append(("metadata", json.dumps(metadata, ensure_ascii=False, allow_nan=False)))
        if ocr_languages is not None:
            fields.append(("ocr_languages", "+".join(ocr_languages)))
        body = _UploadBody(fields, source, file_name)
        return self._request("POST", "/v1/collections/%s/files" % _quote(collection),
                             self._write_query(refresh), upload=body)

    def download_file(self, collection, id):
        """Downloads the kept original of an uploaded file (server run with ``--keep-files``)
        → ``(bytes, content_type, file_name)``."""
        response = self._request("GET", self._document_path(collection, id) + "/file", raw=True)
        content_type = response.headers.get("Content-Type")
        file_name = _content_disposition_name(response.headers.get("Content-Disposition"))
        return response.body, content_type, file_name

    def page_image(self, collection, id, page, width=None, format=None):
        """Page ``page`` of a document's kept original as a picture (server run with
        ``--keep-files``): a PDF page or an image, ``width`` pixels wide (16–2048, default
        800), WebP unless ``format="png"`` → ``(bytes, content_type)``."""
        query = {}
        if width is not None:
            query["width"] = str(width)
        if format is not None:
            query["format"] = format
        response = self._request("GET", self._document_path(collection, id) + "/pages/%d/image" % int(page),
                                 query, raw=True)
        return response.body, response.headers.get("Content-Type")

    def formats(self):
        """→ the list of file types the server reads: ``{"extension", "mime", "kind"}`` dicts."""
        return self._request("GET", "/v1/formats")["formats"]

    def ocr_languages(self):
        """→ the languages the server's OCR reads (Tesseract codes, sorted; ``eng`` always)."""
        return self._request("GET", "/v1/formats")["ocr_languages"]

    def stats(self):
        """Server and collection statistics (admin) → ``{"version", "uptime_s", "memory",
        "searches", "collections"}``."""
        return self._request("GET", "/v1/stats")

    # ----------------------------------------------------------------------------------
    # Search

    def search(self, collection, q="", filter=None, facets=None, sort=None, offset=None, limit=None,
               match=None, highlight_tag=None, facet_limit=None, explain=None, typos=None, prefix=None,
               fields=None, track_total=None, mode=None, semantic_ratio=None, embedder=None, vector=None,
               fusion=None, similar_to=None, synonyms=None, boost=None, distinct=None, group_size=None,
               search_fields=None):
        """Searches a collection (``POST …/search``) → ``{"hits", "facets", "total",
        "total_relation", "offset", "limit", "has_more", "took_ms"}`` (plus ``facet_stats`` for
        numeric facets, and ``suggestions``, a list of ``{"text"}``, when nothing matched).

        ``filter`` is a filter dict; ``facets`` and ``sort`` are lists of strings or
        comma-separated strings (``"year:desc,title:asc"``); ``match`` is ``"any"`` or
        ``"all"``; ``typos`` is ``"auto"`` (the collection's setting), ``0``, ``1`` or ``2``;
        ``prefix="last"`` makes the word being typed (the last) a prefix (search as you type);
        ``fields`` lists the hit members wanted besides ``id`` and ``score`` (``["id"]``: ids and
        scores only, the fastest); ``total`` is exact up to 10,000 matches (``total_relation``
        ``"eq"``), past that ``10000`` with ``"gte"`` unless ``track_total=True``;
        ``synonyms=False`` searches the words as typed, without the collection's synonyms;
        ``boost`` multiplies relevance by fields: a list of ``{"field": "metadata.sales",
        "modifier": "log1p", "factor": 1}`` or ``{"field": "metadata.date", "recency": {"scale":
        "30d"}}`` (replacing the collection's ``ranking.boost``; ``[]`` turns it off);
        ``distinct`` (a metadata field) keeps the best ``group_size`` hits of each of its values,
        ``offset``, ``limit`` and ``total`` then counting groups; ``search_fields`` (``["title^2",
        "text", "metadata.author"]``) the fields to search and their weights (a metadata field of
        the collection's ``searchable_fields``; hits that matched there carry ``metadata_highlights``).

        Search by meaning (the collection needs an embedder): ``mode`` is ``"keyword"`` (default),
        ``"semantic"`` or ``"hybrid"``; ``semantic_ratio`` (0–1) weighs meaning in a hybrid search;
        ``embedder`` names one when there are several; ``vector`` is your own query vector;
        ``fusion`` is ``"convex"`` (default) or ``"rrf"``; ``similar_to`` (a document id) finds the
        documents most like that one. The answer then has
        ``semantic_coverage`` and, when some documents are not embedded yet or the query could not
        be embedded, ``warnings`` (``[{"code", "message"}]``).
        """
        body = {"q": q}
        for name, value in (("filter", filter), ("facets", facets), ("sort", sort), ("offset", offset),
                            ("limit", limit), ("match", match), ("highlight_tag", highlight_tag),
                            ("facet_limit", facet_limit), ("explain", explain), ("typos", typos),
                            ("prefix", prefix), ("fields", fields), ("track_total", track_total),
                            ("mode", mode), ("semantic_ratio", semantic_ratio), ("embedder", embedder),
                            ("vector", vector), ("fusion", fusion), ("similar_to", similar_to),
                            ("synonyms", synonyms), ("boost", boost), ("distinct", distinct),
                            ("group_size", group_size), ("search_fields", search_fields)):
            if value is not None:
                body[name] = list(value) if isinstance(value, tuple) else value
        return self._request("POST", "/v1/collections/%s/search" % _quote(collection), json_body=body)

    def search_all(self, collection, q="", filter=None, sort=None, match=None, highlight_tag=None,
                   page_size=100, explain=None, typos=None, fields=None):
        """Yields every hit of a search, page after page (``offset`` paging, ``page_size`` hits
        a request), until ``has_more`` is false. The server pages through the first 10,000
        hits at most, so iteration stops there."""
        if not 1 <= page_size <= 100:
            raise ValueError("page_size must be 1 to 100")
        offset = 0
        while offset < 10000:
            page = self.search(collection, q, filter=filter, sort=sort, offset=offset,
                               limit=min(page_size, 10000 - offset), match=match,
                               highlight_tag=highlight_tag, explain=explain, typos=typos, fields=fields)
            hits = page["hits"]
            for hit in hits:
                yield hit
            offset += len(hits)
            if not page.get("has_more") or not hits:
                return

    def facet_search(self, collection, facet, q="", query=None, filter=None, match=None, typos=None, limit=None):
        """The values of ``facet`` with a word starting with ``q`` (``"kn"`` finds ``"Donald
        Knuth"``; case, accents and typos forgiven as in a search), each with its count among the
        documents ``query`` and ``filter`` match (``POST …/facet-search``) → ``{"values": [{"value",
        "count"}], "timed_out", "took_ms"}``; ``limit`` 1–100 (default 10).
        """
        body = {"facet": facet, "q": q}
        for field, value in (("query", query), ("filter", filter), ("match", match), ("typos", typos), ("limit", limit)):
            if value is not None:
                body[field] = value
        return self._request("POST", "/v1/collections/" + _quote(collection) + "/facet-search", json_body=body)

    def multi_search(self, queries, federation=None):
        """Several searches in one request (``POST /v1/multi-search``). ``queries`` is a list of
        dicts, each a ``collection`` and the parameters of :meth:`search` (``{"collection":
        "manuals", "q": "paper jam", "filter": {...}}``).

        Without ``federation``: ``{"results": [...]}``, each query's search answer (with its
        ``collection``), in order. With ``federation`` (``{}``, or ``{"offset", "limit"}``): one
        answer whose ``hits`` (each with ``collection`` and ``query``, its query's index) merge
        every query's by score, as one collection holding all the documents would rank them
        (docs/api.md, "Search across collections"); ``facets_by_collection`` holds the facets.
        """
        body = {"queries": [dict(query) for query in queries]}
        if federation is not None:
            body["federation"] = dict(federation)
        return self._request("POST", "/v1/multi-search", json_body=body)

    # ----------------------------------------------------------------------------------
    # API keys

    def create_key(self, name=None, scopes=None, collections=None, rate_limit=None, expires_at=None, filter=None):
        """Creates an API key → its record plus ``key``, the plaintext (shown only this once).

        ``scopes``: some of ``"search"``, ``"write"``, ``"admin"`` (default search + write);
        ``collections``: names the key is limited to (default all); ``rate_limit``:
        ``{"per_second", "burst"}``; ``expires_at``: an RFC 3339 string or a datetime;
        ``filter``: a filter dict — the key then sees only the documents matching it, and has
        only the search scope (docs/api.md, "Keys with a filter").
        """
        body = {}
        for field, value in (("name", name), ("scopes", scopes), ("collections", collections),
                             ("rate_limit", rate_limit), ("expires_at", _rfc3339(expires_at)),
                             ("filter", filter)):
            if value is not None:
                body[field] = list(value) if isinstance(value, tuple) else value
        return self._request("POST", "/v1/api-keys", json_body=body)

    def list_keys(self):
        """→ the list of key records (never the keys themselves)."""
        return self._request("GET", "/v1/api-keys")["keys"]

    def delete_key(self, key_id):
        """Revokes a key by its id (``key_…``); it stops working at once."""
        self._request("DELETE", "/v1/api-keys/" + _quote(key_id))

    # ----------------------------------------------------------------------------------
    # Sessions

    def create_session(self, master_key):
        """Trades the master key for a 12-hour session token → ``{"token", "expires_at"}``.

        Use the token as ``api_key`` of a client; it has every right.
        """
        return self._request("POST", "/v1/sessions", json_body={"master_key": master_key}, token=None)

    def delete_session(self, token=None):
        """Logs a session out: ``token``, or this client's own ``api_key`` when not given."""
        self._request("DELETE", "/v1/sessions/current", token=self.api_key if token is None else token)

    # ----------------------------------------------------------------------------------
    # Webhooks

    def create_webhook(self, url, events, description=None):
        """Creates a webhook → its record plus ``secret`` (``whsec_…``, shown only this once).

        ``events``: event names such as ``"document.indexed"``, or ``["*"]`` for all.
        """
        body = {"url": url, "events": list(events)}
        if description is not None:
            body["description"] = description
        return self._request("POST", "/v1/webhooks", json_body=body)

    def list_webhooks(self):
        return self._request("GET", "/v1/webhooks")["webhooks"]

    def get_webhook(self, webhook_id):
        return self._request("GET", "/v1/webhooks/" + _quote(webhook_id))

    def delete_webhook(self, webhook_id):
        self._request("DELETE", "/v1/webhooks/" + _quote(webhook_id))

    def list_deliveries(self, webhook_id):
        """→ the webhook's recent deliveries, newest first, each with its attempts."""
        return self._request("GET", "/v1/webhooks/%s/deliveries" % _quote(webhook_id))["deliveries"]
