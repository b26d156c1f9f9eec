// A collection's settings (docs/api.md, "Collections"): their shapes, declared once as TypeBox
// schemas — the API takes and returns them so and collection.json stores them so —
// (settings-shapes.ts, embedder-shapes.ts), and per setting its default, the checks of a
// client's change (each problem named by its JSON pointer), its stored form, and what searches
// make of it (typo-tolerance.ts, synonym-settings.ts, searchable-fields.ts, ranking-settings.ts,
// embedder-settings.ts, ocr-language-settings.ts), with all of them as values and stored
// (settings-values.ts). Below both api/ and indexing/: neither owns them, both use them.

export * from './settings-shapes.ts';
export * from './embedder-shapes.ts';
export * from './typo-tolerance.ts';
export * from './synonym-settings.ts';
export * from './searchable-fields.ts';
export * from './ranking-settings.ts';
export * from './embedder-settings.ts';
export * from './ocr-language-settings.ts';
export * from './settings-values.ts';
