;; TinyNet's forward convolution as 128-bit SIMD multiply-adds (the hot spot of
;; reading a die). Compiled by `npx tsx scripts/wasm-kernel.ts` into
;; tinyNetConvWasm.ts; test/vision/tinyNetWasm.test.ts checks the two agree.
;;
;; conv(p, k9, stride, w, b, cout, out): for every output channel co < cout and
;; pixel q < stride,
;;   out[co * stride + q] = max(0, b[co] + sum_k w[co * k9 + k] * p[k * stride + q])
;; where p holds the unrolled input one row per kernel tap k (the value each
;; pixel sees through that tap, `stride` floats a row) and w one row of k9
;; weights per channel. All addresses are byte offsets into the imported memory.
;; k9 must be positive, cout a positive multiple of 4 and stride a positive
;; multiple of 8 (pad the channels with zero weights and the rows with pixels
;; whose outputs are ignored).
;;
;; Each pass takes eight pixels (two f32x4) and four channels: eight
;; accumulators, started at the biases, fed by two patch loads and four
;; broadcast weights per tap, so each output sums bias, then taps in order.
(module
  (import "env" "memory" (memory 1))

  (func (export "conv")
    (param $p i32) (param $k9 i32) (param $stride i32) (param $w i32) (param $b i32) (param $cout i32) (param $out i32)
    (local $row i32) (local $wrow i32) (local $co i32) (local $q i32)
    (local $w0 i32) (local $w1 i32) (local $w2 i32) (local $w3 i32)
    (local $pk i32) (local $wk i32) (local $wend i32) (local $o i32)
    (local $bias0 v128) (local $bias1 v128) (local $bias2 v128) (local $bias3 v128)
    (local $x0 v128) (local $x1 v128) (local $v v128) (local $zero v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $row (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $wrow (i32.shl (local.get $k9) (i32.const 2)))
    (local.set $zero (v128.const i32x4 0 0 0 0))
    (local.set $co (i32.const 0))
    (loop $eachCo
      (local.set $w0 (i32.add (local.get $w) (i32.mul (local.get $co) (local.get $wrow))))
      (local.set $w1 (i32.add (local.get $w0) (local.get $wrow)))
      (local.set $w2 (i32.add (local.get $w1) (local.get $wrow)))
      (local.set $w3 (i32.add (local.get $w2) (local.get $wrow)))
      (local.set $bias0 (v128.load32_splat (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
      (local.set $bias1 (v128.load32_splat offset=4 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
      (local.set $bias2 (v128.load32_splat offset=8 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
      (local.set $bias3 (v128.load32_splat offset=12 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
      (local.set $q (i32.const 0))
      (loop $eachQ
        (local.set $a0 (local.get $bias0))
        (local.set $a1 (local.get $bias1))
        (local.set $a2 (local.get $bias2))
        (local.set $a3 (local.get $bias3))
        (local.set $c0 (local.get $bias0))
        (local.set $c1 (local.get $bias1))
        (local.set $c2 (local.get $bias2))
        (local.set $c3 (local.get $bias3))
        ;; pk walks down the tap rows at pixel q; wk along the weight rows (offsets from w0).
        (local.set $pk (i32.add (local.get $p) (i32.shl (local.get $q) (i32.const 2))))
        (local.set $wk (i32.const 0))
        (loop $eachK
          (local.set $x0 (v128.load (local.get $pk)))
          (local.set $x1 (v128.load offset=16 (local.get $pk)))
          (local.set $v (v128.load32_splat (i32.add (local.get $w0) (local.get $wk))))
          (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $v) (local.get $x0))))
          (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $v) (local.get $x1))))
          (local.set $v (v128.load32_splat (i32.add (local.get $w1) (local.get $wk))))
          (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $v) (local.get $x0))))
          (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $v) (local.get $x1))))
          (local.set $v (v128.load32_splat (i32.add (local.get $w2) (local.get $wk))))
          (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $v) (local.get $x0))))
          (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $v) (local.get $x1))))
          (local.set $v (v128.load32_splat (i32.add (local.get $w3) (local.get $wk))))
          (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $v) (local.get $x0))))
          (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $v) (local.get $x1))))
          (local.set $pk (i32.add (local.get $pk) (local.get $row)))
          (local.set $wk (i32.add (local.get $wk) (i32.const 4)))
          (br_if $eachK (i32.lt_u (local.get $wk) (local.get $wrow))))
        ;; ReLU, then out[co * stride + q ..+8] and the next three channels one row apart.
        (local.set $o (i32.add (local.get $out)
          (i32.shl (i32.add (i32.mul (local.get $co) (local.get $stride)) (local.get $q)) (i32.const 2))))
        (v128.store (local.get $o) (f32x4.max (local.get $a0) (local.get $zero)))
        (v128.store offset=16 (local.get $o) (f32x4.max (local.get $c0) (local.get $zero)))
        (local.set $o (i32.add (local.get $o) (local.get $row)))
        (v128.store (local.get $o) (f32x4.max (local.get $a1) (local.get $zero)))
        (v128.store offset=16 (local.get $o) (f32x4.max (local.get $c1) (local.get $zero)))
        (local.set $o (i32.add (local.get $o) (local.get $row)))
        (v128.store (local.get $o) (f32x4.max (local.get $a2) (local.get $zero)))
        (v128.store offset=16 (local.get $o) (f32x4.max (local.get $c2) (local.get $zero)))
        (local.set $o (i32.add (local.get $o) (local.get $row)))
        (v128.store (local.get $o) (f32x4.max (local.get $a3) (local.get $zero)))
        (v128.store offset=16 (local.get $o) (f32x4.max (local.get $c3) (local.get $zero)))
        (local.set $q (i32.add (local.get $q) (i32.const 8)))
        (br_if $eachQ (i32.lt_u (local.get $q) (local.get $stride))))
      (local.set $co (i32.add (local.get $co) (i32.const 4)))
      (br_if $eachCo (i32.lt_u (local.get $co) (local.get $cout))))))
