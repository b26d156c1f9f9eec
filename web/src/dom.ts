// Building the page without HTML strings: `h` makes an element from a tag, attributes and
// children, and every text goes in as a text node, so nothing a document, a key name or an
// error says can become markup. Search highlights (HTML-escaped text with `<mark>` round the
// matched words) are parsed by hand into text nodes and <mark> elements, never as HTML.

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces everything inside `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" };

/** Undoes the server's HTML escaping (`&amp;`, `&lt;`, numeric entities). */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    const named = ENTITIES[body.toLowerCase()];
    if (named !== undefined) return named;
    if (body[0] !== '#') return entity;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/** A highlight as nodes: text, and <mark> elements round the matched words. */
export function highlightNodes(highlight: string, tag = 'mark'): Node[] {
  const nodes: Node[] = [];
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  let rest = highlight;
  while (rest.length > 0) {
    const start = rest.indexOf(open);
    if (start < 0) {
      nodes.push(document.createTextNode(unescapeHtml(rest)));
      break;
    }
    if (start > 0) nodes.push(document.createTextNode(unescapeHtml(rest.slice(0, start))));
    const end = rest.indexOf(close, start + open.length);
    const inner = rest.slice(start + open.length, end < 0 ? undefined : end);
    nodes.push(h('mark', {}, unescapeHtml(inner)));
    rest = end < 0 ? '' : rest.slice(end + close.length);
  }
  return nodes;
}

/** A table with a header row; each row's cells are children. */
export function table(header: string[], rows: Child[][], label: string): HTMLTableElement {
  return h(
    'table',
    { 'aria-label': label },
    h('thead', {}, h('tr', {}, ...header.map((title) => h('th', { scope: 'col' }, title)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
  );
}

/** A message line (errors in role=alert, so screen readers say them). */
export function message(text: string, kind: 'error' | 'info' = 'info'): HTMLParagraphElement {
  return h('p', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}
