// The dashboard's only way to the server: its HTTP API, with the bearer token of the signed-in
// user (a session opened with the master key, or an admin API key) kept in sessionStorage, so
// it is gone when the tab closes. Errors become ApiError with the API's stable code and detail; a
// 401 signs the user out.

import type { DocumentSummary } from '../../clients/typescript/api-types.ts';

const TOKEN_KEY = 'folio.token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly errors: { path: string; message: string }[] = [],
  ) {
    super(detail);
  }
}

export function token(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signIn(value: string): void {
  sessionStorage.setItem(TOKEN_KEY, value);
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Called when the server says the token is no longer good (the app shows the sign-in form). */
let onUnauthorized: () => void = () => {};
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

async function failure(response: Response): Promise<ApiError> {
  let body: { code?: string; detail?: string; errors?: { path: string; message: string }[] } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not a problem document
  }
  return new ApiError(response.status, body.code ?? `http_${response.status}`, body.detail ?? response.statusText, body.errors ?? []);
}

export interface RequestOptions {
  method?: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A token other than the stored one (signing in). */
  bearer?: string | null;
}

export function pathWithQuery(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** A request to the API; resolves with the parsed JSON (null for 204). */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const bearer = options.bearer === undefined ? token() : options.bearer;
  const headers: Record<string, string> = {};
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(pathWithQuery(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (!response.ok) {
    const error = await failure(response);
    // A 401 signs out the session whose token was sent, if it is still the stored one: not a
    // request sent without a token (already signed out), nor one of a session signed out since
    // (its late answer would wipe the sign-in form, or the session opened after it).
    if (response.status === 401 && options.bearer === undefined && bearer !== null && token() === bearer) onUnauthorized();
    throw error;
  }
  return response.status === 204 ? (null as T) : ((await response.json()) as T);
}

/** A file upload with progress (fetch cannot report upload progress; XMLHttpRequest can); searchable on return. */
export function uploadFile(collection: string, file: File, onProgress: (sent: number, total: number) => void): Promise<DocumentSummary> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/v1/collections/${encodeURIComponent(collection)}/files?refresh=wait_for`);
    const bearer = token();
    if (bearer) request.setRequestHeader('authorization', `Bearer ${bearer}`);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.total);
    request.onerror = () => reject(new ApiError(0, 'network_error', 'the server could not be reached'));
    request.onload = () => {
      let body: { code?: string; detail?: string } & Record<string, unknown> = {};
      try {
        body = JSON.parse(request.responseText) as typeof body;
      } catch {
        // not JSON
      }
      if (request.status >= 200 && request.status < 300) resolve(body as unknown as DocumentSummary);
      else reject(new ApiError(request.status, body.code ?? `http_${request.status}`, body.detail ?? request.statusText));
    };
    const form = new FormData();
    // Named by the file's name when that is a valid id (uploading it again replaces it), else the
    // server's default (the SHA-256 of the bytes); the name is kept as metadata `path` either way.
    if (/^[A-Za-z0-9_.:-]{1,256}$/.test(file.name)) form.append('id', file.name);
    form.append('metadata', JSON.stringify({ path: file.name }));
    form.append('file', file, file.name);
    request.send(form);
  });
}

/** A file the API serves (a kept original, a page picture), fetched with the session's token; rejects with the API's error. */
async function fetchFile(path: string): Promise<Response> {
  const response = await fetch(path, { headers: { authorization: `Bearer ${token() ?? ''}` } });
  if (!response.ok) throw await failure(response);
  return response;
}

function documentPath(collection: string, id: string): string {
  return `/v1/collections/${encodeURIComponent(collection)}/documents/${encodeURIComponent(id)}`;
}

/** A fetched file handed to the browser as a download, named as the server names it (else `fallbackName`). */
async function saveFile(response: Response, fallbackName: string): Promise<void> {
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The kept original of a document, downloaded with the token and handed to the browser as a file. */
export async function downloadOriginal(collection: string, id: string): Promise<void> {
  await saveFile(await fetchFile(`${documentPath(collection, id)}/file`), id);
}

/** Picture URLs (blob:) already fetched, by collection, document, page and width; the oldest go past PICTURES_KEPT. */
const pictures = new Map<string, Promise<string>>();
const PICTURES_KEPT = 300;

/**
 * A page of a document's kept original as a picture (`GET …/pages/{page}/image`), fetched with
 * the session's token and handed back as a blob: URL for an <img>. Rejects when there is none
 * (no kept original, a type without pages).
 */
export function pagePicture(collection: string, id: string, page: number, width: number): Promise<string> {
  const key = JSON.stringify([collection, id, page, width]);
  let url = pictures.get(key);
  if (url === undefined) {
    url = fetchFile(`${documentPath(collection, id)}/pages/${page}/image?width=${width}`).then(async (response) => URL.createObjectURL(await response.blob()));
    url.catch(() => pictures.delete(key));
    pictures.set(key, url);
    for (const [old, oldUrl] of pictures) {
      if (pictures.size <= PICTURES_KEPT) break;
      pictures.delete(old);
      void oldUrl.then((u) => URL.revokeObjectURL(u), () => {});
    }
  }
  return url;
}

/** Types a browser shows itself, opened in a tab; others are downloaded (an HTML file must never run under this origin). */
const SHOWN_IN_BROWSER = /^(application\/pdf|image\/(png|jpeg|gif|webp))\b/;

/**
 * Opens a document's kept original in a new tab at `page`: a PDF in the browser's viewer at
 * `#page=N` (with `search=` the query's words, for viewers that highlight them), an image as
 * itself; any other type is downloaded instead.
 */
export async function openOriginalAt(collection: string, id: string, page: number, words: string): Promise<void> {
  // Opened now, while the click still counts as the user's: a tab opened after the download would be blocked.
  const tab = window.open('about:blank', '_blank');
  try {
    const response = await fetchFile(`${documentPath(collection, id)}/file`);
    const type = response.headers.get('content-type') ?? '';
    if (tab === null || !SHOWN_IN_BROWSER.test(type)) {
      tab?.close();
      return saveFile(response, id);
    }
    const url = URL.createObjectURL(new Blob([await response.arrayBuffer()], { type: type.split(';')[0] }));
    const at = type.startsWith('application/pdf') ? `#page=${page}${words === '' ? '' : `&search=${encodeURIComponent(words)}`}` : '';
    tab.opener = null;
    tab.location.href = url + at;
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.errors.map((item) => `${item.path}: ${item.message}`).join('; ');
    return `${error.code}: ${error.message}${fields ? ` (${fields})` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
