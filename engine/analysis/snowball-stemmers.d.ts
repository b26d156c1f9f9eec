// Type declarations for the `snowball-stemmers` package (pure-JS Snowball port, UMD/CommonJS
// marked `__esModule`, ships no types). Import its named exports: a default import is
// undefined when the importing code runs as CommonJS. Only what the analyzer uses is declared.

declare module 'snowball-stemmers' {
  export interface SnowballStemmer {
    /** Stems one lower-case word. */
    stem(word: string): string;
  }
  /** Names of the available algorithms, e.g. `english`, `german`, `porter`. */
  export function algorithms(): string[];
  export function newStemmer(language: string): SnowballStemmer;
}
