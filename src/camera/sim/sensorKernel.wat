;; The simulated camera's sensor (sensor.ts): each pixel of an RGBA frame scaled by its gain and the light's tint,
;; its glare added, then one sensor-noise value per channel, stored as RGB bytes. Each channel's value is worked out by
;; the same operations, in the same order and in doubles, as the JavaScript loop it replaces, and stored as a
;; Uint8ClampedArray stores a number (rounded half to even, then held to 0..255): the frames are byte for byte the same.
;; A scalar kernel was no faster than that loop (some 15-20 ns a pixel on the shared 2-core machine); this one works on
;; two channels at a time in vectors, and where the frame is its empty platform adds only the noise.
;; A byte is made by adding 1.5 x 2^52 to the value held to 0..255: the sum's units are the value rounded half to even
;; (the add's own rounding), its low byte that whole number. Holding before rounding gives the bytes rounding then
;; holding did (rounding keeps order and 0 and 255 are whole), and the add costs a fraction of f64x2.nearest and
;; i32x4.trunc_sat_f64x2_s_zero, which V8 lowers to long sequences on x64: lightLit, most of a still frame's capture,
;; went from some 4.3 to 2 ms a frame.
(module
  (import "env" "memory" (memory 1))
  ;; 1.5 x 2^52: see the header.
  (global $byteMagic f64 (f64.const 6755399441055744))

  ;; n pixels. rgba: 4 bytes a pixel. gain, glare: an f32 a pixel. noise: f32s, mask + 1 of them followed by copies of
  ;; the first 4, read in turn from index u + 1 (the copies let two neighbours be read at once across the wrap).
  ;; out: 3 bytes a pixel.
  (func (export "light")
    (param $rgba i32) (param $gain i32) (param $glare i32) (param $noise i32) (param $mask i32) (param $u i32)
    (param $out i32) (param $n i32) (param $tr f64) (param $tg f64) (param $tb f64)
    (local $end i32) (local $px v128) (local $g v128) (local $add v128) (local $rg v128) (local $b v128)
    (local $trg v128) (local $tb0 v128)
    (local.set $trg (f64x2.replace_lane 1 (f64x2.splat (local.get $tr)) (local.get $tg)))
    (local.set $tb0 (f64x2.splat (local.get $tb)))
    (local.set $end (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 3))))
    (block $done
      (loop $pixel
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        ;; r g b a as four i32 lanes.
        (local.set $px (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u (v128.load32_zero (local.get $rgba)))))
        (local.set $g (f64x2.promote_low_f32x4 (v128.load32_splat (local.get $gain))))
        (local.set $add (f64x2.promote_low_f32x4 (v128.load32_splat (local.get $glare))))
        ;; ((channel x gain) x tint + glare) + noise, for r and g, then b.
        (local.set $rg
          (f64x2.add
            (f64x2.add (f64x2.mul (f64x2.mul (f64x2.convert_low_i32x4_u (local.get $px)) (local.get $g)) (local.get $trg)) (local.get $add))
            (f64x2.promote_low_f32x4 (v128.load64_zero
              (i32.add (local.get $noise) (i32.shl (i32.and (i32.add (local.get $u) (i32.const 1)) (local.get $mask)) (i32.const 2)))))))
        (local.set $b
          (f64x2.add
            (f64x2.add
              (f64x2.mul (f64x2.mul (f64x2.convert_low_i32x4_u (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $px) (local.get $px))) (local.get $g)) (local.get $tb0))
              (local.get $add))
            (f64x2.promote_low_f32x4 (v128.load32_zero
              (i32.add (local.get $noise) (i32.shl (i32.and (i32.add (local.get $u) (i32.const 3)) (local.get $mask)) (i32.const 2)))))))
        (local.set $u (i32.and (i32.add (local.get $u) (i32.const 3)) (local.get $mask)))
        ;; Held to 0..255, rounded half to even: each lane's low byte.
        (local.set $rg (f64x2.add
          (f64x2.pmin (f64x2.pmax (local.get $rg) (f64x2.splat (f64.const 0))) (f64x2.splat (f64.const 255))) (f64x2.splat (global.get $byteMagic))))
        (local.set $b (f64x2.add
          (f64x2.pmin (f64x2.pmax (local.get $b) (f64x2.splat (f64.const 0))) (f64x2.splat (f64.const 255))) (f64x2.splat (global.get $byteMagic))))
        (i64.store8 (local.get $out) (i64x2.extract_lane 0 (local.get $rg)))
        (i64.store8 offset=1 (local.get $out) (i64x2.extract_lane 1 (local.get $rg)))
        (i64.store8 offset=2 (local.get $out) (i64x2.extract_lane 0 (local.get $b)))
        (local.set $rgba (i32.add (local.get $rgba) (i32.const 4)))
        (local.set $gain (i32.add (local.get $gain) (i32.const 4)))
        (local.set $glare (i32.add (local.get $glare) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 3)))
        (br $pixel))))

  ;; n channel values (n a multiple of 4) where the frame is its empty platform: lit holds, per channel, the platform's
  ;; value already scaled and lit ((channel x gain) x tint + glare, an f64 each, worked out once), so only the noise is
  ;; added: the same doubles as the whole sum, in the same order. Four channels at a time; the noise table's copies
  ;; of its first 4 values let four neighbours be read at once across the wrap.
  (func (export "lightLit")
    (param $lit i32) (param $noise i32) (param $mask i32) (param $u i32) (param $out i32) (param $n i32)
    (local $end i32) (local $z v128) (local $lo v128) (local $hi v128) (local $zero v128) (local $top v128) (local $magic v128)
    (local.set $end (i32.add (local.get $out) (local.get $n)))
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $top (f64x2.splat (f64.const 255)))
    (local.set $magic (f64x2.splat (global.get $byteMagic)))
    (block $done
      (loop $four
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $z (v128.load (i32.add (local.get $noise) (i32.shl (i32.and (i32.add (local.get $u) (i32.const 1)) (local.get $mask)) (i32.const 2)))))
        (local.set $lo (f64x2.add (v128.load (local.get $lit)) (f64x2.promote_low_f32x4 (local.get $z))))
        (local.set $hi (f64x2.add (v128.load offset=16 (local.get $lit))
          (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $z) (local.get $z)))))
        (local.set $lo (f64x2.add (f64x2.pmin (f64x2.pmax (local.get $lo) (local.get $zero)) (local.get $top)) (local.get $magic)))
        (local.set $hi (f64x2.add (f64x2.pmin (f64x2.pmax (local.get $hi) (local.get $zero)) (local.get $top)) (local.get $magic)))
        ;; The four lanes' low bytes, in order.
        (v128.store32_lane 0 (local.get $out) (i8x16.shuffle 0 8 16 24 0 0 0 0 0 0 0 0 0 0 0 0 (local.get $lo) (local.get $hi)))
        (local.set $u (i32.and (i32.add (local.get $u) (i32.const 4)) (local.get $mask)))
        (local.set $lit (i32.add (local.get $lit) (i32.const 32)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $four))))
)
