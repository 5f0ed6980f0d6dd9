;; TinyNet's forward pass (convolutions, ReLU, max pooling) with 128-bit SIMD
;; multiply-adds: the hot spot of reading a die. Compiled by
;; `npx tsx scripts/wasm-kernel.ts` into tinyNetConvWasm.ts;
;; test/vision/tinyNetWasm.test.ts checks the two agree. All addresses are byte
;; offsets into the imported memory; planes are channel after channel, each
;; `stride` floats apart (a plane of n x n pixels, then padding).
;;
;; unroll(x, xstride, cin, n, taps, stride): the tap rows of x (cin planes n x n,
;; xstride floats apart) for a 3x3 convolution with padding 1: row
;; (ci * 3 + ky) * 3 + kx, `stride` floats long, holds for each pixel the input
;; it sees through tap (ky, kx) of channel ci (0 outside the image). It moves
;; blocks with memory.copy / memory.fill (bulk memory, in Node since 12).
;;
;; conv(p, k9, stride, pixels, w, b, cout, out, list, packed): for every output channel co < cout and
;; pixel q < pixels,
;;   out[co * stride + q] = max(0, b[co] + sum_k w4[co >> 2][k][co & 3] * p[k * stride + q])
;; where p holds k9 tap rows `stride` floats apart and w4 the weights of four channels side by side at each tap
;; ([cout / 4][k9][4]). k9 must be positive, cout a positive multiple of 4 and pixels a positive multiple of 8
;; (pad the channels with zero weights and the rows with pixels whose outputs are ignored). Each pass takes eight
;; pixels (two f32x4) and four channels: eight accumulators, started at the biases, fed by two tap-row loads and
;; four broadcast weights per tap, so each output sums bias, then taps in order (a product rounded, then added and
;; rounded: no fused multiply-add, so any order of passes gives the same floats). Taps whose eight inputs are all +0
;; are left out (finite weights: their products are zeros, which change a sum at most by the sign of a zero, and the
;; ReLU makes that +0). `list` (k9 int32) and `packed` (k9 x 8 floats) are the kernel's scratch.
;;
;; convRows(x, xstride, cin, n, w, b, cout, out, stride, list, packed): conv's outputs (pixels n x n, rows of out
;; `stride` floats apart) for a side n that is a multiple of 8, read from the input planes without tap rows (the
;; unrolling was about a twelfth of a pass); x must not overlap out.
;;
;; convQuads(x, xstride, cin, w, b, cout, out, stride, list, packed): the same for a side of 4 (a pass: two rows of four).
;;
;; trainConv, weightSums and inputScatter (at the end): training's forward sums, weights'
;; and input's gradients in double precision, the plain loops' numbers to the bit
;; (trainConvsWasm.ts, test/vision/trainConvsWasm.test.ts).
;;
;; pool(y, c, n, stride, out): 2x2 max pooling of c planes n x n (stride floats
;; apart, n >= 2) into c planes (n/2) x (n/2), packed (an odd last row and
;; column are dropped); four outputs at a time with SIMD, the values being
;; those of ReLU outputs (no NaN, no -0).
(module
  (import "env" "memory" (memory 1))

  (func (export "unroll")
    (param $x i32) (param $xstride i32) (param $cin i32) (param $n i32) (param $taps i32) (param $stride i32)
    (local $ci i32) (local $dy i32) (local $dx i32) (local $yy i32) (local $ya i32) (local $yb i32)
    (local $q0 i32) (local $q1 i32) (local $plane i32) (local $rowBytes i32) (local $edge i32) (local $row i32)
    ;; Tap (dy, dx) of pixel q sees input pixel q + dy * n + dx of its plane, so a tap row is the plane shifted:
    ;; one block copy over the rows the tap sees inside the image, then the rows outside (dy) and the column
    ;; the shift wraps into (dx) set to 0. Pure data movement: the values are those of a pixel-by-pixel copy.
    (local.set $rowBytes (i32.shl (local.get $n) (i32.const 2)))
    (local.set $plane (i32.mul (local.get $n) (local.get $n)))
    (local.set $row (local.get $taps))
    (local.set $ci (i32.const 0))
    (loop $eachCi
      (local.set $dy (i32.const -1))
      (loop $eachDy
        ;; Rows ya..yb-1 see inside the image.
        (local.set $ya (i32.lt_s (local.get $dy) (i32.const 0)))
        (local.set $yb (i32.sub (local.get $n) (i32.gt_s (local.get $dy) (i32.const 0))))
        (local.set $dx (i32.const -1))
        (loop $eachDx
          ;; Pixels q0..q1-1 are copied: the first (dx -1) or last (dx 1) is left out, its source outside the plane.
          (local.set $q0 (i32.add (i32.mul (local.get $ya) (local.get $n)) (i32.lt_s (local.get $dx) (i32.const 0))))
          (local.set $q1 (i32.sub (i32.mul (local.get $yb) (local.get $n)) (i32.gt_s (local.get $dx) (i32.const 0))))
          (if (i32.gt_s (local.get $q1) (local.get $q0))
            (then
              (memory.copy
                (i32.add (local.get $row) (i32.shl (local.get $q0) (i32.const 2)))
                (i32.add (local.get $x)
                  (i32.shl
                    (i32.add (i32.mul (local.get $ci) (local.get $xstride))
                      (i32.add (local.get $q0) (i32.add (i32.mul (local.get $dy) (local.get $n)) (local.get $dx))))
                    (i32.const 2)))
                (i32.shl (i32.sub (local.get $q1) (local.get $q0)) (i32.const 2)))))
          ;; The tap looks above the first row or below the last: that row is all padding.
          (if (i32.lt_s (local.get $dy) (i32.const 0))
            (then (memory.fill (local.get $row) (i32.const 0) (local.get $rowBytes))))
          (if (i32.gt_s (local.get $dy) (i32.const 0))
            (then (memory.fill (i32.add (local.get $row) (i32.shl (i32.sub (local.get $plane) (local.get $n)) (i32.const 2)))
              (i32.const 0) (local.get $rowBytes))))
          ;; The tap looks left of column 0 or right of column n-1: that column is padding (the block copy put the
          ;; neighbouring row's last or first pixel there).
          (if (i32.ne (local.get $dx) (i32.const 0))
            (then
              (local.set $edge (i32.add (local.get $row)
                (i32.shl (i32.add (i32.mul (local.get $ya) (local.get $n)) (select (i32.sub (local.get $n) (i32.const 1)) (i32.const 0) (i32.gt_s (local.get $dx) (i32.const 0)))) (i32.const 2))))
              (local.set $yy (local.get $ya))
              (block $columnDone
                (loop $eachRow
                  (br_if $columnDone (i32.ge_s (local.get $yy) (local.get $yb)))
                  (f32.store (local.get $edge) (f32.const 0))
                  (local.set $edge (i32.add (local.get $edge) (local.get $rowBytes)))
                  (local.set $yy (i32.add (local.get $yy) (i32.const 1)))
                  (br $eachRow)))))
          (local.set $row (i32.add (local.get $row) (i32.shl (local.get $stride) (i32.const 2))))
          (local.set $dx (i32.add (local.get $dx) (i32.const 1)))
          (br_if $eachDx (i32.le_s (local.get $dx) (i32.const 1))))
        (local.set $dy (i32.add (local.get $dy) (i32.const 1)))
        (br_if $eachDy (i32.le_s (local.get $dy) (i32.const 1))))
      (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
      (br_if $eachCi (i32.lt_u (local.get $ci) (local.get $cin)))))

  (func (export "pool")
    (param $y i32) (param $c i32) (param $n i32) (param $stride i32) (param $out i32)
    (local $ch i32) (local $py i32) (local $px i32) (local $m i32) (local $m4 i32) (local $top i32) (local $row i32)
    (local $up v128) (local $down v128)
    (local.set $m (i32.shr_u (local.get $n) (i32.const 1)))
    (local.set $m4 (i32.and (local.get $m) (i32.const -4)))
    (local.set $row (i32.shl (local.get $n) (i32.const 2)))
    (local.set $ch (i32.const 0))
    (loop $eachC
      (local.set $py (i32.const 0))
      (loop $eachPy
        ;; top: the first of the two input rows this output row pools.
        (local.set $top (i32.add (local.get $y)
          (i32.shl (i32.add (i32.mul (local.get $ch) (local.get $stride)) (i32.mul (i32.shl (local.get $py) (i32.const 1)) (local.get $n))) (i32.const 2))))
        (local.set $px (i32.const 0))
        ;; Four output pixels a pass: each input row's eight values, even columns against odd. The values are after
        ;; ReLU (+0 or more, never NaN), where pmax (one instruction) gives what max (NaN and -0 rules) gives.
        (block $fours
          (br_if $fours (i32.ge_u (local.get $px) (local.get $m4)))
          (loop $eachFour
            (local.set $up (f32x4.pmax
              (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (v128.load (local.get $top)) (v128.load offset=16 (local.get $top)))
              (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (v128.load (local.get $top)) (v128.load offset=16 (local.get $top)))))
            (local.set $down (f32x4.pmax
              (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
                (v128.load (i32.add (local.get $top) (local.get $row))) (v128.load offset=16 (i32.add (local.get $top) (local.get $row))))
              (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31
                (v128.load (i32.add (local.get $top) (local.get $row))) (v128.load offset=16 (i32.add (local.get $top) (local.get $row))))))
            (v128.store (local.get $out) (f32x4.pmax (local.get $up) (local.get $down)))
            (local.set $out (i32.add (local.get $out) (i32.const 16)))
            (local.set $top (i32.add (local.get $top) (i32.const 32)))
            (local.set $px (i32.add (local.get $px) (i32.const 4)))
            (br_if $eachFour (i32.lt_u (local.get $px) (local.get $m4)))))
        ;; The rest of the row one pixel at a time.
        (block $ones
          (br_if $ones (i32.ge_u (local.get $px) (local.get $m)))
          (loop $eachPx
            (f32.store (local.get $out)
              (f32.max
                (f32.max (f32.load (local.get $top)) (f32.load offset=4 (local.get $top)))
                (f32.max (f32.load (i32.add (local.get $top) (local.get $row))) (f32.load offset=4 (i32.add (local.get $top) (local.get $row))))))
            (local.set $out (i32.add (local.get $out) (i32.const 4)))
            (local.set $top (i32.add (local.get $top) (i32.const 8)))
            (local.set $px (i32.add (local.get $px) (i32.const 1)))
            (br_if $eachPx (i32.lt_u (local.get $px) (local.get $m)))))
        (local.set $py (i32.add (local.get $py) (i32.const 1)))
        (br_if $eachPy (i32.lt_u (local.get $py) (local.get $m))))
      (local.set $ch (i32.add (local.get $ch) (i32.const 1)))
      (br_if $eachC (i32.lt_u (local.get $ch) (local.get $c)))))

  ;; The sums of one pass of eight pixels (from q) over the taps listed from `list` to `end` (weight offsets, their
  ;; inputs side by side from `packed`), every group of four channels, ReLU, stored at out[co * stride + q].
  (func $sums
    (param $q i32) (param $list i32) (param $end i32) (param $packed i32) (param $w i32) (param $wrow i32) (param $b i32)
    (param $cout i32) (param $out i32) (param $stride i32)
    (local $row i32) (local $co i32) (local $pk i32) (local $wg i32) (local $wk i32) (local $o i32) (local $e i32)
    (local $x0 v128) (local $x1 v128) (local $v v128) (local $zero v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $row (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $zero (v128.const i32x4 0 0 0 0))
      (local.set $co (i32.const 0))
      (loop $eachCo
        ;; The group's weights, tap after tap, four channels to a tap (16 bytes) from wg.
        (local.set $wg (i32.add (local.get $w) (i32.mul (local.get $co) (local.get $wrow))))
        (local.set $a0 (v128.load32_splat (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
        (local.set $a1 (v128.load32_splat offset=4 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
        (local.set $a2 (v128.load32_splat offset=8 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
        (local.set $a3 (v128.load32_splat offset=12 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2)))))
        (local.set $c0 (local.get $a0))
        (local.set $c1 (local.get $a1))
        (local.set $c2 (local.get $a2))
        (local.set $c3 (local.get $a3))
        (local.set $e (local.get $list))
        (local.set $pk (local.get $packed))
        (block $taps
          (br_if $taps (i32.ge_u (local.get $e) (local.get $end)))
          (loop $eachK
            (local.set $wk (i32.add (local.get $wg) (i32.load (local.get $e))))
            (local.set $x0 (v128.load (local.get $pk)))
            (local.set $x1 (v128.load offset=16 (local.get $pk)))
            (local.set $v (v128.load32_splat (local.get $wk)))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $v) (local.get $x0))))
            (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $v) (local.get $x1))))
            (local.set $v (v128.load32_splat offset=4 (local.get $wk)))
            (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $v) (local.get $x0))))
            (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $v) (local.get $x1))))
            (local.set $v (v128.load32_splat offset=8 (local.get $wk)))
            (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $v) (local.get $x0))))
            (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $v) (local.get $x1))))
            (local.set $v (v128.load32_splat offset=12 (local.get $wk)))
            (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $v) (local.get $x0))))
            (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $v) (local.get $x1))))
            (local.set $pk (i32.add (local.get $pk) (i32.const 32)))
            (local.set $e (i32.add (local.get $e) (i32.const 4)))
            (br_if $eachK (i32.lt_u (local.get $e) (local.get $end)))))
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
        (local.set $co (i32.add (local.get $co) (i32.const 4)))
        (br_if $eachCo (i32.lt_u (local.get $co) (local.get $cout))))
  )

  (func (export "conv")
    (param $p i32) (param $k9 i32) (param $stride i32) (param $pixels i32) (param $w i32) (param $b i32) (param $cout i32) (param $out i32) (param $list i32) (param $packed i32)
    (local $row i32) (local $wrow i32) (local $q i32)
    (local $pq i32) (local $pk i32) (local $wk i32) (local $wend i32) (local $e i32) (local $end i32)
    (local $x0 v128) (local $x1 v128)
    (local.set $row (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $wrow (i32.shl (local.get $k9) (i32.const 2)))
    ;; Pixels outside, channels inside: the k9 tap rows of eight pixels (a few kilobytes) are read from memory once
    ;; and stay in the cache while every channel group uses them (channels outside streamed the whole tap matrix,
    ;; hundreds of kilobytes, once per group).
    (local.set $q (i32.const 0))
    (loop $eachQ
      ;; The taps whose eight inputs are not all zero, gathered once for every channel group: their weight offsets
      ;; (k x 16) from `list` to `end`, and their eight inputs side by side (32 bytes each) from `packed`. A ReLU output
      ;; is zero in a fifth to a half of these blocks, and leaving a zero product out changes a sum at most by the
      ;; sign of a zero, which the ReLU at the end takes to +0 whichever it is: the outputs are the same floats.
      (local.set $pq (i32.add (local.get $p) (i32.shl (local.get $q) (i32.const 2))))
      (local.set $wend (i32.shl (local.get $wrow) (i32.const 2)))
      (local.set $end (local.get $list))
      (local.set $pk (local.get $packed))
      (local.set $wk (i32.const 0))
      (loop $eachTap
        (local.set $x0 (v128.load (local.get $pq)))
        (local.set $x1 (v128.load offset=16 (local.get $pq)))
        (i32.store (local.get $end) (local.get $wk))
        (v128.store (local.get $pk) (local.get $x0))
        (v128.store offset=16 (local.get $pk) (local.get $x1))
        (local.set $e (v128.any_true (v128.or (local.get $x0) (local.get $x1))))
        (local.set $end (i32.add (local.get $end) (i32.shl (local.get $e) (i32.const 2))))
        (local.set $pk (i32.add (local.get $pk) (i32.shl (local.get $e) (i32.const 5))))
        (local.set $pq (i32.add (local.get $pq) (local.get $row)))
        (local.set $wk (i32.add (local.get $wk) (i32.const 16)))
        (br_if $eachTap (i32.lt_u (local.get $wk) (local.get $wend))))
      (call $sums (local.get $q) (local.get $list) (local.get $end) (local.get $packed) (local.get $w) (local.get $wrow) (local.get $b)
        (local.get $cout) (local.get $out) (local.get $stride))
      (local.set $q (i32.add (local.get $q) (i32.const 8)))
      (br_if $eachQ (i32.lt_u (local.get $q) (local.get $pixels)))))

  ;; convRows(x, xstride, cin, n, w, b, cout, out, stride, list, packed): conv's outputs for a side n that is a multiple
  ;; of 8, read from the input planes themselves (cin planes n x n, xstride floats apart), no tap rows: a pass's eight
  ;; pixels lie in one row, so a tap's eight inputs are eight neighbours in one input row (a row outside the image:
  ;; the tap is left out, all its inputs 0; the column left of the first or right of the last: that lane 0).
  ;; A kernel row's three taps read one address moved by a float: their inputs start 4 bytes apart, and the edge
  ;; lanes are cleared by masks set once a pass (all ones inside the image, where the and changes no bit).
  (func (export "convRows")
    (param $x i32) (param $xstride i32) (param $cin i32) (param $n i32) (param $w i32) (param $b i32) (param $cout i32)
    (param $out i32) (param $stride i32) (param $list i32) (param $packed i32)
    (local $wrow i32) (local $q i32) (local $y i32) (local $x0 i32) (local $ci i32) (local $dy i32)
    (local $sy i32) (local $at i32) (local $cbase i32) (local $planeBytes i32) (local $rowBytes i32)
    (local $pk i32) (local $wk i32) (local $e i32) (local $end i32)
    (local $left v128) (local $right v128) (local $v0 v128) (local $v1 v128)
    (local.set $wrow (i32.mul (i32.mul (local.get $cin) (i32.const 9)) (i32.const 4)))
    (local.set $planeBytes (i32.shl (local.get $xstride) (i32.const 2)))
    (local.set $rowBytes (i32.shl (local.get $n) (i32.const 2)))
    (local.set $q (i32.const 0))
    (loop $eachQ
      (local.set $y (i32.div_u (local.get $q) (local.get $n)))
      (local.set $x0 (i32.sub (local.get $q) (i32.mul (local.get $y) (local.get $n))))
      ;; The column left of the first (tap dx -1, lane 0 of its first four) and right of the last (dx 1, lane 3 of
      ;; its last four) are padding.
      (local.set $left (v128.const i32x4 -1 -1 -1 -1))
      (if (i32.eqz (local.get $x0)) (then (local.set $left (v128.const i32x4 0 -1 -1 -1))))
      (local.set $right (v128.const i32x4 -1 -1 -1 -1))
      (if (i32.eq (i32.add (local.get $x0) (i32.const 8)) (local.get $n)) (then (local.set $right (v128.const i32x4 -1 -1 -1 0))))
      (local.set $end (local.get $list))
      (local.set $pk (local.get $packed))
      (local.set $wk (i32.const 0))
      ;; cbase: channel ci's input at row y - 1, column x0 - 1 (tap 0, 0 of the pass's first pixel).
      (local.set $cbase (i32.add (local.get $x)
        (i32.shl (i32.sub (i32.add (i32.mul (i32.sub (local.get $y) (i32.const 1)) (local.get $n)) (local.get $x0)) (i32.const 1)) (i32.const 2))))
      (local.set $ci (i32.const 0))
      (loop $eachCi
        (local.set $at (local.get $cbase))
        (local.set $dy (i32.const -1))
        (loop $eachDy
          (local.set $sy (i32.add (local.get $y) (local.get $dy)))
          (if (i32.lt_u (local.get $sy) (local.get $n))
            (then
              ;; Tap (ci, dy + 1, dx + 1) is weight row k = (ci * 3 + dy + 1) * 3 + dx + 1, 16 bytes a row.
              (local.set $v0 (v128.and (v128.load (local.get $at)) (local.get $left)))
              (local.set $v1 (v128.load offset=16 (local.get $at)))
              (i32.store (local.get $end) (local.get $wk))
              (v128.store (local.get $pk) (local.get $v0))
              (v128.store offset=16 (local.get $pk) (local.get $v1))
              (local.set $e (v128.any_true (v128.or (local.get $v0) (local.get $v1))))
              (local.set $end (i32.add (local.get $end) (i32.shl (local.get $e) (i32.const 2))))
              (local.set $pk (i32.add (local.get $pk) (i32.shl (local.get $e) (i32.const 5))))
              (local.set $v0 (v128.load offset=4 (local.get $at)))
              (local.set $v1 (v128.load offset=20 (local.get $at)))
              (i32.store (local.get $end) (i32.add (local.get $wk) (i32.const 16)))
              (v128.store (local.get $pk) (local.get $v0))
              (v128.store offset=16 (local.get $pk) (local.get $v1))
              (local.set $e (v128.any_true (v128.or (local.get $v0) (local.get $v1))))
              (local.set $end (i32.add (local.get $end) (i32.shl (local.get $e) (i32.const 2))))
              (local.set $pk (i32.add (local.get $pk) (i32.shl (local.get $e) (i32.const 5))))
              (local.set $v0 (v128.load offset=8 (local.get $at)))
              (local.set $v1 (v128.and (v128.load offset=24 (local.get $at)) (local.get $right)))
              (i32.store (local.get $end) (i32.add (local.get $wk) (i32.const 32)))
              (v128.store (local.get $pk) (local.get $v0))
              (v128.store offset=16 (local.get $pk) (local.get $v1))
              (local.set $e (v128.any_true (v128.or (local.get $v0) (local.get $v1))))
              (local.set $end (i32.add (local.get $end) (i32.shl (local.get $e) (i32.const 2))))
              (local.set $pk (i32.add (local.get $pk) (i32.shl (local.get $e) (i32.const 5))))))
          (local.set $wk (i32.add (local.get $wk) (i32.const 48)))
          (local.set $at (i32.add (local.get $at) (local.get $rowBytes)))
          (local.set $dy (i32.add (local.get $dy) (i32.const 1)))
          (br_if $eachDy (i32.le_s (local.get $dy) (i32.const 1))))
        (local.set $cbase (i32.add (local.get $cbase) (local.get $planeBytes)))
        (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
        (br_if $eachCi (i32.lt_u (local.get $ci) (local.get $cin))))
      (call $sums (local.get $q) (local.get $list) (local.get $end) (local.get $packed) (local.get $w) (local.get $wrow) (local.get $b)
        (local.get $cout) (local.get $out) (local.get $stride))
      (local.set $q (i32.add (local.get $q) (i32.const 8)))
      (br_if $eachQ (i32.lt_u (local.get $q) (i32.mul (local.get $n) (local.get $n))))))

  ;; convQuads(x, xstride, cin, w, b, cout, out, stride, list, packed): conv's outputs (16 pixels, rows of out `stride`
  ;; floats apart) for a side of 4, read from the input planes without tap rows: a pass's eight pixels are two rows
  ;; of four, so a tap's inputs are four neighbours in each of two input rows. What the tap rows held is rebuilt
  ;; lane for lane: a row outside the image gives +0s (its four lanes cleared: the address read is in the memory,
  ;; whatever it holds), and so do the column left of the first (tap dx -1, lane 0) and right of the last (dx 1,
  ;; lane 3). The same eight inputs a tap, so the same taps left out and the same sums. x must not overlap out.
  (func (export "convQuads")
    (param $x i32) (param $xstride i32) (param $cin i32) (param $w i32) (param $b i32) (param $cout i32)
    (param $out i32) (param $stride i32) (param $list i32) (param $packed i32)
    (local $wrow i32) (local $q i32) (local $y i32) (local $ci i32) (local $dy i32) (local $at i32) (local $cbase i32)
    (local $planeBytes i32) (local $pk i32) (local $wk i32) (local $e i32) (local $end i32)
    (local $up v128) (local $down v128) (local $v0 v128) (local $v1 v128)
    (local.set $wrow (i32.mul (i32.mul (local.get $cin) (i32.const 9)) (i32.const 4)))
    (local.set $planeBytes (i32.shl (local.get $xstride) (i32.const 2)))
    (local.set $q (i32.const 0))
    (loop $eachQ
      (local.set $y (i32.shr_u (local.get $q) (i32.const 2)))
      (local.set $end (local.get $list))
      (local.set $pk (local.get $packed))
      (local.set $wk (i32.const 0))
      ;; cbase: channel ci's input at row y - 1, column -1 (tap 0, 0 of the pass's first pixel).
      (local.set $cbase (i32.add (local.get $x) (i32.shl (i32.sub (i32.shl (i32.sub (local.get $y) (i32.const 1)) (i32.const 2)) (i32.const 1)) (i32.const 2))))
      (local.set $ci (i32.const 0))
      (loop $eachCi
        (local.set $at (local.get $cbase))
        (local.set $dy (i32.const -1))
        (loop $eachDy
          ;; All ones where the pass's first (up) and second (down) row see a row inside the image, else zeros.
          (local.set $up (i32x4.splat (i32.sub (i32.const 0) (i32.lt_u (i32.add (local.get $y) (local.get $dy)) (i32.const 4)))))
          (local.set $down (i32x4.splat (i32.sub (i32.const 0) (i32.lt_u (i32.add (i32.add (local.get $y) (local.get $dy)) (i32.const 1)) (i32.const 4)))))
          (local.set $v0 (v128.and (v128.and (v128.load (local.get $at)) (local.get $up)) (v128.const i32x4 0 -1 -1 -1)))
          (local.set $v1 (v128.and (v128.and (v128.load offset=16 (local.get $at)) (local.get $down)) (v128.const i32x4 0 -1 -1 -1)))
          (i32.store (local.get $end) (local.get $wk))
          (v128.store (local.get $pk) (local.get $v0))
          (v128.store offset=16 (local.get $pk) (local.get $v1))
          (local.set $e (v128.any_true (v128.or (local.get $v0) (local.get $v1))))
          (local.set $end (i32.add (local.get $end) (i32.shl (local.get $e) (i32.const 2))))
          (local.set $pk (i32.add (local.get $pk) (i32.shl (local.get $e) (i32.const 5))))
          (local.set $v0 (v128.and (v128.load offset=4 (local.get $at)) (local.get $up)))
          (local.set $v1 (v128.and (v128.load offset=20 (local.get $at)) (local.get $down)))
          (i32.store (local.get $end) (i32.add (local.get $wk) (i32.const 16)))
          (v128.store (local.get $pk) (local.get $v0))
          (v128.store offset=16 (local.get $pk) (local.get $v1))
          (local.set $e (v128.any_true (v128.or (local.get $v0) (local.get $v1))))
          (local.set $end (i32.add (local.get $end) (i32.shl (local.get $e) (i32.const 2))))
          (local.set $pk (i32.add (local.get $pk) (i32.shl (local.get $e) (i32.const 5))))
          (local.set $v0 (v128.and (v128.and (v128.load offset=8 (local.get $at)) (local.get $up)) (v128.const i32x4 -1 -1 -1 0)))
          (local.set $v1 (v128.and (v128.and (v128.load offset=24 (local.get $at)) (local.get $down)) (v128.const i32x4 -1 -1 -1 0)))
          (i32.store (local.get $end) (i32.add (local.get $wk) (i32.const 32)))
          (v128.store (local.get $pk) (local.get $v0))
          (v128.store offset=16 (local.get $pk) (local.get $v1))
          (local.set $e (v128.any_true (v128.or (local.get $v0) (local.get $v1))))
          (local.set $end (i32.add (local.get $end) (i32.shl (local.get $e) (i32.const 2))))
          (local.set $pk (i32.add (local.get $pk) (i32.shl (local.get $e) (i32.const 5))))
          (local.set $wk (i32.add (local.get $wk) (i32.const 48)))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (local.set $dy (i32.add (local.get $dy) (i32.const 1)))
          (br_if $eachDy (i32.le_s (local.get $dy) (i32.const 1))))
        (local.set $cbase (i32.add (local.get $cbase) (local.get $planeBytes)))
        (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
        (br_if $eachCi (i32.lt_u (local.get $ci) (local.get $cin))))
      (call $sums (local.get $q) (local.get $list) (local.get $end) (local.get $packed) (local.get $w) (local.get $wrow) (local.get $b)
        (local.get $cout) (local.get $out) (local.get $stride))
      (local.set $q (i32.add (local.get $q) (i32.const 8)))
      (br_if $eachQ (i32.lt_u (local.get $q) (i32.const 16)))))

  ;; Training's sums, in double precision as TinyNet's plain loops make them (convKernels.ts), so each float32
  ;; result is the loops' own to the bit: a product of two float32 is exact in a double, every sum is added in the
  ;; loops' order, and the result is rounded to float32 once, as a store into a Float32Array rounds it.
  ;;
  ;; trainConv(p, k9, stride, w, b, cout, out): for every output channel co < cout and pixel q < stride,
  ;;   out[co * stride + q] = f32(b[co] + sum_k w[co * k9 + k] * p[k * stride + q]), summed in double, k in order,
  ;; w and b float32, no ReLU. cout a positive multiple of 4, stride of 4. A pass takes four channels of four
  ;; pixels: eight f64x2 sums, started at the biases, fed per tap by two loads of two pixels and four weights.
  (func (export "trainConv")
    (param $p i32) (param $k9 i32) (param $stride i32) (param $w i32) (param $b i32) (param $cout i32) (param $out i32)
    (local $row i32) (local $wrow i32) (local $co i32) (local $q i32)
    (local $w0 i32) (local $w1 i32) (local $w2 i32) (local $w3 i32)
    (local $pk i32) (local $wk i32) (local $o i32)
    (local $bias0 v128) (local $bias1 v128) (local $bias2 v128) (local $bias3 v128)
    (local $x0 v128) (local $x1 v128) (local $v v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $row (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $wrow (i32.shl (local.get $k9) (i32.const 2)))
    (local.set $co (i32.const 0))
    (loop $eachCo
      (local.set $w0 (i32.add (local.get $w) (i32.mul (local.get $co) (local.get $wrow))))
      (local.set $w1 (i32.add (local.get $w0) (local.get $wrow)))
      (local.set $w2 (i32.add (local.get $w1) (local.get $wrow)))
      (local.set $w3 (i32.add (local.get $w2) (local.get $wrow)))
      (local.set $bias0 (f64x2.promote_low_f32x4 (v128.load32_splat (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2))))))
      (local.set $bias1 (f64x2.promote_low_f32x4 (v128.load32_splat offset=4 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2))))))
      (local.set $bias2 (f64x2.promote_low_f32x4 (v128.load32_splat offset=8 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2))))))
      (local.set $bias3 (f64x2.promote_low_f32x4 (v128.load32_splat offset=12 (i32.add (local.get $b) (i32.shl (local.get $co) (i32.const 2))))))
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
        (local.set $pk (i32.add (local.get $p) (i32.shl (local.get $q) (i32.const 2))))
        (local.set $wk (i32.const 0))
        (loop $eachK
          ;; Pixels q, q+1 (x0) and q+2, q+3 (x1) of tap row k, in double.
          (local.set $x0 (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $pk))))
          (local.set $x1 (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $pk))))
          (local.set $v (f64x2.promote_low_f32x4 (v128.load32_splat (i32.add (local.get $w0) (local.get $wk)))))
          (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $v) (local.get $x0))))
          (local.set $c0 (f64x2.add (local.get $c0) (f64x2.mul (local.get $v) (local.get $x1))))
          (local.set $v (f64x2.promote_low_f32x4 (v128.load32_splat (i32.add (local.get $w1) (local.get $wk)))))
          (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $v) (local.get $x0))))
          (local.set $c1 (f64x2.add (local.get $c1) (f64x2.mul (local.get $v) (local.get $x1))))
          (local.set $v (f64x2.promote_low_f32x4 (v128.load32_splat (i32.add (local.get $w2) (local.get $wk)))))
          (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $v) (local.get $x0))))
          (local.set $c2 (f64x2.add (local.get $c2) (f64x2.mul (local.get $v) (local.get $x1))))
          (local.set $v (f64x2.promote_low_f32x4 (v128.load32_splat (i32.add (local.get $w3) (local.get $wk)))))
          (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $v) (local.get $x0))))
          (local.set $c3 (f64x2.add (local.get $c3) (f64x2.mul (local.get $v) (local.get $x1))))
          (local.set $pk (i32.add (local.get $pk) (local.get $row)))
          (local.set $wk (i32.add (local.get $wk) (i32.const 4)))
          (br_if $eachK (i32.lt_u (local.get $wk) (local.get $wrow))))
        ;; Rounded to float32 (two pixels in each half's low lanes), four pixels to a store, channels a row apart.
        (local.set $o (i32.add (local.get $out)
          (i32.shl (i32.add (i32.mul (local.get $co) (local.get $stride)) (local.get $q)) (i32.const 2))))
        (v128.store (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
          (f32x4.demote_f64x2_zero (local.get $a0)) (f32x4.demote_f64x2_zero (local.get $c0))))
        (local.set $o (i32.add (local.get $o) (local.get $row)))
        (v128.store (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
          (f32x4.demote_f64x2_zero (local.get $a1)) (f32x4.demote_f64x2_zero (local.get $c1))))
        (local.set $o (i32.add (local.get $o) (local.get $row)))
        (v128.store (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
          (f32x4.demote_f64x2_zero (local.get $a2)) (f32x4.demote_f64x2_zero (local.get $c2))))
        (local.set $o (i32.add (local.get $o) (local.get $row)))
        (v128.store (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
          (f32x4.demote_f64x2_zero (local.get $a3)) (f32x4.demote_f64x2_zero (local.get $c3))))
        (local.set $q (i32.add (local.get $q) (i32.const 4)))
        (br_if $eachQ (i32.lt_u (local.get $q) (local.get $stride))))
      (local.set $co (i32.add (local.get $co) (i32.const 4)))
      (br_if $eachCo (i32.lt_u (local.get $co) (local.get $cout)))))

  ;; weightSums(p, k4, stride, plane, g, cout4, acc): for every output channel co < cout4 and tap row k < k4,
  ;;   acc[co * k4 + k] = sum over q < plane, in order, of g[q * cout4 + co] * p[k * stride + q], in double,
  ;; g float32 (the output gradients pixel after pixel, cout4 channels each), acc double. k4 and cout4 positive
  ;; multiples of 4 (padding channels with zero gradients, padding tap rows any finite numbers: their sums are
  ;; ignored). A pass takes four channels (two f64x2 of two) by four tap rows: eight sums, fed per pixel by one
  ;; load of the four channels' gradients and four tap values.
  (func (export "weightSums")
    (param $p i32) (param $k4 i32) (param $stride i32) (param $plane i32) (param $g i32) (param $cout4 i32) (param $acc i32)
    (local $co i32) (local $k i32) (local $q i32) (local $row i32) (local $gq i32) (local $pq i32) (local $end i32) (local $o i32)
    (local $g01 v128) (local $g23 v128) (local $t v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $row (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $co (i32.const 0))
    (loop $eachCo
      (local.set $k (i32.const 0))
      (loop $eachK
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (local.set $c0 (v128.const i64x2 0 0))
        (local.set $c1 (v128.const i64x2 0 0))
        (local.set $c2 (v128.const i64x2 0 0))
        (local.set $c3 (v128.const i64x2 0 0))
        ;; gq walks the gradients of channels co..co+3, pixel after pixel; pq tap row k at pixel q.
        (local.set $gq (i32.add (local.get $g) (i32.shl (local.get $co) (i32.const 2))))
        (local.set $pq (i32.add (local.get $p) (i32.mul (local.get $k) (local.get $row))))
        (local.set $end (i32.add (local.get $pq) (i32.shl (local.get $plane) (i32.const 2))))
        (loop $eachQ
          (local.set $g01 (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $gq))))
          (local.set $g23 (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $gq))))
          (local.set $t (f64x2.splat (f64.promote_f32 (f32.load (local.get $pq)))))
          (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $g01) (local.get $t))))
          (local.set $c0 (f64x2.add (local.get $c0) (f64x2.mul (local.get $g23) (local.get $t))))
          (local.set $t (f64x2.splat (f64.promote_f32 (f32.load (i32.add (local.get $pq) (local.get $row))))))
          (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $g01) (local.get $t))))
          (local.set $c1 (f64x2.add (local.get $c1) (f64x2.mul (local.get $g23) (local.get $t))))
          (local.set $t (f64x2.splat (f64.promote_f32 (f32.load (i32.add (local.get $pq) (i32.shl (local.get $row) (i32.const 1)))))))
          (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $g01) (local.get $t))))
          (local.set $c2 (f64x2.add (local.get $c2) (f64x2.mul (local.get $g23) (local.get $t))))
          (local.set $t (f64x2.splat (f64.promote_f32 (f32.load (i32.add (local.get $pq) (i32.mul (local.get $row) (i32.const 3)))))))
          (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $g01) (local.get $t))))
          (local.set $c3 (f64x2.add (local.get $c3) (f64x2.mul (local.get $g23) (local.get $t))))
          (local.set $gq (i32.add (local.get $gq) (i32.shl (local.get $cout4) (i32.const 2))))
          (local.set $pq (i32.add (local.get $pq) (i32.const 4)))
          (br_if $eachQ (i32.lt_u (local.get $pq) (local.get $end))))
        ;; acc[co + j][k .. k+3]: a0..a3 hold channels co, co+1 of tap rows k..k+3, c0..c3 channels co+2, co+3.
        (local.set $o (i32.add (local.get $acc) (i32.shl (i32.add (i32.mul (local.get $co) (local.get $k4)) (local.get $k)) (i32.const 3))))
        (v128.store (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a0) (local.get $a1)))
        (v128.store offset=16 (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $a2) (local.get $a3)))
        (local.set $o (i32.add (local.get $o) (i32.shl (local.get $k4) (i32.const 3))))
        (v128.store (local.get $o) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a0) (local.get $a1)))
        (v128.store offset=16 (local.get $o) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $a2) (local.get $a3)))
        (local.set $o (i32.add (local.get $o) (i32.shl (local.get $k4) (i32.const 3))))
        (v128.store (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c0) (local.get $c1)))
        (v128.store offset=16 (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $c2) (local.get $c3)))
        (local.set $o (i32.add (local.get $o) (i32.shl (local.get $k4) (i32.const 3))))
        (v128.store (local.get $o) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c0) (local.get $c1)))
        (v128.store offset=16 (local.get $o) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $c2) (local.get $c3)))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br_if $eachK (i32.lt_u (local.get $k) (local.get $k4))))
      (local.set $co (i32.add (local.get $co) (i32.const 4)))
      (br_if $eachCo (i32.lt_u (local.get $co) (local.get $cout4)))))
  ;; inputScatter(gy, n, cin, cout, w, gp): the input's gradient as convKernels.ts's inputGradients makes it: from
  ;; each non-zero output gradient g (gy: cout planes n x n, f32), visited channel by channel in reverse raster
  ;; order, each of the nine input pixels tap (ky, kx) reads gets f32(its value + w * g) in double (w: the layer's
  ;; float32 weights [cout][cin][3][3]), into gp: cin planes (n + 2) x (n + 2), zeroed by the caller, with a ring for
  ;; the border taps and four floats more at the end. A row of three taps is one four-float load and store, the
  ;; fourth pixel getting f32(v + 0 * g) = v (a product of floats is exact in double, so never a -0 to flip a +0).
  (func (export "inputScatter")
    (param $gy i32) (param $n i32) (param $cin i32) (param $cout i32) (param $w i32) (param $gp i32)
    (local $m i32) (local $mm i32) (local $plane i32) (local $co i32) (local $yy i32) (local $xx i32) (local $ci i32)
    (local $gat i32) (local $p i32) (local $wo i32) (local $row i32) (local $g v128) (local $v v128)
    (local.set $m (i32.add (local.get $n) (i32.const 2)))
    (local.set $mm (i32.shl (i32.mul (local.get $m) (local.get $m)) (i32.const 2)))
    (local.set $row (i32.shl (local.get $m) (i32.const 2)))
    (local.set $plane (i32.mul (local.get $n) (local.get $n)))
    (local.set $co (i32.const 0))
    (loop $eachCo
      (local.set $yy (i32.sub (local.get $n) (i32.const 1)))
      (loop $eachYy
        (local.set $xx (i32.sub (local.get $n) (i32.const 1)))
        (loop $eachXx
          (local.set $gat (i32.add (local.get $gy) (i32.shl
            (i32.add (i32.mul (local.get $co) (local.get $plane)) (i32.add (i32.mul (local.get $yy) (local.get $n)) (local.get $xx))) (i32.const 2))))
          (if (f32.ne (f32.load (local.get $gat)) (f32.const 0))
            (then
              (local.set $g (f64x2.splat (f64.promote_f32 (f32.load (local.get $gat)))))
              ;; p: the top-left pixel (tap 0, 0) this output reads, in plane 0 of gp; wo: its weights for ci 0.
              (local.set $p (i32.add (local.get $gp) (i32.shl (i32.add (i32.mul (local.get $yy) (local.get $m)) (local.get $xx)) (i32.const 2))))
              (local.set $wo (i32.add (local.get $w) (i32.mul (i32.mul (local.get $co) (local.get $cin)) (i32.const 36))))
              (local.set $ci (i32.const 0))
              (loop $eachCi
                (local.set $v (v128.load (local.get $p)))
                (v128.store (local.get $p) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                  (f32x4.demote_f64x2_zero (f64x2.add (f64x2.promote_low_f32x4 (local.get $v))
                    (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=0 (local.get $wo))) (local.get $g))))
                  (f32x4.demote_f64x2_zero (f64x2.add (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
                    (f64x2.mul (f64x2.replace_lane 0 (v128.const i64x2 0 0) (f64.promote_f32 (f32.load offset=8 (local.get $wo)))) (local.get $g))))))
                (local.set $v (v128.load (i32.add (local.get $p) (local.get $row))))
                (v128.store (i32.add (local.get $p) (local.get $row)) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                  (f32x4.demote_f64x2_zero (f64x2.add (f64x2.promote_low_f32x4 (local.get $v))
                    (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=12 (local.get $wo))) (local.get $g))))
                  (f32x4.demote_f64x2_zero (f64x2.add (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
                    (f64x2.mul (f64x2.replace_lane 0 (v128.const i64x2 0 0) (f64.promote_f32 (f32.load offset=20 (local.get $wo)))) (local.get $g))))))
                (local.set $v (v128.load (i32.add (local.get $p) (i32.shl (local.get $row) (i32.const 1)))))
                (v128.store (i32.add (local.get $p) (i32.shl (local.get $row) (i32.const 1))) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                  (f32x4.demote_f64x2_zero (f64x2.add (f64x2.promote_low_f32x4 (local.get $v))
                    (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 (local.get $wo))) (local.get $g))))
                  (f32x4.demote_f64x2_zero (f64x2.add (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
                    (f64x2.mul (f64x2.replace_lane 0 (v128.const i64x2 0 0) (f64.promote_f32 (f32.load offset=32 (local.get $wo)))) (local.get $g))))))
                (local.set $p (i32.add (local.get $p) (local.get $mm)))
                (local.set $wo (i32.add (local.get $wo) (i32.const 36)))
                (local.set $ci (i32.add (local.get $ci) (i32.const 1)))
                (br_if $eachCi (i32.lt_u (local.get $ci) (local.get $cin))))))
          (local.set $xx (i32.sub (local.get $xx) (i32.const 1)))
          (br_if $eachXx (i32.ge_s (local.get $xx) (i32.const 0))))
        (local.set $yy (i32.sub (local.get $yy) (i32.const 1)))
        (br_if $eachYy (i32.ge_s (local.get $yy) (i32.const 0))))
      (local.set $co (i32.add (local.get $co) (i32.const 1)))
      (br_if $eachCo (i32.lt_u (local.get $co) (local.get $cout))))))
