// The names and ids the contract allows (names.ts): one door, no dependencies.

export * from './names.ts';
