;; TinyNet's forward convolution as 128-bit SIMD dot products (the hot spot of
;; reading a die). Compiled by `npx tsx scripts/wasm-kernel.ts` into
;; tinyNetConvWasm.ts; test/vision/tinyNetWasm.test.ts checks the two agree.
;;
;; conv(p, k9p, plane, w, b, cout, out): for every output channel co < cout and
;; pixel q < plane,
;;   out[co * plane + q] = max(0, b[co] + sum_k w[co * k9p + k] * p[q * k9p + k])
;; where p holds one unrolled patch row per pixel and w one weight row per
;; channel, both k9p floats long (zero padded). All addresses are byte offsets
;; into the imported memory. k9p and cout must be positive multiples of 4; plane
;; must be positive.
;;
;; Each pass takes two pixels and four channels (eight f32x4 accumulators): two
;; patch loads and four weight loads feed eight multiply-adds. With an odd plane
;; the last pass takes the last pixel twice (same value written twice).
(module
  (import "env" "memory" (memory 1))

  ;; Writes max(0, bias + the four lanes of acc) at addr.
  (func $put (param $addr i32) (param $acc v128) (param $bias f32)
    (f32.store (local.get $addr)
      (f32.max
        (f32.add (local.get $bias)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
        (f32.const 0))))

  (func (export "conv")
    (param $p i32) (param $k9p i32) (param $plane i32) (param $w i32) (param $b i32) (param $cout i32) (param $out i32)
    (local $row i32) (local $planeBytes i32)
    (local $co i32) (local $q i32) (local $q1 i32) (local $k i32)
    (local $w0 i32) (local $w1 i32) (local $w2 i32) (local $w3 i32)
    (local $p0 i32) (local $p1 i32) (local $o i32)
    (local $b0 f32) (local $b1 f32) (local $b2 f32) (local $b3 f32)
    (local $x0 v128) (local $x1 v128) (local $v v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $row (i32.shl (local.get $k9p) (i32.const 2)))
    (local.set $planeBytes (i32.shl (local.get $plane) (i32.const 2)))
    (local.set $co (i32.const 0))
    (loop $eachCo
      (local.set $w0 (i32.add (local.get $w) (i32.mul (local.get $co) (local.get $row))))
      (local.set $w1 (i32.add (local.get $w0) (local.get $row)))
      (local.set $w2 (i32.add (local.get $w1) (local.get $row)))
      (local.set $w3 (i32.add (local.get $w2) (local.get $row)))
      (local.set $b0 (f32.load (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
      (local.set $b1 (f32.load offset=4 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
      (local.set $b2 (f32.load offset=8 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
      (local.set $b3 (f32.load offset=12 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
      (local.set $q (i32.const 0))
      (loop $eachQ
        ;; The second pixel of the pass, or the first again at the end of an odd plane.
        (local.set $q1
          (select (i32.add (local.get $q) (i32.const 1)) (local.get $q)
            (i32.lt_u (i32.add (local.get $q) (i32.const 1)) (local.get $plane))))
        (local.set $p0 (i32.add (local.get $p) (i32.mul (local.get $q) (local.get $row))))
        (local.set $p1 (i32.add (local.get $p) (i32.mul (local.get $q1) (local.get $row))))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $c0 (v128.const i32x4 0 0 0 0))
        (local.set $c1 (v128.const i32x4 0 0 0 0))
        (local.set $c2 (v128.const i32x4 0 0 0 0))
        (local.set $c3 (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (loop $eachK
          (local.set $x0 (v128.load (i32.add (local.get $p0) (local.get $k))))
          (local.set $x1 (v128.load (i32.add (local.get $p1) (local.get $k))))
          (local.set $v (v128.load (i32.add (local.get $w0) (local.get $k))))
          (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $v) (local.get $x0))))
          (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $v) (local.get $x1))))
          (local.set $v (v128.load (i32.add (local.get $w1) (local.get $k))))
          (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $v) (local.get $x0))))
          (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $v) (local.get $x1))))
          (local.set $v (v128.load (i32.add (local.get $w2) (local.get $k))))
          (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $v) (local.get $x0))))
          (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $v) (local.get $x1))))
          (local.set $v (v128.load (i32.add (local.get $w3) (local.get $k))))
          (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $v) (local.get $x0))))
          (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $v) (local.get $x1))))
          (local.set $k (i32.add (local.get $k) (i32.const 16)))
          (br_if $eachK (i32.lt_u (local.get $k) (local.get $row))))
        ;; out[co * plane + q], then the next three channels one plane apart; the second pixel sits q1 - q floats further.
        (local.set $o (i32.add (local.get $out)
          (i32.shl (i32.add (i32.mul (local.get $co) (local.get $plane)) (local.get $q)) (i32.const 2))))
        (call $put (local.get $o) (local.get $a0) (local.get $b0))
        (call $put (i32.add (local.get $o) (local.get $planeBytes)) (local.get $a1) (local.get $b1))
        (call $put (i32.add (local.get $o) (i32.mul (local.get $planeBytes) (i32.const 2))) (local.get $a2) (local.get $b2))
        (call $put (i32.add (local.get $o) (i32.mul (local.get $planeBytes) (i32.const 3))) (local.get $a3) (local.get $b3))
        (local.set $o (i32.add (local.get $o) (i32.shl (i32.sub (local.get $q1) (local.get $q)) (i32.const 2))))
        (call $put (local.get $o) (local.get $c0) (local.get $b0))
        (call $put (i32.add (local.get $o) (local.get $planeBytes)) (local.get $c1) (local.get $b1))
        (call $put (i32.add (local.get $o) (i32.mul (local.get $planeBytes) (i32.const 2))) (local.get $c2) (local.get $b2))
        (call $put (i32.add (local.get $o) (i32.mul (local.get $planeBytes) (i32.const 3))) (local.get $c3) (local.get $b3))
        (local.set $q (i32.add (local.get $q) (i32.const 2)))
        (br_if $eachQ (i32.lt_u (local.get $q) (local.get $plane))))
      (local.set $co (i32.add (local.get $co) (i32.const 4)))
      (br_if $eachCo (i32.lt_u (local.get $co) (local.get $cout))))))
