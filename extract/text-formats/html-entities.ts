// Decodes HTML/XML character references: numeric (`&#233;`, `&#xE9;`) and the named entities
// that occur in real documents (the full HTML list is 2,000+ names; these cover common text).

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', shy: '\u00ad',
  copy: '©', reg: '®', trade: '™', deg: '°', plusmn: '±', times: '×', divide: '÷', micro: 'µ',
  para: '¶', sect: '§', middot: '·', bull: '•', hellip: '…', prime: '′', Prime: '″',
  ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„',
  laquo: '«', raquo: '»', lsaquo: '‹', rsaquo: '›', dagger: '†', Dagger: '‡', permil: '‰',
  euro: '€', pound: '£', yen: '¥', cent: '¢', curren: '¤', iexcl: '¡', iquest: '¿', ordf: 'ª', ordm: 'º',
  sup1: '¹', sup2: '²', sup3: '³', frac14: '¼', frac12: '½', frac34: '¾', not: '¬', macr: '¯', acute: '´',
  cedil: '¸', uml: '¨', brvbar: '¦', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', zwnj: '\u200c', zwj: '\u200d',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', rArr: '⇒', lArr: '⇐', hArr: '⇔',
  minus: '−', le: '≤', ge: '≥', ne: '≠', asymp: '≈', infin: '∞', sum: '∑', prod: '∏', radic: '√',
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', lambda: 'λ', mu: 'μ', pi: 'π', sigma: 'σ', omega: 'ω',
  Alpha: 'Α', Beta: 'Β', Gamma: 'Γ', Delta: 'Δ', Lambda: 'Λ', Pi: 'Π', Sigma: 'Σ', Omega: 'Ω',
  szlig: 'ß', thorn: 'þ', THORN: 'Þ', eth: 'ð', ETH: 'Ð', aelig: 'æ', AElig: 'Æ', oelig: 'œ', OElig: 'Œ',
  oslash: 'ø', Oslash: 'Ø', aring: 'å', Aring: 'Å', ccedil: 'ç', Ccedil: 'Ç', ntilde: 'ñ', Ntilde: 'Ñ',
  scaron: 'š', Scaron: 'Š', yuml: 'ÿ', Yuml: 'Ÿ', fnof: 'ƒ', circ: 'ˆ', tilde: '˜',
};

/** Latin letters with diacritics: `&eacute;` → é and so on, built from combining marks. */
const DIACRITICS: Record<string, string> = {
  acute: '\u0301', grave: '\u0300', circ: '\u0302', uml: '\u0308', tilde: '\u0303', ring: '\u030a', cedil: '\u0327',
};

function named(name: string): string | undefined {
  const direct = NAMED[name];
  if (direct !== undefined) return direct;
  const match = /^([A-Za-z])(acute|grave|circ|uml|tilde|ring|cedil)$/.exec(name);
  if (match !== null) return (match[1] + DIACRITICS[match[2]]).normalize('NFC');
  return undefined;
}

function fromCodePoint(code: number): string | null {
  if (!Number.isFinite(code) || code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
  if (code === 0) return '\ufffd';
  return String.fromCodePoint(code);
}

/** Replaces character references; unknown names are left as they are. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return fromCodePoint(code) ?? whole;
    }
    if (!whole.endsWith(';') && !['amp', 'lt', 'gt', 'quot', 'nbsp'].includes(ref)) return whole;
    return named(ref) ?? whole;
  });
}
