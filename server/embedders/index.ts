// The text embedders (text-embedders.ts) that turn texts into vectors inside the embedding
// threads — builtin, a local ONNX model, an OpenAI-compatible service — and where the local
// one's runtime is installed (local-embedder-runtime.ts). Nothing here starts a thread: the
// embedding pool (pools/) runs them.

export { LOCAL_MODEL_FILES, embedTexts } from './text-embedders.ts';
export type { EmbedderRuntime } from './text-embedders.ts';
export { hasLocalRuntime, localRuntimeDir, localRuntimeProblem } from './local-embedder-runtime.ts';
