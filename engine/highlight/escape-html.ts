// Escapes text for HTML element content and attribute values, so document text placed in a
// highlight can never become markup: & < > " ' are replaced by character references.

const SPECIAL = /[&<>"']/g;
const SPECIAL_TEST = /[&<>"']/;
const REFERENCES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `s` with & < > " ' escaped; returned as is when it has none of them. */
export function escapeHtml(s: string): string {
  if (!SPECIAL_TEST.test(s)) return s;
  return s.replace(SPECIAL, (char) => REFERENCES[char]);
}
