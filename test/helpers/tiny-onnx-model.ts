// Builds a tiny sentence-embedding model in the layout Transformers.js reads from a models
// directory, with nothing downloaded: `config.json` (a BERT), a WordPiece `tokenizer.json`, and
// `onnx/model.onnx`, an ONNX graph written here byte by byte (protobuf) whose one node, Gather,
// looks each token up in a static embedding table: `last_hidden_state[b, t] = table[ids[b, t]]`.
// Mean pooling over the tokens then gives the sentence vector. Words listed in the same group
// share one direction, so "feline" is near "cat" and "rug" near "mat": a real, if small, model
// for tests of the `local` embedder path (Transformers.js + onnxruntime-node).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Word groups; each group gets its own axis of the embedding space. */
export const TINY_MODEL_GROUPS: readonly (readonly string[])[] = [
  ['cat', 'cats', 'kitten', 'feline', 'kitty'],
  ['mat', 'rug', 'carpet', 'mats'],
  ['sat', 'sitting', 'resting', 'rests', 'lying', 'sleeps'],
  ['stock', 'stocks', 'market', 'markets', 'shares', 'investors', 'finance'],
  ['fell', 'dropped', 'plunged', 'declined'],
  ['bread', 'dough', 'flour', 'baking', 'bake', 'loaf'],
  ['rain', 'storm', 'thunderstorms', 'weather', 'forecast', 'wet'],
  ['dog', 'puppy', 'dogs', 'fetch', 'ball'],
  ['volcano', 'volcanoes', 'lava', 'magma', 'eruption', 'erupt'],
];
const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
/** Common words: one small shared axis, so they move sentences little. */
const FILLER = ['the', 'a', 'an', 'on', 'of', 'in', 'and', 'is', 'with', 'to', 'for', 'as', 'at', 'by', 'it', 'its', 'his', 'all', 'then'];

// --- protobuf ------------------------------------------------------------------------------

function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number): number[] => varint((field << 3) | wire);
const intField = (field: number, value: number): number[] => [...key(field, 0), ...varint(value)];
function bytesField(field: number, bytes: ArrayLike<number>): number[] {
  return [...key(field, 2), ...varint(bytes.length), ...Array.from(bytes)];
}
const stringField = (field: number, text: string): number[] => bytesField(field, Buffer.from(text, 'utf8'));

const FLOAT = 1;
const INT64 = 7;

/** ValueInfoProto of a tensor with named (symbolic) or fixed dimensions. */
function valueInfo(name: string, elemType: number, dims: (string | number)[]): number[] {
  const shape = dims.flatMap((dim) => bytesField(1, typeof dim === 'number' ? intField(1, dim) : stringField(2, dim)));
  const tensorType = [...intField(1, elemType), ...bytesField(2, shape)];
  return [...stringField(1, name), ...bytesField(2, bytesField(1, tensorType))];
}

function modelProto(vocabSize: number, dims: number, table: Float32Array): Uint8Array {
  const gather = [...stringField(1, 'embeddings'), ...stringField(1, 'input_ids'), ...stringField(2, 'last_hidden_state'), ...stringField(3, 'lookup'), ...stringField(4, 'Gather')];
  const initializer = [
    ...intField(1, vocabSize),
    ...intField(1, dims),
    ...intField(2, FLOAT),
    ...stringField(8, 'embeddings'),
    ...bytesField(9, new Uint8Array(table.buffer, table.byteOffset, table.byteLength)),
  ];
  const graph = [
    ...bytesField(1, gather),
    ...stringField(2, 'tiny-static-embeddings'),
    ...bytesField(5, initializer),
    ...bytesField(11, valueInfo('input_ids', INT64, ['batch', 'sequence'])),
    ...bytesField(11, valueInfo('attention_mask', INT64, ['batch', 'sequence'])),
    ...bytesField(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', dims])),
  ];
  const opset = [...stringField(1, ''), ...intField(2, 13)];
  return Uint8Array.from([...intField(1, 8), ...stringField(2, 'folio-tests'), ...bytesField(7, graph), ...bytesField(8, opset)]);
}

// --- the model directory ---------------------------------------------------------------------

/** Writes the model as `<modelsDir>/<name>/` and returns that directory. */
export function writeTinyOnnxModel(modelsDir: string, name: string): string {
  const vocab = [...SPECIAL_TOKENS, ...FILLER, ...TINY_MODEL_GROUPS.flat()];
  const dims = TINY_MODEL_GROUPS.length + 1;
  const table = new Float32Array(vocab.length * dims);
  vocab.forEach((word, id) => {
    const group = TINY_MODEL_GROUPS.findIndex((words) => words.includes(word));
    if (group >= 0) table[id * dims + group] = 1;
    else if (!SPECIAL_TOKENS.includes(word)) table[id * dims + dims - 1] = 0.2; // filler: a small shared axis
  });
  const dir = join(modelsDir, name);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), modelProto(vocab.length, dims, table));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: dims, vocab_size: vocab.length, max_position_embeddings: 512 }));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]' }),
  );
  const ids = Object.fromEntries(vocab.map((word, id) => [word, id]));
  writeFileSync(
    join(dir, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: SPECIAL_TOKENS.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
        pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
        special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } },
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
    }),
  );
  return dir;
}
