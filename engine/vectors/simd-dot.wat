;; Int8 dot products with 128-bit SIMD, for the HNSW graph and the scans (simd-codes.ts).
;; Source of simd-dot-wasm.ts: after editing, run `npm run generate:wasm` (a test checks drift).
;;
;; The memory is the caller's (imported): it holds a query of int16 values, the rows' int8 codes
;; (each row `stride` bytes, a multiple of 16, zero padded), a list of row numbers and the output.
;; For each 16 codes: sign-extend to two i16x8 halves, multiply with the query's matching i16x8
;; and add adjacent pairs (i32x4.dot_i16x8_s), summing into four i32 lanes. The caller scales the
;; query so that no sum leaves int32. Two rows share one pass over the query, so their memory is
;; fetched in parallel.

(module
  (import "folio" "memory" (memory 1))

  ;; Σ query·codes of the row at `row`, `stride` bytes.
  (func $dot (param $query i32) (param $row i32) (param $stride i32) (result i32)
    (local $j i32) (local $sum v128) (local $codes v128)
    (loop $block
      (local.set $codes (v128.load (i32.add (local.get $row) (local.get $j))))
      (local.set $sum (i32x4.add (local.get $sum)
        (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $codes)) (v128.load (local.get $query)))))
      (local.set $sum (i32x4.add (local.get $sum)
        (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $codes)) (v128.load offset=16 (local.get $query)))))
      (local.set $query (i32.add (local.get $query) (i32.const 32)))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $block (i32.lt_u (local.get $j) (local.get $stride))))
    (call $lanes (local.get $sum)))

  ;; The sum of the four i32 lanes.
  (func $lanes (param $v v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $v)) (i32x4.extract_lane 1 (local.get $v)))
      (i32.add (i32x4.extract_lane 2 (local.get $v)) (i32x4.extract_lane 3 (local.get $v)))))

  ;; out[i] = Σ query·codes of row rows[i], for i in [0, n): rows are u32 row numbers, out i32.
  (func (export "dots") (param $query i32) (param $codes i32) (param $stride i32) (param $rows i32) (param $n i32) (param $out i32)
    (local $pairsEnd i32) (local $a i32) (local $b i32) (local $j i32) (local $q i32)
    (local $sumA v128) (local $sumB v128) (local $codesA v128) (local $codesB v128) (local $q0 v128) (local $q1 v128)
    (local.set $pairsEnd (i32.add (local.get $rows) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 2))))
    (block $pairsDone
      (loop $pair
        (br_if $pairsDone (i32.ge_u (local.get $rows) (local.get $pairsEnd)))
        (local.set $a (i32.add (local.get $codes) (i32.mul (i32.load (local.get $rows)) (local.get $stride))))
        (local.set $b (i32.add (local.get $codes) (i32.mul (i32.load offset=4 (local.get $rows)) (local.get $stride))))
        (local.set $sumA (v128.const i32x4 0 0 0 0))
        (local.set $sumB (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (local.set $q (local.get $query))
        (loop $block
          (local.set $q0 (v128.load (local.get $q)))
          (local.set $q1 (v128.load offset=16 (local.get $q)))
          (local.set $codesA (v128.load (i32.add (local.get $a) (local.get $j))))
          (local.set $codesB (v128.load (i32.add (local.get $b) (local.get $j))))
          (local.set $sumA (i32x4.add (local.get $sumA) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $codesA)) (local.get $q0))))
          (local.set $sumA (i32x4.add (local.get $sumA) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $codesA)) (local.get $q1))))
          (local.set $sumB (i32x4.add (local.get $sumB) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $codesB)) (local.get $q0))))
          (local.set $sumB (i32x4.add (local.get $sumB) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $codesB)) (local.get $q1))))
          (local.set $q (i32.add (local.get $q) (i32.const 32)))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $block (i32.lt_u (local.get $j) (local.get $stride))))
        (i32.store (local.get $out) (call $lanes (local.get $sumA)))
        (i32.store offset=4 (local.get $out) (call $lanes (local.get $sumB)))
        (local.set $rows (i32.add (local.get $rows) (i32.const 8)))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (br $pair)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then
        (i32.store (local.get $out)
          (call $dot (local.get $query) (i32.add (local.get $codes) (i32.mul (i32.load (local.get $rows)) (local.get $stride))) (local.get $stride))))))
)
