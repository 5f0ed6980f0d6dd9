;; The grey image of 4x4 blocks of an RGB frame (image.ts downscaleToGray, factor 4): each block's R + 2G + B summed
;; over its 16 pixels, over 64, rounded half up, exactly as the JavaScript word path works it out. The settle check
;; shrinks every camera frame this way; in vectors it takes a fraction of the JavaScript loop's time.
;; Sixteen pixels (48 bytes, three vectors) of four rows at a time make four blocks: the rows are added as 16-bit
;; lanes, each lane weighted by its channel and added in pairs (a pair never spans two blocks: blocks are 12 bytes,
;; pairs start at even bytes), then each block's six pair sums are gathered and added.
(module
  (import "env" "memory" (memory 1))

  ;; rgb: the frame, width x height x 3 bytes; width a multiple of 16. out: (width / 4) x (height / 4) bytes.
  (func (export "gray4") (param $rgb i32) (param $width i32) (param $height i32) (param $out i32)
    (local $row i32) (local $row2 i32) (local $row3 i32) (local $blockRows i32) (local $x i32) (local $rowEnd i32) (local $p i32)
    (local $w0 v128) (local $w1 v128) (local $w2 v128)
    (local $d0 v128) (local $d1 v128) (local $d2 v128) (local $d3 v128) (local $d4 v128) (local $d5 v128)
    (local $a v128) (local $b v128) (local $c v128) (local $e v128)
    ;; Channel weights (r 1, g 2, b 1) of eight bytes starting at r (bytes 0-7 and 24-31 of the 48), at g (16-23 and
    ;; 40-47) and at b (8-15 and 32-39).
    (local.set $w0 (v128.const i16x8 1 2 1 1 2 1 1 2))
    (local.set $w1 (v128.const i16x8 2 1 1 2 1 1 2 1))
    (local.set $w2 (v128.const i16x8 1 1 2 1 1 2 1 1))
    (local.set $row (i32.mul (local.get $width) (i32.const 3)))
    (local.set $row2 (i32.shl (local.get $row) (i32.const 1)))
    (local.set $row3 (i32.mul (local.get $row) (i32.const 3)))
    (local.set $blockRows (i32.div_u (local.get $height) (i32.const 4)))
    (block $done
      (loop $blockRow
        (br_if $done (i32.eqz (local.get $blockRows)))
        (local.set $x (local.get $rgb))
        (local.set $rowEnd (i32.add (local.get $rgb) (local.get $row)))
        (block $rowDone
          (loop $group
            (br_if $rowDone (i32.ge_u (local.get $x) (local.get $rowEnd)))
            ;; Vector 0 (bytes 0-15) of the four rows, each row loaded once: low and high halves as 16-bit column sums,
            ;; weighted, in pairs.
            (local.set $p (local.get $x))
            (local.set $a (v128.load (local.get $p)))
            (local.set $b (v128.load (i32.add (local.get $p) (local.get $row))))
            (local.set $c (v128.load (i32.add (local.get $p) (local.get $row2))))
            (local.set $e (v128.load (i32.add (local.get $p) (local.get $row3))))
            (local.set $d0 (i16x8.add
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $a)) (i16x8.extend_low_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $c)) (i16x8.extend_low_i8x16_u (local.get $e)))))
            (local.set $d1 (i16x8.add
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $a)) (i16x8.extend_high_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $c)) (i16x8.extend_high_i8x16_u (local.get $e)))))
            (local.set $d0 (i32x4.dot_i16x8_s (local.get $d0) (local.get $w0)))
            (local.set $d1 (i32x4.dot_i16x8_s (local.get $d1) (local.get $w2)))
            ;; Vector 1 (bytes 16-31).
            (local.set $p (i32.add (local.get $x) (i32.const 16)))
            (local.set $a (v128.load (local.get $p)))
            (local.set $b (v128.load (i32.add (local.get $p) (local.get $row))))
            (local.set $c (v128.load (i32.add (local.get $p) (local.get $row2))))
            (local.set $e (v128.load (i32.add (local.get $p) (local.get $row3))))
            (local.set $d2 (i16x8.add
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $a)) (i16x8.extend_low_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $c)) (i16x8.extend_low_i8x16_u (local.get $e)))))
            (local.set $d3 (i16x8.add
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $a)) (i16x8.extend_high_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $c)) (i16x8.extend_high_i8x16_u (local.get $e)))))
            (local.set $d2 (i32x4.dot_i16x8_s (local.get $d2) (local.get $w1)))
            (local.set $d3 (i32x4.dot_i16x8_s (local.get $d3) (local.get $w0)))
            ;; Vector 2 (bytes 32-47).
            (local.set $p (i32.add (local.get $x) (i32.const 32)))
            (local.set $a (v128.load (local.get $p)))
            (local.set $b (v128.load (i32.add (local.get $p) (local.get $row))))
            (local.set $c (v128.load (i32.add (local.get $p) (local.get $row2))))
            (local.set $e (v128.load (i32.add (local.get $p) (local.get $row3))))
            (local.set $d4 (i16x8.add
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $a)) (i16x8.extend_low_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $c)) (i16x8.extend_low_i8x16_u (local.get $e)))))
            (local.set $d5 (i16x8.add
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $a)) (i16x8.extend_high_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $c)) (i16x8.extend_high_i8x16_u (local.get $e)))))
            (local.set $d4 (i32x4.dot_i16x8_s (local.get $d4) (local.get $w2)))
            (local.set $d5 (i32x4.dot_i16x8_s (local.get $d5) (local.get $w1)))
            ;; Pair sums: block 0 = d0 (all) + d1.0 + d1.1; block 1 = d1.2 + d1.3 + d2 (all); block 2 = d3 (all) + d4.0 +
            ;; d4.1; block 3 = d4.2 + d4.3 + d5 (all).
            ;; a = [d0.0+d0.1, d0.2+d0.3, d2.0+d2.1, d2.2+d2.3], b = the same of d3 and d5.
            (local.set $a (i32x4.add
              (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $d0) (local.get $d2))
              (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $d0) (local.get $d2))))
            (local.set $b (i32x4.add
              (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $d3) (local.get $d5))
              (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $d3) (local.get $d5))))
            ;; [d0 all, d2 all, d3 all, d5 all] + [d1.0+d1.1, d1.2+d1.3, d4.0+d4.1, d4.2+d4.3], plus 32 to round.
            (local.set $a (i32x4.add
              (i32x4.add
                (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a) (local.get $b))
                (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a) (local.get $b)))
              (i32x4.add
                (i32x4.add
                  (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $d1) (local.get $d4))
                  (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $d1) (local.get $d4)))
                (v128.const i32x4 32 32 32 32))))
            ;; Over 64; the four grey bytes (each at most 255) stored at once.
            (local.set $a (i32x4.shr_u (local.get $a) (i32.const 6)))
            (local.set $a (i16x8.narrow_i32x4_u (local.get $a) (local.get $a)))
            (i32.store (local.get $out) (i32x4.extract_lane 0 (i8x16.narrow_i16x8_u (local.get $a) (local.get $a))))
            (local.set $out (i32.add (local.get $out) (i32.const 4)))
            (local.set $x (i32.add (local.get $x) (i32.const 48)))
            (br $group)))
        (local.set $rgb (i32.add (local.get $rgb) (i32.shl (local.get $row) (i32.const 2))))
        (local.set $blockRows (i32.sub (local.get $blockRows) (i32.const 1)))
        (br $blockRow))))

  ;; The R, G and B sums of 4x4 blocks (image.ts blockSums, factor 4), as 32-bit integers: what the locator compares
  ;; with the empty platform's. Sixteen pixels (48 bytes, three vectors) of four rows at a time make four blocks. The
  ;; rows are added as 16-bit lanes (column sums c, at most 1020), then each block's channel is the sum of four columns
  ;; three apart: s[i] = c[i] + c[i + 3], t[i] = s[i] + s[i + 6] (at most 4080), and block k's channel ch is t[12k + ch].
  ;; Integer sums: the same numbers as the JavaScript paths, whatever the order.
  ;; rgb: the frame, width x height x 3 bytes; width a multiple of 16. out: (width / 4) x (height / 4) x 3 u32 values.
  (func (export "sums4") (param $rgb i32) (param $width i32) (param $height i32) (param $out i32)
    (local $row i32) (local $row2 i32) (local $row3 i32) (local $blockRows i32) (local $x i32) (local $rowEnd i32) (local $p i32)
    (local $a v128) (local $b v128) (local $c v128) (local $e v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $c4 v128) (local $c5 v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $s4 v128) (local $s5 v128)
    (local $t0 v128) (local $t1 v128) (local $t3 v128) (local $t4 v128)
    (local.set $row (i32.mul (local.get $width) (i32.const 3)))
    (local.set $row2 (i32.shl (local.get $row) (i32.const 1)))
    (local.set $row3 (i32.mul (local.get $row) (i32.const 3)))
    (local.set $blockRows (i32.div_u (local.get $height) (i32.const 4)))
    (block $done
      (loop $blockRow
        (br_if $done (i32.eqz (local.get $blockRows)))
        (local.set $x (local.get $rgb))
        (local.set $rowEnd (i32.add (local.get $rgb) (local.get $row)))
        (block $rowDone
          (loop $group
            (br_if $rowDone (i32.ge_u (local.get $x) (local.get $rowEnd)))
            ;; Column sums of the four rows: c0, c1 of bytes 0-15, c2, c3 of 16-31, c4, c5 of 32-47.
            (local.set $p (local.get $x))
            (local.set $a (v128.load (local.get $p)))
            (local.set $b (v128.load (i32.add (local.get $p) (local.get $row))))
            (local.set $c (v128.load (i32.add (local.get $p) (local.get $row2))))
            (local.set $e (v128.load (i32.add (local.get $p) (local.get $row3))))
            (local.set $c0 (i16x8.add
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $a)) (i16x8.extend_low_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $c)) (i16x8.extend_low_i8x16_u (local.get $e)))))
            (local.set $c1 (i16x8.add
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $a)) (i16x8.extend_high_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $c)) (i16x8.extend_high_i8x16_u (local.get $e)))))
            (local.set $p (i32.add (local.get $x) (i32.const 16)))
            (local.set $a (v128.load (local.get $p)))
            (local.set $b (v128.load (i32.add (local.get $p) (local.get $row))))
            (local.set $c (v128.load (i32.add (local.get $p) (local.get $row2))))
            (local.set $e (v128.load (i32.add (local.get $p) (local.get $row3))))
            (local.set $c2 (i16x8.add
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $a)) (i16x8.extend_low_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $c)) (i16x8.extend_low_i8x16_u (local.get $e)))))
            (local.set $c3 (i16x8.add
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $a)) (i16x8.extend_high_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $c)) (i16x8.extend_high_i8x16_u (local.get $e)))))
            (local.set $p (i32.add (local.get $x) (i32.const 32)))
            (local.set $a (v128.load (local.get $p)))
            (local.set $b (v128.load (i32.add (local.get $p) (local.get $row))))
            (local.set $c (v128.load (i32.add (local.get $p) (local.get $row2))))
            (local.set $e (v128.load (i32.add (local.get $p) (local.get $row3))))
            (local.set $c4 (i16x8.add
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $a)) (i16x8.extend_low_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_low_i8x16_u (local.get $c)) (i16x8.extend_low_i8x16_u (local.get $e)))))
            (local.set $c5 (i16x8.add
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $a)) (i16x8.extend_high_i8x16_u (local.get $b)))
              (i16x8.add (i16x8.extend_high_i8x16_u (local.get $c)) (i16x8.extend_high_i8x16_u (local.get $e)))))
            ;; s = c + c three lanes on (lanes 3-7 of this vector, 0-2 of the next). s5's last lanes are never read.
            (local.set $s0 (i16x8.add (local.get $c0) (i8x16.shuffle 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 (local.get $c0) (local.get $c1))))
            (local.set $s1 (i16x8.add (local.get $c1) (i8x16.shuffle 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 (local.get $c1) (local.get $c2))))
            (local.set $s2 (i16x8.add (local.get $c2) (i8x16.shuffle 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 (local.get $c2) (local.get $c3))))
            (local.set $s3 (i16x8.add (local.get $c3) (i8x16.shuffle 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 (local.get $c3) (local.get $c4))))
            (local.set $s4 (i16x8.add (local.get $c4) (i8x16.shuffle 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 (local.get $c4) (local.get $c5))))
            (local.set $s5 (i16x8.add (local.get $c5) (i8x16.shuffle 6 7 8 9 10 11 12 13 14 15 0 1 2 3 4 5 (local.get $c5) (local.get $c5))))
            ;; t = s + s six lanes on; the blocks' sums are t[0-2] (t0), t[12-14] (t1 lanes 4-6), t[24-26] (t3 lanes
            ;; 0-2), t[36-38] (t4 lanes 4-6).
            (local.set $t0 (i16x8.add (local.get $s0) (i8x16.shuffle 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 (local.get $s0) (local.get $s1))))
            (local.set $t1 (i16x8.add (local.get $s1) (i8x16.shuffle 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 (local.get $s1) (local.get $s2))))
            (local.set $t3 (i16x8.add (local.get $s3) (i8x16.shuffle 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 (local.get $s3) (local.get $s4))))
            (local.set $t4 (i16x8.add (local.get $s4) (i8x16.shuffle 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 (local.get $s4) (local.get $s5))))
            ;; a = [t0.0 t0.1 t0.2 t1.4 t1.5 t1.6 t3.0 t3.1], b = [t3.2 t4.4 t4.5 t4.6]: blocks 0-3's R G B in order.
            (local.set $a (i8x16.shuffle 0 1 2 3 4 5 24 25 26 27 28 29 0 1 2 3 (local.get $t0) (local.get $t1)))
            (local.set $a (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 16 17 18 19 (local.get $a) (local.get $t3)))
            (local.set $b (i8x16.shuffle 4 5 24 25 26 27 28 29 0 1 2 3 4 5 6 7 (local.get $t3) (local.get $t4)))
            (v128.store (local.get $out) (i32x4.extend_low_i16x8_u (local.get $a)))
            (v128.store offset=16 (local.get $out) (i32x4.extend_high_i16x8_u (local.get $a)))
            (v128.store offset=32 (local.get $out) (i32x4.extend_low_i16x8_u (local.get $b)))
            (local.set $out (i32.add (local.get $out) (i32.const 48)))
            (local.set $x (i32.add (local.get $x) (i32.const 48)))
            (br $group)))
        (local.set $rgb (i32.add (local.get $rgb) (i32.shl (local.get $row) (i32.const 2))))
        (local.set $blockRows (i32.sub (local.get $blockRows) (i32.const 1)))
        (br $blockRow))))

  ;; changed(a, b, blocks, thr, out): for each of `blocks` blocks (3 u32 sums each, RGB, at a and at b), out[k] = 1 when
  ;; some channel's a - b lies outside -thr..thr (thr >= 0), else 0: the blocks the locator's exact test must look at.
  ;; Four blocks (twelve sums, three vectors) a pass: `blocks` must be a multiple of 4 (a strip of a frame whose width
  ;; is a multiple of 16 is). The sums are small (at most 4080 per channel of a 4x4 block), so their differences never wrap.
  (func (export "changed") (param $a i32) (param $b i32) (param $blocks i32) (param $thr i32) (param $out i32)
    (local $k i32) (local $m i32) (local $hi v128) (local $lo v128) (local $d v128)
    (local.set $hi (i32x4.splat (local.get $thr)))
    (local.set $lo (i32x4.splat (i32.sub (i32.const 0) (local.get $thr))))
    (local.set $k (i32.const 0))
    (block $fours
      (loop $eachFour
        (br_if $fours (i32.gt_u (i32.add (local.get $k) (i32.const 4)) (local.get $blocks)))
        ;; m: bit j set when sum j of the twelve is outside; block i is bits 3i..3i+2.
        (local.set $d (i32x4.sub (v128.load (local.get $a)) (v128.load (local.get $b))))
        (local.set $m (i32x4.bitmask (v128.or (i32x4.gt_s (local.get $d) (local.get $hi)) (i32x4.lt_s (local.get $d) (local.get $lo)))))
        (local.set $d (i32x4.sub (v128.load offset=16 (local.get $a)) (v128.load offset=16 (local.get $b))))
        (local.set $m (i32.or (local.get $m) (i32.shl (i32x4.bitmask (v128.or (i32x4.gt_s (local.get $d) (local.get $hi)) (i32x4.lt_s (local.get $d) (local.get $lo)))) (i32.const 4))))
        (local.set $d (i32x4.sub (v128.load offset=32 (local.get $a)) (v128.load offset=32 (local.get $b))))
        (local.set $m (i32.or (local.get $m) (i32.shl (i32x4.bitmask (v128.or (i32x4.gt_s (local.get $d) (local.get $hi)) (i32x4.lt_s (local.get $d) (local.get $lo)))) (i32.const 8))))
        (i32.store (local.get $out)
          (i32.or
            (i32.or (i32.ne (i32.and (local.get $m) (i32.const 0x7)) (i32.const 0))
              (i32.shl (i32.ne (i32.and (local.get $m) (i32.const 0x38)) (i32.const 0)) (i32.const 8)))
            (i32.or (i32.shl (i32.ne (i32.and (local.get $m) (i32.const 0x1c0)) (i32.const 0)) (i32.const 16))
              (i32.shl (i32.ne (i32.and (local.get $m) (i32.const 0xe00)) (i32.const 0)) (i32.const 24)))))
        (local.set $a (i32.add (local.get $a) (i32.const 48)))
        (local.set $b (i32.add (local.get $b) (i32.const 48)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $eachFour))))

)
