// The WebAssembly globals simd-codes.ts uses. Node.js has them, but @types/node 20 does not
// declare them, and the DOM library that does would bring in every browser global.

declare global {
  namespace WebAssembly {
    class Module {
      constructor(bytes: ArrayBuffer | ArrayBufferView);
    }
    class Instance {
      constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
      readonly exports: Record<string, unknown>;
    }
    class Memory {
      constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
      readonly buffer: ArrayBuffer;
    }
    function validate(bytes: ArrayBuffer | ArrayBufferView): boolean;
  }
}

export {};
