// Source code and build files in common languages: the whole file as one page of text (code
// is searched as written), no title.

import type { Extraction, FormatFamily, FormatInfo } from '../extraction.ts';
import { readTextFile } from './text-input.ts';

/** [extension, MIME type] — freedesktop shared-mime-info names where one exists. */
const LANGUAGES: ReadonlyArray<[string, string]> = [
  ['js', 'text/javascript'], ['mjs', 'text/javascript'], ['cjs', 'text/javascript'], ['jsx', 'text/jsx'],
  ['ts', 'text/x-typescript'], ['mts', 'text/x-typescript'], ['cts', 'text/x-typescript'], ['tsx', 'text/tsx'],
  ['py', 'text/x-python'], ['pyw', 'text/x-python'], ['rb', 'application/x-ruby'], ['go', 'text/x-go'],
  ['rs', 'text/rust'], ['java', 'text/x-java'], ['kt', 'text/x-kotlin'], ['kts', 'text/x-kotlin'],
  ['c', 'text/x-csrc'], ['h', 'text/x-chdr'], ['cpp', 'text/x-c++src'], ['hpp', 'text/x-c++hdr'],
  ['cc', 'text/x-c++src'], ['hh', 'text/x-c++hdr'], ['cxx', 'text/x-c++src'], ['cs', 'text/x-csharp'],
  ['mm', 'text/x-objc++src'], ['php', 'application/x-php'], ['swift', 'text/x-swift'], ['scala', 'text/x-scala'],
  ['sh', 'application/x-shellscript'], ['bash', 'application/x-shellscript'], ['zsh', 'application/x-shellscript'],
  ['ps1', 'text/x-powershell'], ['psm1', 'text/x-powershell'], ['bat', 'text/x-msdos-batch'], ['cmd', 'text/x-msdos-batch'],
  ['sql', 'application/sql'], ['r', 'text/x-r'], ['lua', 'text/x-lua'], ['pl', 'application/x-perl'], ['pm', 'application/x-perl'],
  ['hs', 'text/x-haskell'], ['ex', 'text/x-elixir'], ['exs', 'text/x-elixir'], ['erl', 'text/x-erlang'], ['hrl', 'text/x-erlang'],
  ['clj', 'text/x-clojure'], ['cljs', 'text/x-clojurescript'], ['dart', 'text/x-dart'], ['vue', 'text/x-vue'],
  ['svelte', 'text/x-svelte'], ['css', 'text/css'], ['scss', 'text/x-scss'], ['sass', 'text/x-sass'], ['less', 'text/x-less'],
  ['groovy', 'text/x-groovy'], ['gradle', 'text/x-gradle'], ['mk', 'text/x-makefile'], ['dockerfile', 'text/x-dockerfile'],
  ['cmake', 'text/x-cmake'], ['jl', 'text/x-julia'], ['nim', 'text/x-nim'], ['zig', 'text/x-zig'], ['f90', 'text/x-fortran'],
  ['f', 'text/x-fortran'], ['fs', 'text/x-fsharp'], ['ml', 'text/x-ocaml'], ['mli', 'text/x-ocaml'], ['elm', 'text/x-elm'],
  ['coffee', 'application/vnd.coffeescript'], ['tf', 'text/x-terraform'], ['proto', 'text/x-protobuf'],
  ['graphql', 'application/graphql'], ['gql', 'application/graphql'], ['awk', 'application/x-awk'], ['vim', 'text/x-vim'],
  ['el', 'text/x-emacs-lisp'], ['lisp', 'text/x-common-lisp'], ['scm', 'text/x-scheme'], ['rkt', 'text/x-racket'],
  ['asm', 'text/x-asm'], ['pas', 'text/x-pascal'], ['tcl', 'text/tcl'], ['vbs', 'text/vbscript'], ['nix', 'text/x-nix'],
  ['sol', 'text/x-solidity'], ['d', 'text/x-dsrc'], ['vhdl', 'text/x-vhdl'], ['adb', 'text/x-adasrc'], ['ads', 'text/x-adasrc'],
  ['cob', 'text/x-cobol'],
];

export const sourceCodeFamily: FormatFamily = {
  kind: 'code',
  formats: LANGUAGES.map(([extension, mime]): FormatInfo => ({ extension, mime, kind: 'code' })),
  extract(bytes: Uint8Array, format: string): Extraction {
    const text = readTextFile(bytes).replace(/\r\n?/g, '\n').replace(/\s+$/, '');
    return { format, title: null, pages: [{ number: 1, label: null, text }] };
  },
};
