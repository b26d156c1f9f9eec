// The Sphinx peer's client (benchmarks/peer-sphinx.ts): SphinxQL over the MySQL protocol with
// mysql2, and the search statement. A query becomes its lower-cased terms, each with Sphinx's
// query syntax characters backslash-escaped, joined with ` | ` (OR, as Folio's default
// `match=any`); SphinxQL has no server-side prepared statements, so the statement is formatted
// once, on the client (mysql2's `format` escapes the string literal), and sent as text.

import mysql from 'mysql2';
import type { Connection } from 'mysql2';

export type SphinxQLConnection = Connection;

/** Sphinx's extended query syntax characters (sphinxapi's EscapeString, plus `&` and `>`). */
const QUERY_SYNTAX = /[\\()|\-!@~"&/^$=<>]/g;

/** A term with something to index; Sphinx rejects `a | -` (an OR operand with no word). */
const WORD = /[\p{L}\p{N}_]/u;

/**
 * `Lowell (dating)` → `lowell | \(dating\)`; null when there is no term. Terms without a letter
 * or digit are left out; a query with nothing else becomes its escaped terms, which match
 * nothing (as in the other peers) instead of being a syntax error.
 */
export function sphinxMatchExpression(query: string): string | null {
  const terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term !== '')
    .map((term) => term.replace(QUERY_SYNTAX, '\\$&'));
  if (terms.length === 0) return null;
  const words = terms.filter((term) => WORD.test(term));
  return words.length > 0 ? words.join(' | ') : terms.join(' ');
}

/** The top-10 BM25 search for `expression` in `index`, as one SphinxQL statement. */
export function sphinxSearchSql(index: string, expression: string): string {
  return mysql.format(`SELECT id FROM ${index} WHERE MATCH(?) LIMIT 10 OPTION ranker=bm25`, [expression]);
}

/** A connected SphinxQL connection to searchd on loopback `port`. */
export function openSphinxQL(port: number): Promise<SphinxQLConnection> {
  const connection = mysql.createConnection({ host: '127.0.0.1', port, user: 'folio-bench', connectTimeout: 5_000 });
  // A connection that fails between queries emits 'error'; the next query's callback reports it.
  connection.on('error', () => {});
  return new Promise((resolve, reject) => {
    connection.connect((error) => {
      if (error) {
        connection.destroy();
        reject(error);
      } else {
        resolve(connection);
      }
    });
  });
}

/** Sends `sql` as text; resolves with the rows. */
export function runSql(connection: SphinxQLConnection, sql: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    connection.query(sql, (error, rows) => (error ? reject(error) : resolve(rows)));
  });
}

export function closeSphinxQL(connection: SphinxQLConnection): void {
  connection.destroy();
}
