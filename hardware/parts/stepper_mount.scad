// Stepper variant of the servo mount: holds a NEMA 17 by its face (four M3), shaft on the pivot axis.
// Use it with stepper_hub.scad and the firmware's `config tumbler=stepper`.
include <params.scad>

// The hub (14 mm) on the shaft meets the tower's drive boss: drive_gap = depth + plate + 2 + hub + boss.
module stepper_mount() {
assert(drive_gap - boss - 16 - box_plate >= nema_depth, "drive_gap too small for the stepper");
motor_box(depth = drive_gap - boss - 16 - box_plate, front = [nema + 8, nema + 8],
          window = [nema_boss + 1, 0], round_window = true,
          holes = [for (sy = [-1, 1], sz = [-1, 1]) [sy * nema_holes / 2, sz * nema_holes / 2]],
          hole_d = m3_hole);
}

if (!ASSEMBLY) stepper_mount();
