;; The two sums of a softmax-regression fit's step (fitSoftmax in softmaxFit.ts) with 128-bit SIMD, in double
;; precision: what calibration (--learn-faces, X-Wing profiles) waits on. Compiled by `npx tsx scripts/wasm-kernel.ts`
;; into softmaxFitWasm.ts; test/vision/softmaxFit.test.ts checks the two agree with the plain loops to the bit.
;; All addresses are byte offsets into the imported memory, every number an f64.
;;
;; Each number is summed in the order of the plain loops, each product rounded before it is added (wasm has no fused
;; multiply-add), so the results are those of the plain loops to the bit: the lanes only run several sums side by side.
;;
;; logits(xq, quads, d, w, b, k, z): for every sample s < 4 * quads and class j < k,
;;   z[s * k + j] = b[j] + w[j * d] * x[s][0] + w[j * d + 1] * x[s][1] + ... (added left to right)
;; where x[s][c] sits at xq + ((s >> 2) * d + c) * 32 + (s & 3) * 8: four samples' c-th numbers side by side. k must be
;; a positive multiple of 3 (pad the classes with zero rows). Each pass takes four samples and three classes: six
;; accumulators, started at the biases, fed by two loads of the samples and three broadcast weights a number.
;;
;; grad(xr, pairs, d, g, k, gw): for every class j < k and c < d, over samples s < 2 * pairs in order,
;;   gw[j * d + c] += g[s * k + j] * x[s][c]
;; where x[s][c] sits at xr + (s * d + c) * 8 (sample after sample). Two numbers of a row at a time (the last alone when
;; d is odd), two samples at a time: (gw + g0 * x0) + g1 * x1, the order of one sample after the other.
(module
  (import "env" "memory" (memory 1))

  (func (export "logits")
    (param $xq i32) (param $quads i32) (param $d i32) (param $w i32) (param $b i32) (param $k i32) (param $z i32)
    (local $q i32) (local $j i32) (local $xp i32) (local $xe i32) (local $w0 i32) (local $w1 i32) (local $w2 i32)
    (local $zp i32) (local $rowBytes i32) (local $kBytes i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $a4 v128) (local $a5 v128)
    (local $v0 v128) (local $v1 v128) (local $s v128)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $kBytes (i32.shl (local.get $k) (i32.const 3)))
    (local.set $q (i32.const 0))
    (block $done
      (loop $eachQuad
        (br_if $done (i32.ge_u (local.get $q) (local.get $quads)))
        (local.set $j (i32.const 0))
        (loop $eachClasses
          (local.set $a0 (f64x2.splat (f64.load (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 3))))))
          (local.set $a1 (local.get $a0))
          (local.set $a2 (f64x2.splat (f64.load offset=8 (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 3))))))
          (local.set $a3 (local.get $a2))
          (local.set $a4 (f64x2.splat (f64.load offset=16 (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 3))))))
          (local.set $a5 (local.get $a4))
          (local.set $xp (i32.add (local.get $xq) (i32.mul (local.get $q) (i32.shl (local.get $d) (i32.const 5)))))
          (local.set $xe (i32.add (local.get $xp) (i32.shl (local.get $d) (i32.const 5))))
          (local.set $w0 (i32.add (local.get $w) (i32.mul (local.get $j) (local.get $rowBytes))))
          (local.set $w1 (i32.add (local.get $w0) (local.get $rowBytes)))
          (local.set $w2 (i32.add (local.get $w1) (local.get $rowBytes)))
          (block $noNumbers
            (br_if $noNumbers (i32.ge_u (local.get $xp) (local.get $xe)))
            (loop $eachNumber
              (local.set $v0 (v128.load (local.get $xp)))
              (local.set $v1 (v128.load offset=16 (local.get $xp)))
              (local.set $s (f64x2.splat (f64.load (local.get $w0))))
              (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $s) (local.get $v0))))
              (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $s) (local.get $v1))))
              (local.set $s (f64x2.splat (f64.load (local.get $w1))))
              (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $s) (local.get $v0))))
              (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $s) (local.get $v1))))
              (local.set $s (f64x2.splat (f64.load (local.get $w2))))
              (local.set $a4 (f64x2.add (local.get $a4) (f64x2.mul (local.get $s) (local.get $v0))))
              (local.set $a5 (f64x2.add (local.get $a5) (f64x2.mul (local.get $s) (local.get $v1))))
              (local.set $xp (i32.add (local.get $xp) (i32.const 32)))
              (local.set $w0 (i32.add (local.get $w0) (i32.const 8)))
              (local.set $w1 (i32.add (local.get $w1) (i32.const 8)))
              (local.set $w2 (i32.add (local.get $w2) (i32.const 8)))
              (br_if $eachNumber (i32.lt_u (local.get $xp) (local.get $xe)))))
          ;; The four samples' rows of z, classes j..j+2 of each.
          (local.set $zp (i32.add (local.get $z)
            (i32.shl (i32.add (i32.mul (i32.shl (local.get $q) (i32.const 2)) (local.get $k)) (local.get $j)) (i32.const 3))))
          (f64.store (local.get $zp) (f64x2.extract_lane 0 (local.get $a0)))
          (f64.store offset=8 (local.get $zp) (f64x2.extract_lane 0 (local.get $a2)))
          (f64.store offset=16 (local.get $zp) (f64x2.extract_lane 0 (local.get $a4)))
          (local.set $zp (i32.add (local.get $zp) (local.get $kBytes)))
          (f64.store (local.get $zp) (f64x2.extract_lane 1 (local.get $a0)))
          (f64.store offset=8 (local.get $zp) (f64x2.extract_lane 1 (local.get $a2)))
          (f64.store offset=16 (local.get $zp) (f64x2.extract_lane 1 (local.get $a4)))
          (local.set $zp (i32.add (local.get $zp) (local.get $kBytes)))
          (f64.store (local.get $zp) (f64x2.extract_lane 0 (local.get $a1)))
          (f64.store offset=8 (local.get $zp) (f64x2.extract_lane 0 (local.get $a3)))
          (f64.store offset=16 (local.get $zp) (f64x2.extract_lane 0 (local.get $a5)))
          (local.set $zp (i32.add (local.get $zp) (local.get $kBytes)))
          (f64.store (local.get $zp) (f64x2.extract_lane 1 (local.get $a1)))
          (f64.store offset=8 (local.get $zp) (f64x2.extract_lane 1 (local.get $a3)))
          (f64.store offset=16 (local.get $zp) (f64x2.extract_lane 1 (local.get $a5)))
          (local.set $j (i32.add (local.get $j) (i32.const 3)))
          (br_if $eachClasses (i32.lt_u (local.get $j) (local.get $k))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $eachQuad))))

  (func (export "grad")
    (param $xr i32) (param $pairs i32) (param $d i32) (param $g i32) (param $k i32) (param $gw i32)
    (local $p i32) (local $j i32) (local $x0 i32) (local $x1 i32) (local $gp i32) (local $ge i32) (local $gg i32)
    (local $rowBytes i32) (local $kBytes i32) (local $evenBytes i32)
    (local $s0 v128) (local $s1 v128)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 3)))
    (local.set $kBytes (i32.shl (local.get $k) (i32.const 3)))
    (local.set $evenBytes (i32.shl (i32.and (local.get $d) (i32.const -2)) (i32.const 3)))
    (local.set $p (i32.const 0))
    (block $done
      (loop $eachPair
        (br_if $done (i32.ge_u (local.get $p) (local.get $pairs)))
        ;; gg: the pair's first sample's factors g[2p * k ..].
        (local.set $gg (i32.add (local.get $g) (i32.mul (i32.shl (local.get $p) (i32.const 1)) (local.get $kBytes))))
        (local.set $j (i32.const 0))
        (loop $eachClass
          (local.set $s0 (f64x2.splat (f64.load (i32.add (local.get $gg) (i32.shl (local.get $j) (i32.const 3))))))
          (local.set $s1 (f64x2.splat (f64.load (i32.add (i32.add (local.get $gg) (local.get $kBytes)) (i32.shl (local.get $j) (i32.const 3))))))
          (local.set $x0 (i32.add (local.get $xr) (i32.mul (i32.shl (local.get $p) (i32.const 1)) (local.get $rowBytes))))
          (local.set $x1 (i32.add (local.get $x0) (local.get $rowBytes)))
          (local.set $gp (i32.add (local.get $gw) (i32.mul (local.get $j) (local.get $rowBytes))))
          (local.set $ge (i32.add (local.get $gp) (local.get $evenBytes)))
          (block $noPairs
            (br_if $noPairs (i32.ge_u (local.get $gp) (local.get $ge)))
            (loop $eachTwo
              (v128.store (local.get $gp)
                (f64x2.add
                  (f64x2.add (v128.load (local.get $gp)) (f64x2.mul (local.get $s0) (v128.load (local.get $x0))))
                  (f64x2.mul (local.get $s1) (v128.load (local.get $x1)))))
              (local.set $gp (i32.add (local.get $gp) (i32.const 16)))
              (local.set $x0 (i32.add (local.get $x0) (i32.const 16)))
              (local.set $x1 (i32.add (local.get $x1) (i32.const 16)))
              (br_if $eachTwo (i32.lt_u (local.get $gp) (local.get $ge)))))
          ;; An odd d's last number.
          (if (i32.and (local.get $d) (i32.const 1))
            (then
              (f64.store (local.get $gp)
                (f64.add
                  (f64.add (f64.load (local.get $gp)) (f64.mul (f64x2.extract_lane 0 (local.get $s0)) (f64.load (local.get $x0))))
                  (f64.mul (f64x2.extract_lane 0 (local.get $s1)) (f64.load (local.get $x1)))))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br_if $eachClass (i32.lt_u (local.get $j) (local.get $k))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $eachPair))))
)
